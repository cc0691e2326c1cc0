import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { CheckCircle2, Info } from 'lucide-react';
import { formatDollars } from '#common/money.js';
import type { Video } from '#common/schemas/videos.js';
import { Card, CardContent, CardHeader } from '#client/components/ui/card.tsx';
import { VideoThumbnail } from '#client/components/video-thumbnail.tsx';

/**
 * spec 2 'Checkout', right column: what is being bought and for how much. Price and Total are the payment
 * intent's amount, to the cent: exactly what the card is charged (docs/product-decisions.md 'Money'); `amount` is
 * null until the intent is there.
 */
export function OrderSummary({
  video,
  amount,
  promo,
  children,
}: {
  video: Video;
  amount: number | null;
  /** The promo code on the intent: the price before it and what it took off (decision 039). */
  promo?: { code: string; originalAmount: number; discount: number } | undefined;
  /** The promo code field, under the total. */
  children?: ReactNode;
}) {
  return (
    <Card data-testid="order-summary">
      <CardHeader>
        <h2 className="text-lg leading-tight font-semibold tracking-tight">Order Summary</h2>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="flex gap-4">
          <div className="aspect-video w-32 shrink-0 overflow-hidden rounded-lg bg-slate-200 sm:w-40">
            <VideoThumbnail video={video} compact />
          </div>
          <div className="grid min-w-0 content-start gap-1">
            <p className="line-clamp-2 font-semibold" data-testid="order-title">
              {video.title}
            </p>
            <p className="text-sm text-muted-foreground">{video.category}</p>
          </div>
        </div>
        <dl className="grid gap-2 border-t pt-4 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">Price</dt>
            <dd className="font-medium tabular-nums" data-testid="order-price">
              {promo ? (
                <>
                  <s className="mr-2 text-muted-foreground" data-testid="order-original-price">
                    <span className="sr-only">Was </span>
                    {formatDollars(promo.originalAmount)}
                  </s>
                  <span className="sr-only">now </span>
                  <Amount dollars={amount} />
                </>
              ) : (
                <Amount dollars={amount} />
              )}
            </dd>
          </div>
          {promo && (
            <div className="flex justify-between gap-4 text-emerald-700">
              <dt>Promo code {promo.code}</dt>
              <dd className="font-medium tabular-nums" data-testid="order-discount">
                −{formatDollars(promo.discount)}
              </dd>
            </div>
          )}
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">Tax</dt>
            <dd className="font-medium tabular-nums">$0.00</dd>
          </div>
          <div className="flex justify-between gap-4 border-t pt-3 text-base">
            <dt className="font-semibold">Total</dt>
            <dd className="font-bold tabular-nums" data-testid="order-total">
              <Amount dollars={amount} />
            </dd>
          </div>
        </dl>
        {children}
      </CardContent>
    </Card>
  );
}

function Amount({ dollars }: { dollars: number | null }) {
  if (dollars === null) {
    return (
      <>
        <span aria-hidden className="text-muted-foreground">
          …
        </span>
        <span className="sr-only">Loading the amount</span>
      </>
    );
  }
  return <>{formatDollars(dollars)}</>;
}

type Offer = { key: string; text: ReactNode; caution?: boolean };

/**
 * What this purchase truly gives, from what the page knows of the pick: the sealed legs and how they are
 * graded and checked for a verified pick, "unverified" for one without legs, and a download only when
 * there is a file (a link has none).
 */
export function whatYouGet(video: Video): Offer[] {
  const promises: Offer[] = [];
  const { pick } = video;
  if (pick) {
    const legs = `${pick.legCount} sealed ${pick.legCount === 1 ? 'leg' : 'legs'}`;
    promises.push({
      key: 'legs',
      text: `Its ${legs} and the capper's written selections, revealed to you at once after paying`,
    });
    promises.push({
      key: 'graded',
      text: pick.selfReported
        ? 'Market legs graded automatically from the final scores; self-reported legs are shown but never counted in the capper’s record'
        : 'Graded automatically from the games’ final scores',
    });
    promises.push({
      key: 'verify',
      text: (
        <>
          Verifiable: sealed before its games, its commitment is in the public log.{' '}
          <Link href="/log" className="font-medium text-primary underline underline-offset-2">
            How to check it
          </Link>
        </>
      ),
    });
  } else {
    promises.push({ key: 'selections', text: "The capper's written selections, shown at once after paying" });
    promises.push({
      key: 'unverified',
      caution: true,
      text: 'Unverified: self-reported by the capper, not sealed and not graded, never counted in a record',
    });
  }
  promises.push(
    video.isExternalVideo
      ? {
          key: 'media',
          caution: true,
          text: 'The preview is a link to another site: there is no video file to download',
        }
      : { key: 'media', text: 'The original video file, to download' },
  );
  promises.push({
    key: 'lifetime',
    text: 'Lifetime product ownership: yours to read again from your purchases',
  });
  return promises;
}

export function WhatYouGet({ video }: { video: Video }) {
  return (
    <Card data-testid="what-you-get">
      <CardHeader>
        <h2 className="text-lg leading-tight font-semibold tracking-tight">What you&apos;ll get</h2>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3 text-sm">
          {whatYouGet(video).map(({ key, text, caution }) => (
            <li key={key} data-testid={`get-${key}`} className="flex items-start gap-2">
              {caution ? (
                <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-700" />
              ) : (
                <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
              )}
              <span>{text}</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
