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

/** Sealed picks still on sale, shown before the newest: at most two rows of the grid. */
const VERIFIED_ON_SALE = { status: 'open', verified: true, limit: 6 } as const;

/**
 * The newest page of the catalog (24), with the verified picks still on sale first: those the server finds
 * (any age, newest first) and those of the newest page, then the rest of the page newest first. Both lists
 * show together, so neither pushes the other down; the newest page alone decides the empty state.
 */
function LatestVideos() {
  const { data: videos, isPending, isError, error } = useVideos();
  const verified = useVideos(VERIFIED_ON_SALE);
  if (isPending || verified.isPending) return <VideoGridSkeleton />;
  if (isError) return <VideoGridError>Could not load videos: {errorMessage(error)}</VideoGridError>;
  if (videos.length === 0) return <VideoGridEmpty title="No videos available yet. Be the first to upload!" />;
  const onSale = [...(verified.data ?? []), ...videos.filter((video) => video.pick?.status === 'open')];
  const first = onSale.filter((video, index) => onSale.findIndex((other) => other.id === video.id) === index);
  if (first.length === 0) return <VideoGrid videos={videos} />;
  const shown = new Set(first.map((video) => video.id));
  const rest = videos.filter((video) => !shown.has(video.id));
  return (
    <div className="grid gap-8">
      <section aria-labelledby="verified-on-sale" className="grid gap-4">
        <h3 id="verified-on-sale" className="text-lg font-semibold tracking-tight">
          Verified picks on sale
          <span className="ml-2 text-sm font-normal text-muted-foreground">
            sealed before the game, graded from final scores
          </span>
        </h3>
        <VideoGrid videos={first} />
      </section>
      {rest.length > 0 && (
        <section aria-labelledby="newest-picks" className="grid gap-4">
          <h3 id="newest-picks" className="text-lg font-semibold tracking-tight">
            Newest picks
          </h3>
          <VideoGrid videos={rest} />
        </section>
      )}
    </div>
  );
}
