import { useMemo, type ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { HOME_PLACEHOLDER_CARDS } from '#common/constants.js';
import type { Video } from '#common/schemas/videos.js';
import { cn } from '#client/lib/cn.ts';
import { VideoCard } from './video-card';
import { VideoCardSkeleton } from './video-card-skeleton';

/** spec 2: one column on small screens, two on medium, three on large. */
export const VIDEO_GRID_CLASSES = 'grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3';

/** The most cards a row holds (lg: three): the first row is what a visitor sees first. */
export const VIDEO_GRID_ROW = 3;

type VideoGridProps = {
  videos: readonly Video[];
  className?: string;
  /** The grid is the page's main content: its first row's thumbnails load at once (LCP). */
  firstRowFirst?: boolean;
  /** 2 when the grid sits right under the page's h1 (no section heading between). */
  headingLevel?: 2 | 3;
  /** Each card's Follow button; off beside a page's own Follow button for the same cappers. */
  showFollow?: boolean;
};

export function VideoGrid({
  videos,
  className,
  firstRowFirst = false,
  headingLevel,
  showFollow = true,
}: VideoGridProps) {
  const cappers = useMemo(() => [...new Set(videos.map((video) => video.capper.username))].sort(), [videos]);
  return (
    <ul className={cn(VIDEO_GRID_CLASSES, className)}>
      {videos.map((video, index) => (
        <li key={video.id} className="flex">
          <VideoCard
            video={video}
            priority={firstRowFirst && index < VIDEO_GRID_ROW}
            headingLevel={headingLevel}
            recordsAmong={cappers}
            showFollow={showFollow}
          />
        </li>
      ))}
    </ul>
  );
}

/** spec 2 and 9: three placeholder cards while the list loads. */
export function VideoGridSkeleton({ label = 'Loading videos' }: { label?: string }) {
  return (
    <div className={VIDEO_GRID_CLASSES} aria-busy="true">
      <span role="status" className="sr-only">
        {label}
      </span>
      {Array.from({ length: HOME_PLACEHOLDER_CARDS }, (_, index) => (
        <VideoCardSkeleton key={index} />
      ))}
    </div>
  );
}

export function VideoGridEmpty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div
      data-testid="videos-empty"
      className="grid justify-items-center gap-2 rounded-card border border-dashed bg-card px-6 py-12 text-center"
    >
      <p className="text-lg font-semibold">{title}</p>
      {children && <div className="grid justify-items-center gap-4 text-muted-foreground">{children}</div>}
    </div>
  );
}

export function VideoGridError({ children }: { children: ReactNode }) {
  return (
    <p
      role="alert"
      className="flex items-center gap-2 rounded-card border border-destructive/30 bg-card p-6 text-destructive"
    >
      <AlertTriangle aria-hidden className="size-5 shrink-0" />
      <span>{children}</span>
    </p>
  );
}
