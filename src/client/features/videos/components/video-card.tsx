import { lazy, Suspense, useCallback, useId } from 'react';
import { Link } from 'wouter';
import { BookOpen, Lock, ShoppingCart } from 'lucide-react';
import { formatPrice } from '#common/money.js';
import { resultText } from '#common/pick-result-text.js';
import type { Video } from '#common/schemas/videos.js';
import { buttonClasses } from '#client/components/ui/button.tsx';
import { authPath } from '#client/lib/auth-redirect.ts';
import { cn } from '#client/lib/cn.ts';
import { useUser } from '#client/features/auth/index.ts';
import { RecordBadge } from '#client/features/cappers/index.ts';
import { CardFollowSlot } from '#client/features/follows/index.ts';
import { useInlinePlayback } from './use-inline-playback';
import { mediaStatusOf, prefetchPlayer, VideoMedia } from './video-media';

// Most cards belong to someone else: the owner's tools load when a card of yours shows.
const OwnerActions = lazy(async () => ({ default: (await import('./owner-actions')).OwnerActions }));

export function capperName(video: Pick<Video, 'capper'>): string {
  return video.capper.displayName || video.capper.username;
}

const PICK_TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/**
 * A sealed pick's commitment (its first 8 hex characters) and post time, for everyone before
 * buying; 'Unverified' when nothing was sealed. The video page shows the whole commitment.
 */
