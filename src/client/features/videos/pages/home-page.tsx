import { Link } from 'wouter';
import { ArrowRight } from 'lucide-react';
import { HOME_SECTION_TITLE } from '#common/constants.js';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useVideos } from '../api/get-videos';
import { HeroBanner } from '../components/hero-banner';
import { VideoGrid, VideoGridEmpty, VideoGridError, VideoGridSkeleton } from '../components/video-grid';

export function HomePage() {
  useDocumentTitle();
  return (
    <div className="mx-auto grid w-full max-w-7xl gap-12 px-4 py-8 sm:px-6 lg:px-8">
      <HeroBanner />
      <section aria-labelledby="todays-picks" className="grid gap-6">
        <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-2">
          <h2 id="todays-picks" className="text-2xl font-bold tracking-tight">
            {HOME_SECTION_TITLE}
          </h2>
          <Link
            href="/videos"
            className="inline-flex items-center gap-1 rounded-md text-sm font-semibold text-primary hover:underline"
          >
            See all picks
            <ArrowRight aria-hidden className="size-4" />
          </Link>
        </div>
        <LatestVideos />
      </section>
    </div>
  );
}

/** The newest page of the catalog (24); the rest is a click away on /videos. */
function LatestVideos() {
  const { data: videos, isPending, isError, error } = useVideos();
  if (isPending) return <VideoGridSkeleton />;
  if (isError) return <VideoGridError>Could not load videos: {errorMessage(error)}</VideoGridError>;
  if (videos.length === 0) return <VideoGridEmpty title="No videos available yet. Be the first to upload!" />;
  return <VideoGrid videos={videos} />;
}
