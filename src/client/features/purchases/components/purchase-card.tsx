import { useRef, useState } from 'react';
import { Link } from 'wouter';
import { CalendarDays, Play, Receipt } from 'lucide-react';
import { formatPrice } from '#common/money.js';
import type { Purchase } from '#common/schemas/payments.js';
import type { Video } from '#common/schemas/videos.js';
import { buttonClasses } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { VideoThumbnail } from '#client/components/video-thumbnail.tsx';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '#client/components/ui/collapsible.tsx';
import { formatDuration, formatShortDate } from '#client/lib/format.ts';
import { DownloadOriginalLink } from '#client/features/videos/index.ts';
import { OutcomeChip } from './outcome-chip';
import { playableOf, PurchasePlayer } from './purchase-player';
import { durationText, formatDetails, SelectionsDialog } from './selections-dialog';

/** spec 2 'Dashboard': one purchase, with its media, its details and the selections it unlocked. */
export function PurchaseCard({ purchase }: { purchase: Purchase }) {
  const video = purchase.videos;
  const title = video?.title ?? purchase.videoTitle;
  const headingId = `purchase-${purchase.id}-title`;

  return (
    <Card className="flex w-full flex-col overflow-hidden" data-testid="purchase-card">
      <article aria-labelledby={headingId} className="flex flex-1 flex-col">
        {video ? <PurchaseMedia video={video} /> : <RemovedMedia />}
        <div className="flex flex-1 flex-col gap-4 p-5">
          <div className="flex items-start justify-between gap-3">
            <h3 id={headingId} className="line-clamp-2 text-lg leading-snug font-semibold">
              {video ? (
                <Link href={`/video/${video.id}`} className="hover:underline">
                  {title}
                </Link>
              ) : (
                title
              )}
            </h3>
            <span className="shrink-0 rounded-lg bg-primary/10 px-2 py-0.5 text-base font-bold text-primary">
              {formatPrice(purchase.amount)}
            </span>
          </div>
          {purchase.outcome && <OutcomeChip outcome={purchase.outcome} />}
          <p className="flex flex-wrap items-center gap-1.5 text-sm text-muted-foreground">
            <CalendarDays aria-hidden className="size-4" />
            Purchased {formatShortDate(purchase.purchaseDate)}
            {video && (
              <>
                <span aria-hidden>·</span>
                {/* The capper's record, from every purchase. */}
                <Link
                  href={`/cappers/${encodeURIComponent(video.capper.username)}`}
                  className="font-medium text-foreground underline-offset-2 hover:underline"
                >
                  {video.capper.displayName || video.capper.username}
                </Link>
              </>
            )}
          </p>
          {video && (
            <div className="grid gap-1 rounded-xl border p-1">
              <Collapsible>
                <CollapsibleTrigger>Video Description</CollapsibleTrigger>
                <CollapsibleContent className="px-3 pt-1 pb-3 text-sm whitespace-pre-wrap text-muted-foreground">
                  {video.description}
                </CollapsibleContent>
              </Collapsible>
              <Collapsible>
                <CollapsibleTrigger>Digital Product Information</CollapsibleTrigger>
                <CollapsibleContent className="px-3 pt-1 pb-3">
                  <ProductInformation video={video} />
                </CollapsibleContent>
              </Collapsible>
            </div>
          )}
          <div className="mt-auto flex flex-wrap gap-2 [&>*]:flex-1">
            <SelectionsDialog purchase={purchase} />
            <Link href={`/purchases/${purchase.id}`} className={buttonClasses('outline', 'md')}>
              <Receipt aria-hidden />
              Receipt
            </Link>
            {video && <DownloadOriginalLink video={video} />}
          </div>
        </div>
      </article>
    </Card>
  );
}

function ProductInformation({ video }: { video: Video }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
      <dt className="text-muted-foreground">Category</dt>
      <dd>{video.category}</dd>
      <dt className="text-muted-foreground">Duration</dt>
      <dd>{durationText(video)}</dd>
      <dt className="text-muted-foreground">Content</dt>
      <dd>{video.isPremium ? 'Premium' : 'Standard'}</dd>
      <dt className="text-muted-foreground">Format</dt>
      <dd className="break-words">{formatDetails(video)}</dd>
      <dt className="text-muted-foreground">Ownership</dt>
      <dd>Lifetime access to this product</dd>
    </dl>
  );
}

function PurchaseMedia({ video }: { video: Video }) {
  const [playing, setPlaying] = useState(false);
  const playButton = useRef<HTMLButtonElement>(null);
  const playable = playableOf(video);

  const stop = () => {
    setPlaying(false);
    // The player (and the focused control in it) is gone: hand focus back to where playback started.
    requestAnimationFrame(() => playButton.current?.focus());
  };

  return (
    // overflow-hidden: else the picture, once loaded, stretches the 16:9 box to its own height.
    <div className="relative aspect-video overflow-hidden bg-slate-200">
      {playing && playable ? (
        <PurchasePlayer video={video} playable={playable} onStop={stop} />
      ) : (
        <>
          <VideoThumbnail video={video} lazy />
          {playable && (
            <button
              ref={playButton}
              type="button"
              onClick={() => setPlaying(true)}
              className="absolute inset-0 m-auto inline-flex size-14 cursor-pointer items-center justify-center rounded-full bg-ink/70 text-white transition hover:scale-105 hover:bg-primary"
            >
              <Play aria-hidden className="size-6 translate-x-0.5 fill-current" />
              <span className="sr-only">Play {video.title}</span>
            </button>
          )}
          {video.duration ? (
            <span className="absolute right-2 bottom-2 rounded-md bg-ink/80 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums">
              {formatDuration(video.duration)}
            </span>
          ) : null}
          <span className="absolute top-2 left-2 rounded-full bg-accent px-2.5 py-0.5 text-xs font-bold text-accent-foreground">
            Purchased
          </span>
        </>
      )}
    </div>
  );
}

/** The capper deleted the video: the purchase, its price, date and selections stay (spec 3). */
function RemovedMedia() {
  return (
    <div className="relative flex aspect-video items-center justify-center bg-slate-100 p-6 text-center text-sm text-muted-foreground">
      <span className="absolute top-2 left-2 rounded-full bg-accent px-2.5 py-0.5 text-xs font-bold text-accent-foreground">
        Purchased
      </span>
      The capper has removed this video. Your purchase and its selections remain available.
    </div>
  );
}
