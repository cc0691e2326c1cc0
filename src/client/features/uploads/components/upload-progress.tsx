import { LoaderCircle } from 'lucide-react';
import type { UploadPhase } from '../api/upload-video';

/** Bytes sent, then 'Processing' while the server takes the file in (spec 4 'Upload'). */
export function UploadProgress({ phase }: { phase: UploadPhase }) {
  const processing = phase.phase === 'processing';
  const percent = processing ? 100 : phase.percent;
  const label = processing ? 'Processing…' : `Uploading… ${percent}%`;
  return (
    <div className="grid gap-2" aria-live="polite">
      <div className="flex items-center justify-between text-sm">
        <span className="flex items-center gap-2 font-medium">
          {processing && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
          {label}
        </span>
        {!processing && <span className="text-muted-foreground tabular-nums">{percent}%</span>}
      </div>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={label}
        className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <div
          className={
            processing
              ? 'h-full w-full animate-pulse bg-primary'
              : 'h-full bg-primary transition-[width] duration-300'
          }
          style={processing ? undefined : { width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
