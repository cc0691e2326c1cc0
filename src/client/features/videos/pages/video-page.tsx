import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, BookOpen, Eye, Pencil, ShoppingCart } from 'lucide-react';
import { formatPrice } from '#common/money.js';
import { formatUnits } from '#common/pick-grading.js';
import type { Video } from '#common/schemas/videos.js';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { authPath } from '#client/lib/auth-redirect.ts';
import { errorMessage, errorStatus } from '#client/lib/error-message.ts';
import { formatDuration } from '#client/lib/format.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useUser } from '#client/features/auth/index.ts';
import { RecordBadge } from '#client/features/cappers/index.ts';
import { FollowButton } from '#client/features/follows/index.ts';
import { PickLogPanel } from '#client/features/pick-log/index.ts';
import { PickSealPanel, usePick } from '#client/features/picks/index.ts';
import { YourSelections } from '#client/features/purchases/index.ts';
import { useFeaturedVideos } from '../api/get-featured-videos';
import { parseVideoId, useVideo, videoQueryKey } from '../api/get-video';
import { useVideoPurchased } from '../api/get-video-purchased';
import { useRecordVideoView } from '../api/record-video-view';
import { DownloadOriginalLink } from '../components/download-original-link';
import { OwnerActions } from '../components/owner-actions';
import { ShareButtons } from '../components/share-buttons';
import { useInlinePlayback } from '../components/use-inline-playback';
import { capperName, SalesClosed, VideoBadge } from '../components/video-card';
import { VideoGrid, VideoGridError } from '../components/video-grid';
import { VideoNotFound } from '../components/video-not-found';
import { prefetchPlayer, VideoMedia } from '../components/video-media';

/**
 * docs/product-decisions.md 'Screens the spec does not show', /video/{id}. A malformed or missing id, or a video not
 * yet public, is 'Video not found'.
 */
