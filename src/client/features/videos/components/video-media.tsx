import { lazy, Suspense, type ReactNode } from 'react';
import { LoaderCircle, Play } from 'lucide-react';
import type { Video } from '#common/schemas/videos.js';
import { VideoThumbnail } from '#client/components/video-thumbnail.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatDuration } from '#client/lib/format.ts';
import { ProcessingOverlay } from './processing-overlay';
import type { InlinePlayback } from './use-inline-playback';

// The players load on first use (hover, focus or press of play), so a page of cards costs no player code:
// the home page's JavaScript budget has no room for them. External links need the shared link
// parser, which brings zod; our own files do not, so they are separate chunks.
const loadFilePlayer = () => import('./file-player');
const loadExternalPlayer = () => import('./external-player');
const FilePlayer = lazy(() =>
  loadFilePlayer().then((module) => ({ default: module.FilePlayer }), playerLoadFailed),
);
const ExternalPlayer = lazy(() =>
  loadExternalPlayer().then((module) => ({ default: module.ExternalPlayer }), playerLoadFailed),
);

/** A player whose code could not be fetched (offline, or a new deploy) fails on its card, not the page. */
function playerLoadFailed() {
  return {
    default: ({ onClose }: { onClose: () => void }) => (
      <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-4 text-center text-sm text-white">
        <p role="alert">
          <strong>Playback Error:</strong> There was an issue playing this video. Please try again later.
        </p>
        <button
          type="button"
          onClick={onClose}
          className="rounded-lg px-3 py-1.5 font-semibold ring-1 ring-white/40"
        >
          Close player
        </button>
      </div>
    ),
  };
}

export function prefetchPlayer(video: Pick<Video, 'isExternalVideo'>): void {
  // A failed prefetch is retried by the real load, which reports it.
  (video.isExternalVideo ? loadExternalPlayer() : loadFilePlayer()).catch(() => undefined);
}

export type MediaStatus = 'ready' | 'pending' | 'processing' | 'failed';

/** External links need no processing; our own files play once transcoded (docs/product-decisions.md 'Media'). */
export function mediaStatusOf(video: Pick<Video, 'isExternalVideo' | 'transcodingStatus'>): MediaStatus {
  return video.isExternalVideo ? 'ready' : video.transcodingStatus;
}

type VideoMediaProps = {
  video: Video;
  playback: InlinePlayback;
  /** Badges and the like, over the thumbnail's top-left corner. */
  children?: ReactNode;
  className?: string;
  /** The page's largest image at first sight (LCP): loaded at once, ahead of the rest. */
  priority?: boolean;
};

/** The thumbnail with its play button and duration, and in its place the inline player once playing. */
export function VideoMedia({ video, playback, children, className, priority = false }: VideoMediaProps) {
  const status = mediaStatusOf(video);
  const { phase } = playback;

  if (phase === 'playing') {
    return (
      // z-10 lifts the player above the card's stretched link, so its controls take the clicks.
      <div className={cn('relative z-10 aspect-video overflow-hidden bg-black', className)}>
        <Suspense fallback={<LoadingOverlay />}>
          {video.isExternalVideo ? (
            <ExternalPlayer
              url={video.externalVideoUrl ?? ''}
              title={video.title}
              poster={video.thumbnailUrl}
              onClose={playback.close}
            />
          ) : (
            <FilePlayer
              src={video.videoUrl ?? video.hlsUrl}
              verify
              title={video.title}
              poster={video.thumbnailUrl}
              onClose={playback.close}
            />
          )}
        </Suspense>
      </div>
    );
  }

  return (
    <div className={cn('relative aspect-video overflow-hidden bg-slate-200', className)}>
      <VideoThumbnail
        video={video}
        priority={priority}
        lazy
        className="transition-transform duration-300 group-hover:scale-[1.02]"
      />
      {phase === 'starting' ? (
        <LoadingOverlay />
      ) : status === 'ready' ? (
        <button
          id={playback.playButtonId}
          type="button"
          aria-label={`Play ${video.title}`}
          onClick={playback.play}
          onPointerEnter={() => prefetchPlayer(video)}
          onFocus={() => prefetchPlayer(video)}
          className="absolute inset-0 z-10 m-auto inline-flex size-14 cursor-pointer items-center justify-center rounded-full bg-ink/70 text-white shadow-lg ring-2 ring-white/70 transition hover:scale-105 hover:bg-primary focus-visible:bg-primary focus-visible:outline-offset-4 focus-visible:outline-white"
        >
          <Play aria-hidden className="size-6 translate-x-0.5 fill-current" />
        </button>
      ) : (
        <ProcessingOverlay video={video} status={status} />
      )}
      {video.duration != null && video.duration > 0 && (
        <span className="absolute right-2 bottom-2 rounded-md bg-ink/80 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums">
          <span className="sr-only">Duration </span>
          {formatDuration(video.duration)}
        </span>
      )}
      {children && <div className="absolute top-2 left-2 flex flex-wrap gap-1.5">{children}</div>}
    </div>
  );
}

function LoadingOverlay() {
  return (
    <div className="absolute inset-0 flex items-center justify-center bg-ink/40">
      <span role="status" className="inline-flex">
        <LoaderCircle aria-hidden className="size-10 animate-spin text-white" />
        <span className="sr-only">Loading player</span>
      </span>
    </div>
  );
}
