import { AlertTriangle } from 'lucide-react';
import { HOME_PLACEHOLDER_CARDS, HOME_SECTION_TITLE } from '../../../../common/constants.js';
import { errorMessage } from '../../../lib/error-message';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useVideos } from '../api/get-videos';
import { HeroBanner } from '../components/hero-banner';
import { VideoCard } from '../components/video-card';
import { VideoCardSkeleton } from '../components/video-card-skeleton';

const GRID = 'grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3';

export function HomePage() {
  useDocumentTitle();
  return (
    <div className="mx-auto grid w-full max-w-7xl gap-12 px-4 py-8 sm:px-6 lg:px-8">
      <HeroBanner />
      <section aria-labelledby="todays-picks" className="grid gap-6">
        <div className="flex items-end justify-between gap-4">
          <h2 id="todays-picks" className="text-2xl font-bold tracking-tight">
            {HOME_SECTION_TITLE}
          </h2>
        </div>
        <VideoGrid />
      </section>
    </div>
  );
}

function VideoGrid() {
  const { data: videos, isPending, isError, error } = useVideos();

  if (isPending) {
    return (
      <div className={GRID} aria-busy="true">
        <span role="status" className="sr-only">
          Loading videos
        </span>
        {Array.from({ length: HOME_PLACEHOLDER_CARDS }, (_, index) => (
          <VideoCardSkeleton key={index} />
        ))}
      </div>
    );
  }

  if (isError) {
    return (
      <p
        role="alert"
        className="flex items-center gap-2 rounded-card border border-destructive/30 bg-card p-6 text-destructive"
      >
        <AlertTriangle aria-hidden className="size-5 shrink-0" />
        Could not load videos: {errorMessage(error)}
      </p>
    );
  }

  if (videos.length === 0) {
    return (
      <p className="rounded-card border border-dashed bg-card p-10 text-center text-muted-foreground">
        No videos available yet. Be the first to upload!
      </p>
    );
  }

  return (
    <ul className={GRID}>
      {videos.map((video) => (
        <li key={video.id} className="flex">
          <VideoCard video={video} />
        </li>
      ))}
    </ul>
  );
}