export function PickSealBadge({ pick }: { pick: Video['pick'] }) {
  if (!pick) {
    return (
      <span
        className="inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium text-muted-foreground"
        title="Unverified pick: not sealed, not counted in any record"
        data-testid="pick-badge"
      >
        Unverified
      </span>
    );
  }
  const short = pick.commitment.slice(0, 8);
  const posted = PICK_TIME.format(new Date(pick.postedAt));
  const label = `Sealed pick: commitment ${short}…, posted ${posted}`;
  return (
    <span
      className="inline-flex min-w-0 items-center gap-1 rounded-full bg-primary/10 px-2 py-0.5 text-xs font-medium text-primary"
      title={label}
      data-testid="pick-badge"
    >
      <Lock aria-hidden className="size-3 shrink-0" />
      <span aria-hidden className="truncate">
        Sealed <span className="font-mono">{short}</span> · <time dateTime={pick.postedAt}>{posted}</time>
      </span>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The 'Your Video' / 'Purchased' badge of spec 2. */
export function VideoBadge({ children }: { children: string }) {
  return (
    <span className="inline-flex items-center rounded-full bg-accent px-2.5 py-0.5 text-xs font-bold text-accent-foreground shadow-sm">
      {children}
    </span>
  );
}

/**
 * spec 2 'Video card': thumbnail, inline playback, title, description, price as charged, and what this
 * viewer may do: buy (anyone else), the owner's tools, or the buyer's 'Purchased'. The whole card links to
 * the video's page through its title (one tab stop); the controls sit above that link.
 */
export function VideoCard({
  video,
  priority = false,
  headingLevel = 3,
  recordsAmong,
  showFollow = true,
}: {
  video: Video;
  /** A Follow button beside the capper's name (never on your own card). */
  showFollow?: boolean;
  /** The cappers of the cards shown together: their record badges come in one request. */
  recordsAmong?: readonly string[];
  /** Among the first cards a visitor sees: its thumbnail loads at once (LCP). */
  priority?: boolean;
  /** h3 under a section's h2; h2 where the cards sit right under the page's h1 (axe: heading order). */
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const titleId = useId();
  const prefetch = useCallback(() => prefetchPlayer(video), [video]);
  const playback = useInlinePlayback(prefetch);

  return (
    <article
      aria-labelledby={titleId}
      data-testid="video-card"
      className="group relative flex w-full flex-col overflow-hidden rounded-card border bg-card text-card-foreground shadow-sm shadow-ink/5 transition-shadow hover:shadow-lg has-[[data-card-link]:focus-visible]:outline-2 has-[[data-card-link]:focus-visible]:outline-offset-2 has-[[data-card-link]:focus-visible]:outline-ring"
    >
      <VideoMedia video={video} playback={playback} priority={priority}>
        {video.isOwner && <VideoBadge>Your Video</VideoBadge>}
        {video.isPurchased && <VideoBadge>Purchased</VideoBadge>}
      </VideoMedia>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-3">
          <Heading id={titleId} className="line-clamp-2 leading-snug font-semibold">
            <Link
              href={`/video/${video.id}`}
              data-card-link
              className="after:absolute after:inset-0 focus-visible:outline-none"
            >
              {video.title}
            </Link>
          </Heading>
          <span className="shrink-0 rounded-lg bg-primary/10 px-2 py-0.5 text-base font-bold text-primary tabular-nums">
            <span className="sr-only">Price </span>
            {formatPrice(video.price)}
          </span>
        </div>
        <p className="line-clamp-2 text-sm text-muted-foreground">{video.description}</p>
        <p className="flex flex-wrap items-center gap-x-2 text-xs font-medium text-muted-foreground">
          <span>
            by{' '}
            {/* Above the card's stretched title link, so it takes its own clicks (the capper's record). */}
            <Link
              href={`/cappers/${encodeURIComponent(video.capper.username)}`}
              className="relative z-10 underline-offset-2 hover:text-foreground hover:underline"
            >
              {capperName(video)}
            </Link>
          </span>
          <span aria-hidden>·</span>
          <span className="tracking-wide uppercase">{video.category}</span>
          {showFollow && (
            <span className="ml-auto">
              <CardFollowSlot
                username={video.capper.username}
                name={capperName(video)}
                isOwn={video.isOwner}
              />
            </span>
          )}
        </p>
        {/* The pick's own status and the capper's record, each under its name: an unverified pick by a
            capper with a verified record is two facts, not a contradiction. */}
        <dl className="grid gap-1.5 text-xs">
          <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
            <dt className="w-24 shrink-0 font-medium text-muted-foreground">This pick</dt>
            <dd className="min-w-0">
              <PickSealBadge pick={video.pick} />
            </dd>
          </div>
          {/* The record under its name, never beside it: whether a loaded record fits beside the name
              depends on its length, so a row that wrapped only once loaded would move the cards below. */}
          <div className="grid min-w-0 gap-1">
            <dt className="font-medium text-muted-foreground">Capper&apos;s record</dt>
            {/* As tall as a record with its dots: a capper without one does not move the card once loaded. */}
            <dd className="min-h-[38px] min-w-0">
              <RecordBadge username={video.capper.username} among={recordsAmong} />
            </dd>
          </div>
        </dl>
        <div className="relative z-10 mt-auto pt-2">
          <CardActions video={video} titleId={titleId} onWatch={playback.play} />
        </div>
      </div>
    </article>
  );
}

function CardActions({ video, titleId, onWatch }: { video: Video; titleId: string; onWatch: () => void }) {
  const { data: user } = useUser();
  if (video.isOwner) {
    const playable = mediaStatusOf(video) === 'ready';
    return (
      <Suspense fallback={<div className="h-8" />}>
        <OwnerActions video={video} onWatch={playable ? onWatch : undefined} describedBy={titleId} />
      </Suspense>
    );
  }
  if (video.isPurchased) {
    return (
      <Link
        href={`/video/${video.id}`}
        className={buttonClasses('secondary', 'sm')}
        aria-describedby={titleId}
      >
        View Selections
      </Link>
    );
  }
  // A pick is sold until its first leg starts; once graded its reveal is public (decisions 'Selling only
  // what is still secret and undecided').
  if (video.pick?.status === 'started') return <SalesClosed />;
  if (video.pick?.status === 'graded') {
    return (
      <div className="flex flex-wrap items-center gap-2">
        {video.pick.result && <ResultChip result={video.pick.result} unitsWon={video.pick.unitsWon} />}
        <Link
          href={`/video/${video.id}`}
          className={buttonClasses('secondary', 'sm')}
          aria-describedby={titleId}
        >
          <BookOpen aria-hidden />
          Free to read
        </Link>
      </div>
    );
  }
  // spec 2: signed-out visitors are sent to sign in first.
  return (
    <Link
      href={user ? `/checkout/${video.id}` : authPath({ next: `/checkout/${video.id}` })}
      className={buttonClasses('primary', 'sm')}
      aria-describedby={titleId}
    >
      <ShoppingCart aria-hidden />
      Buy Winners
    </Link>
  );
}

const RESULT_STYLE: Record<NonNullable<NonNullable<Video['pick']>['result']>, string> = {
  win: 'bg-emerald-100 text-emerald-900 ring-emerald-700/30',
  loss: 'bg-red-100 text-red-900 ring-red-700/30',
  push: 'bg-muted text-foreground ring-border',
  void: 'bg-muted text-muted-foreground ring-border',
};

/** A graded pick's result in words and colour: 'Won +1.8u', 'Lost −1u', 'Push', 'Void'. */
export function ResultChip({
  result,
  unitsWon,
  className,
}: {
  result: NonNullable<NonNullable<Video['pick']>['result']>;
  unitsWon: number | null | undefined;
  className?: string;
}) {
  return (
    <p
      className={cn(
        'inline-flex w-fit items-center rounded-md px-3 py-1.5 text-sm font-bold tabular-nums ring-1 ring-inset',
        RESULT_STYLE[result],
        className,
      )}
      data-testid="pick-result-chip"
    >
      <span className="sr-only">Result: </span>
      {resultText(result, unitsWon)}
    </p>
  );
}

/** A started pick's place of the Buy button: said, not offered. */
export function SalesClosed({ className }: { className?: string }) {
  return (
    <p
      className={cn(
        'inline-flex w-fit items-center gap-1.5 rounded-md bg-muted px-3 py-1.5 text-sm font-semibold text-muted-foreground',
        className,
      )}
      data-testid="sales-closed"
    >
      <Lock aria-hidden className="size-4" />
      Sales closed
    </p>
  );
}
