import { AlertTriangle, Clock, LoaderCircle } from 'lucide-react';
import type { Video } from '#common/schemas/videos.js';
import type { MediaStatus } from './video-media';

/** A video of ours shows its processing state until it is ready (owners see these in their lists). */
export function ProcessingOverlay({
  video,
  status,
}: {
  video: Video;
  status: Exclude<MediaStatus, 'ready'>;
}) {
  const progress = Math.max(0, Math.min(100, Math.round(video.transcodingProgress)));
  return (
    <div
      data-testid="processing-state"
      className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-ink/70 p-4 text-center text-white"
    >
      {status === 'pending' && (
        <>
          <Clock aria-hidden className="size-7 text-amber-300" />
          <p className="font-semibold">Pending</p>
          <p className="text-sm text-slate-200">Waiting to be processed</p>
        </>
      )}
      {status === 'processing' && (
        <>
          <LoaderCircle aria-hidden className="size-7 animate-spin text-emerald-300" />
          <p className="font-semibold">Processing {progress}%</p>
          <div
            role="progressbar"
            aria-label={`Processing ${video.title}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
            className="h-1.5 w-2/3 overflow-hidden rounded-full bg-white/20"
          >
            <div className="h-full rounded-full bg-emerald-400" style={{ width: `${progress}%` }} />
          </div>
        </>
      )}
      {status === 'failed' && (
        <>
          <AlertTriangle aria-hidden className="size-7 text-red-300" />
          <p className="font-semibold">Processing failed</p>
          <p className="line-clamp-3 text-sm text-slate-200">
            {video.transcodingError || 'The video could not be processed.'}
          </p>
        </>
      )}
    </div>
  );
}
