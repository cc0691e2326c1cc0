import { CheckCircle2 } from 'lucide-react';
import { formatDollars } from '#common/money.js';
import type { Video } from '#common/schemas/videos.js';
import { Card, CardContent, CardHeader } from '#client/components/ui/card.tsx';
import { VideoThumbnail } from '#client/components/video-thumbnail.tsx';

const BENEFITS = [
  'The full product advertised in the video',
  'Lifetime product ownership',
  'Direct download after purchase',
];

/**
 * spec 2 'Checkout', right column: what is being bought, for how much, and what comes with it. Price and
 * Total are the payment intent's amount, to the cent: exactly what the card is charged (docs/decisions/000
 * 'Money', issue 11); `amount` is null until the intent is there.
 */
export function OrderSummary({ video, amount }: { video: Video; amount: number | null }) {
  return (
    <div className="grid content-start gap-6">
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
                <Amount dollars={amount} />
              </dd>
            </div>
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
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <h2 className="text-lg leading-tight font-semibold tracking-tight">What you&apos;ll get</h2>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-3 text-sm">
            {BENEFITS.map((benefit) => (
              <li key={benefit} className="flex items-start gap-2">
                <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
                {benefit}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
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
