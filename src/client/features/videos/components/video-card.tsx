import { useState } from 'react';
import { Link } from 'wouter';
import { Play } from 'lucide-react';
import { formatWholeDollars } from '../../../../common/money.js';
import { Card } from '../../../components/ui/card';
import { formatDuration } from '../../../lib/format';
import type { VideoListItem } from '../api/get-videos';

// A minimal card for the foundation; the catalog issue adds inline playback and the owner/buyer actions.
export function VideoCard({ video }: { video: VideoListItem }) {
  const [thumbnailBroken, setThumbnailBroken] = useState(false);
  const showThumbnail = Boolean(video.thumbnailUrl) && !thumbnailBroken;

  return (
    <Card className="group relative flex w-full flex-col overflow-hidden transition-shadow hover:shadow-lg has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-ring">
      <div className="relative aspect-video bg-slate-200">
        {showThumbnail ? (
          <img
            src={video.thumbnailUrl ?? undefined}
            alt=""
            loading="lazy"
            className="size-full object-cover"
            onError={() => setThumbnailBroken(true)}
          />
        ) : (
          <div className="flex size-full items-end justify-center bg-linear-to-br from-slate-200 to-slate-300 pb-4 text-slate-600">
            <span className="text-sm font-medium">Thumbnail</span>
          </div>
        )}
        <span
          aria-hidden
          className="absolute inset-0 m-auto inline-flex size-14 items-center justify-center rounded-full bg-ink/70 text-white opacity-90 transition group-hover:scale-105 group-hover:bg-primary"
        >
          <Play className="size-6 translate-x-0.5 fill-current" />
        </span>
        {video.duration != null && (
          <span className="absolute right-2 bottom-2 rounded-md bg-ink/80 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums">
            {formatDuration(video.duration)}
          </span>
        )}
        {(video.isOwner || video.isPurchased) && (
          <span className="absolute top-2 left-2 rounded-full bg-accent px-2.5 py-0.5 text-xs font-bold text-accent-foreground">
            {video.isOwner ? 'Your Video' : 'Purchased'}
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-3">
          <h3 className="line-clamp-2 font-semibold leading-snug">
            {/* The stretched link makes the whole card the click target while keeping one tab stop. */}
            <Link
              href={`/video/${video.id}`}
              className="after:absolute after:inset-0 focus-visible:outline-none"
            >
              {video.title}
            </Link>
          </h3>
          <span className="shrink-0 rounded-lg bg-primary/10 px-2 py-0.5 text-base font-bold text-primary">
            {formatWholeDollars(video.price)}
          </span>
        </div>
        <p className="line-clamp-2 text-sm text-muted-foreground">{video.description}</p>
        <p className="mt-auto pt-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">
          {video.category}
        </p>
      </div>
    </Card>
  );
}