export function VideoPage() {
  const { id: segment } = useParams<{ id: string }>();
  const id = parseVideoId(segment);
  const { data: video, isPending, isError, error, refetch } = useVideo(id);
  const status = errorStatus(error);
  const notFound = id === null || status === 404 || status === 400;
  useDocumentTitle(notFound ? 'Video not found' : video?.title);

  if (notFound) return <VideoNotFound />;
  if (isPending) return <PageSpinner label="Loading the video" />;
  if (isError) {
    return (
      <div className="mx-auto grid w-full max-w-3xl justify-items-center gap-4 px-4 py-16">
        <VideoGridError>Could not load this video: {errorMessage(error)}</VideoGridError>
        <Button variant="outline" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return <VideoDetails key={video.id} video={video} />;
}

function VideoDetails({ video }: { video: Video }) {
  const { data: user } = useUser();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const playback = useInlinePlayback(() => prefetchPlayer(video));

  // spec 7: the purchase flag, which checkout refreshes once a payment is recorded.
  const { data: purchaseFlag } = useVideoPurchased(video.id, {
    enabled: Boolean(user) && !video.isOwner && !video.isPurchased,
  });
  const purchased = video.isPurchased || purchaseFlag?.purchased === true;
  useEffect(() => {
    // Bought since this page was cached: fetch the video again, now with its selections.
    if (purchaseFlag?.purchased && !video.isPurchased) {
      void queryClient.invalidateQueries({ queryKey: videoQueryKey(video.id), exact: true });
    }
  }, [purchaseFlag?.purchased, video.isPurchased, video.id, queryClient]);

  // One view per visit of the page (the server counts at most one per viewer per hour).
  const { mutate: recordView } = useRecordVideoView();
  const counted = useRef(false);
  useEffect(() => {
    if (counted.current) return;
    counted.current = true;
    recordView(video.id);
  }, [recordView, video.id]);

  const selections = video.emailInformation;
  const created = new Date(video.createdAt);
  // On a phone the page is one column in the order a visitor needs it: the player and the title,
  // then what they came for (the selections they own, else the price and Buy Winners), then the details.
  // From lg the buy box is a sticky column beside the player and the details.
  return (
    <div className="mx-auto grid w-full max-w-7xl gap-10 px-4 py-4 sm:px-6 sm:py-6 lg:px-8 lg:py-8">
      {/* The buyer's (and owner's) selections first, in large type: where checkout lands. */}
      <YourSelections video={video} purchased={purchased} />
      <div className="grid items-start gap-x-8 gap-y-5 sm:gap-y-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-[auto_1fr]">
        <div className="grid min-w-0 gap-4 sm:gap-6 lg:col-start-1">
          <Link
            href="/videos"
            className="inline-flex w-fit items-center gap-1.5 rounded-md text-sm font-semibold text-muted-foreground hover:text-foreground"
          >
            <ArrowLeft aria-hidden className="size-4" />
            All picks
          </Link>
          <VideoMedia video={video} playback={playback} className="rounded-card shadow-lg" priority>
            {video.isOwner && <VideoBadge>Your Video</VideoBadge>}
            {purchased && <VideoBadge>Purchased</VideoBadge>}
          </VideoMedia>
          <div className="grid gap-2 sm:gap-3">
            <p className="text-sm font-semibold tracking-wide text-primary uppercase">{video.category}</p>
            <h1 className="text-2xl font-bold tracking-tight text-balance sm:text-3xl">{video.title}</h1>
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-muted-foreground">
              <p className="flex items-center gap-2">
                <Avatar name={capperName(video)} className="size-8 text-sm" />
                <span>
                  by{' '}
                  <Link
                    href={`/cappers/${encodeURIComponent(video.capper.username)}`}
                    className="font-semibold text-foreground underline-offset-4 hover:underline"
                  >
                    {capperName(video)}
                  </Link>
                </span>
              </p>
              {/* Its size is reserved while it loads, so the page below never moves (layout shift 0). */}
              <FollowButton username={video.capper.username} name={capperName(video)} isOwn={video.isOwner} />
            </div>
            {/* The capper's verified record, where a buyer decides. Its own line, as tall as the loading
                badge and its dots, so the buy box below never moves when the record arrives. */}
            <div className="min-h-[2.375rem]">
              <RecordBadge username={video.capper.username} />
            </div>
          </div>
        </div>

        <aside
          className="grid gap-4 sm:gap-6 lg:sticky lg:top-24 lg:col-start-2 lg:row-span-2 lg:row-start-1"
          aria-label="Buy and share"
        >
          {/* Those who may read the selections (owner, buyer, admin) read them first. */}
          {selections !== undefined && selections !== null && (
            <section
              id="selections"
              aria-labelledby="selections-title"
              className="grid gap-3 rounded-card border border-primary/30 bg-primary/5 p-4 sm:p-5"
            >
              <h2 id="selections-title" className="text-lg font-semibold">
                Winning Selections
              </h2>
              <p className="text-sm leading-relaxed whitespace-pre-wrap">
                {selections.trim() || 'No winning selections provided for this product.'}
              </p>
            </section>
          )}

          <div className="grid gap-3 rounded-card border bg-card p-4 shadow-sm sm:gap-4 sm:p-5">
            <div className="flex items-baseline justify-between gap-3">
              <span className="text-sm font-medium text-muted-foreground">Price</span>
              <span className="text-3xl font-extrabold tracking-tight tabular-nums" data-testid="video-price">
                {formatPrice(video.price)}
              </span>
            </div>
            {video.isOwner ? (
              <>
                <div>
                  <VideoBadge>Your Video</VideoBadge>
                </div>
                <OwnerActions video={video} onDeleted={() => navigate('/', { replace: true })} size="md" />
                <DownloadOriginalLink video={video} />
              </>
            ) : purchased ? (
              <div className="grid gap-2">
                <div>
                  <VideoBadge>Purchased</VideoBadge>
                </div>
                <p className="text-sm text-muted-foreground">
                  You own this pick: its winning selections are above.
                </p>
                <DownloadOriginalLink video={video} />
              </div>
            ) : video.pick?.status === 'started' ? (
              <div className="grid gap-2">
                <SalesClosed />
                <p className="text-sm text-muted-foreground">
                  Sales closed when this pick&apos;s first game started. Its legs and selections are revealed
                  to everyone once every leg is graded.
                </p>
              </div>
            ) : video.pick?.status === 'graded' ? (
              <GradedNotice videoId={video.id} />
            ) : (
              <div className="grid gap-2">
                <Link
                  href={user ? `/checkout/${video.id}` : authPath({ next: `/checkout/${video.id}` })}
                  className={buttonClasses('primary', 'lg')}
                >
                  <ShoppingCart aria-hidden />
                  Buy Winners
                </Link>
                <p className="text-center text-xs text-muted-foreground">
                  Unlock the capper&apos;s winning selections for this pick.
                </p>
              </div>
            )}
            {user?.isAdmin && !video.isOwner && (
              <Link href={`/edit-video/${video.id}`} className={buttonClasses('outline', 'md')}>
                <Pencil aria-hidden />
                Edit as admin
              </Link>
            )}
          </div>

          <section
            aria-labelledby="share-title"
            className="grid gap-3 rounded-card border bg-card p-4 sm:p-5"
          >
            <h2 id="share-title" className="text-lg font-semibold">
              Share this pick
            </h2>
            <ShareButtons video={video} />
          </section>
        </aside>

        <div className="grid min-w-0 gap-6 lg:col-start-1">
          {/* What a buyer can check before buying, and the proof once graded. */}
          <PickSealPanel
            videoId={video.id}
            summary={video.pick}
            canSeeLegs={video.isOwner || purchased || Boolean(user?.isAdmin)}
          />
          {/* The sealed pick's entries in the public log, checked in the browser. */}
          {video.pick && <PickLogPanel videoId={video.id} />}
          <dl className="grid grid-cols-2 gap-3 rounded-card border bg-card p-4 text-sm sm:grid-cols-4">
            <Detail term="Price">{formatPrice(video.price)}</Detail>
            <Detail term="Duration">
              {video.duration ? formatDuration(video.duration) : 'Not specified'}
            </Detail>
            <Detail term="Views">
              <span className="inline-flex items-center gap-1">
                <Eye aria-hidden className="size-4 text-muted-foreground" />
                {video.views.toLocaleString('en-US')}
              </span>
            </Detail>
            <Detail term="Posted">
              <time dateTime={video.createdAt}>
                {created.toLocaleDateString('en-US', { dateStyle: 'medium' })}
              </time>
            </Detail>
          </dl>
          <section aria-labelledby="description-title" className="grid gap-2">
            <h2 id="description-title" className="text-lg font-semibold">
              Description
            </h2>
            <p className="leading-relaxed whitespace-pre-wrap text-foreground/90">{video.description}</p>
          </section>
        </div>
      </div>
      <MorePicks currentId={video.id} />
    </div>
  );
}

const RESULT_TEXT = { win: 'Win', loss: 'Loss', push: 'Push', void: 'Void' } as const;

/** A graded pick is never sold: its result, and the whole pick free to read in the panel below. */
function GradedNotice({ videoId }: { videoId: number }) {
  // The same query as the sealed pick's panel: one request for both.
  const { data: pick } = usePick(videoId);
  return (
    <div className="grid gap-2" data-testid="free-to-read">
      {pick?.result && (
        <p className="text-lg font-bold">
          {RESULT_TEXT[pick.result]}
          {pick.unitsWon !== undefined && ` · ${formatUnits(pick.unitsWon)}`}
        </p>
      )}
      <a href="#sealed-pick-title" className={buttonClasses('secondary', 'lg')}>
        <BookOpen aria-hidden />
        Free to read
      </a>
      <p className="text-center text-xs text-muted-foreground">
        Graded: the whole pick and its selections are revealed below, for everyone.
      </p>
    </div>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{term}</dt>
      <dd className="font-semibold">{children}</dd>
    </div>
  );
}

/** The most viewed picks (GET /api/videos/featured), this one left out. */
function MorePicks({ currentId }: { currentId: number }) {
  const { data } = useFeaturedVideos();
  const others = (data ?? []).filter((video) => video.id !== currentId).slice(0, 3);
  if (others.length === 0) return null;
  return (
    <section aria-labelledby="more-picks" className="grid gap-5">
      <h2 id="more-picks" className="text-xl font-bold tracking-tight">
        Popular picks
      </h2>
      {/* The page's own Follow button is beside the capper's name above: one per capper on a page. */}
      <VideoGrid videos={others} showFollow={false} />
    </section>
  );
}
