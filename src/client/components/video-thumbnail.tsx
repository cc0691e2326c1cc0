import { useState } from 'react';
import { Link2 } from 'lucide-react';
import type { Video } from '#common/schemas/videos.js';
import { linkSiteName } from '#common/video-platforms.js';
import { cn } from '../lib/cn';

type VideoThumbnailProps = {
  video: Pick<Video, 'thumbnailUrl' | 'isExternalVideo' | 'externalVideoUrl'>;
  /** Classes of the picture (it always covers its box). */
  className?: string;
  /** The page's largest image at first sight (LCP): loaded at once, ahead of the rest. */
  priority?: boolean;
  /** Loaded only near the viewport (cards in a long list). */
  lazy?: boolean;
  /** A small box (the checkout's summary): the placeholder's words sit in its middle, smaller. */
  compact?: boolean;
};

/**
 * A video's picture, or in its place a placeholder (spec 2: a missing or broken thumbnail): grey 'Thumbnail'
 * for our own files, and for a link the name of its site, since a link's picture is known only
 * for YouTube. Its box is the caller's; a play button may sit in its middle, so the words sit low.
 */
export function VideoThumbnail({
  video,
  className,
  priority = false,
  lazy = false,
  compact,
}: VideoThumbnailProps) {
  // The picture that failed to load: a new one (processing done, a new version) gets its own chance.
  const [broken, setBroken] = useState<string | null>(null);
  if (video.thumbnailUrl && video.thumbnailUrl !== broken) {
    return (
      <img
        src={video.thumbnailUrl}
        alt=""
        loading={priority ? 'eager' : lazy ? 'lazy' : undefined}
        fetchPriority={priority ? 'high' : undefined}
        decoding="async"
        className={cn('size-full object-cover', className)}
        onError={() => setBroken(video.thumbnailUrl)}
      />
    );
  }
  return (
    <div
      data-testid="thumbnail-placeholder"
      className={cn(
        'flex size-full justify-center bg-linear-to-br from-slate-200 to-slate-300 font-medium text-slate-600',
        compact ? 'items-center px-2 text-center text-xs' : 'items-end pb-4 text-sm',
      )}
    >
      {video.isExternalVideo ? (
        <span className="inline-flex min-w-0 items-center gap-1.5">
          <Link2 aria-hidden className="size-4 shrink-0" />
          <span className="truncate">{linkSiteName(video.externalVideoUrl)}</span>
        </span>
      ) : (
        <span>Thumbnail</span>
      )}
    </div>
  );
}
