import { useId } from 'react';
import { RefreshCw } from 'lucide-react';
import { MAX_PRICE_AGE_SECONDS, type PricedMarket } from '#common/market.js';
import { Button } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useNow } from '#client/lib/use-now.ts';
import { useEventPrices } from '../api/get-event-prices';
import { legSideText, offersFor, signed, type Offer } from '../lib/legs';
import { formatAge, formatPickTime } from './pick-format';

const MARKET_NAME: Record<PricedMarket, string> = {
  moneyline: 'moneyline',
  spread: 'spread',
  total: 'total',
};

const offerValue = (offer: Pick<Offer, 'side' | 'line'>) => `${offer.side.toLowerCase()}|${offer.line ?? ''}`;

/**
 * docs/decisions/025: a market game's prices for one market, each side and line with the best price among
 * books and which book, as radio tiles: choosing one fills the leg's side and line. The snapshot's age is
 * shown, and the capper can ask again (the server fetches the market when its snapshot is a few minutes old).
 */
export function MarketPrices({
  eventId,
  market,
  home,
  away,
  side,
  line,
  error,
  onChoose,
}: {
  eventId: number;
  market: PricedMarket;
  home: string;
  away: string;
  side: string;
  line: string;
  /** The side's problem: the schema's, a contradiction with another leg, or a line no book offers. */
  error?: string;
  onChoose: (offer: Offer) => void;
}) {
  const prices = useEventPrices(eventId);
  const now = useNow();
  const id = useId();
  const errorId = `${id}-error`;
  const offers = offersFor(prices.data, market);
  const chosen = side ? offerValue({ side, line: line.trim() === '' ? null : Number(line) }) : '';
  const columns: { title: string; side: string }[] =
    market === 'total'
      ? [
          { title: 'Over', side: 'over' },
          { title: 'Under', side: 'under' },
        ]
      : [
          { title: `${away} (away)`, side: away },
          { title: `${home} (home)`, side: home },
        ];

  // The leg's problem (no price chosen yet), said whatever state the prices are in.
  const problem = error ? (
    <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
      {error}
    </p>
  ) : null;

  if (prices.isPending) {
    return (
      <div className="grid gap-2" role="status">
        <span className="sr-only">Loading the market&apos;s prices</span>
        <Skeleton className="h-4 w-48" />
        <div className="grid gap-2 sm:grid-cols-2">
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
        </div>
        {problem}
      </div>
    );
  }
  if (prices.isError) {
    return (
      <div
        role="alert"
        className="grid gap-2 rounded-lg border border-destructive/40 p-3 text-sm"
        data-testid="market-prices-error"
      >
        <p>Could not load the market&apos;s prices: {errorMessage(prices.error)}</p>
        <div>
          <Button variant="outline" size="sm" onClick={() => void prices.refetch()}>
            Try again
          </Button>
        </div>
        {problem}
      </div>
    );
  }

  const { takenAt } = prices.data;
  const stale = takenAt !== null && now.getTime() - Date.parse(takenAt) > MAX_PRICE_AGE_SECONDS * 1000;
  const refresh = (
    <Button
      variant="ghost"
      size="sm"
      onClick={() => void prices.refetch()}
      disabled={prices.isFetching}
      aria-label="Refresh the market's prices"
    >
      <RefreshCw aria-hidden className={cn(prices.isFetching && 'animate-spin')} />
      {prices.isFetching ? 'Refreshing…' : 'Refresh'}
    </Button>
  );

  if (offers.length === 0) {
    return (
      <div className="grid gap-2 rounded-lg border border-dashed p-3 text-sm" role="status">
        <p>
          {takenAt === null
            ? 'No book has priced this game yet: choose another game, or try again later.'
            : `No book prices this game's ${MARKET_NAME[market]} yet: choose another market or game.`}
        </p>
        <div>{refresh}</div>
        {problem}
      </div>
    );
  }

  return (
    <fieldset className="grid min-w-0 gap-2" data-testid="market-prices">
      <legend className="mb-2 text-sm leading-none font-medium">Pick: the best price among books</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {columns.map((column) => {
          // A spread's rows pair up across the columns (+1.5 beside −1.5), a total's by the same number.
          const ofSide = offers
            .filter((offer) => offer.side.toLowerCase() === column.side.toLowerCase())
            .sort((a, b) =>
              market === 'spread'
                ? Math.abs(a.line ?? 0) - Math.abs(b.line ?? 0)
                : (a.line ?? 0) - (b.line ?? 0),
            );
          return (
            <div key={column.side} className="grid content-start gap-2">
              <p className="text-xs font-semibold text-muted-foreground" aria-hidden>
                {column.title}
              </p>
              {ofSide.length === 0 && (
                <p className="text-xs text-muted-foreground">No book prices this side.</p>
              )}
              {ofSide.map((offer) => {
                const value = offerValue(offer);
                return (
                  <label
                    key={value}
                    className={cn(
                      'flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border bg-card px-3 py-2 text-sm shadow-xs transition-colors',
                      'hover:bg-muted has-checked:border-primary has-checked:bg-primary/5 has-focus-visible:outline-2 has-focus-visible:outline-ring',
                      error && 'border-destructive',
                    )}
                  >
                    <input
                      type="radio"
                      name={`${id}-offer`}
                      value={value}
                      checked={chosen === value}
                      onChange={() => onChoose(offer)}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? errorId : undefined}
                      className="size-4 shrink-0 accent-primary"
                    />
                    <span className="min-w-0 flex-1 font-medium break-words">
                      {legSideText({ market, side: offer.side, line: offer.line })}
                    </span>
                    <span className="grid shrink-0 justify-items-end text-right">
                      <span className="font-mono text-sm font-semibold tabular-nums">
                        {signed(offer.odds)}
                      </span>
                      <span className="text-xs text-muted-foreground">
                        <span className="sr-only">at </span>
                        {offer.book}
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
          );
        })}
      </div>
      {error && (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      {takenAt && (
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs text-muted-foreground">
          <p>
            Prices as of{' '}
            <time dateTime={takenAt} title={formatPickTime(takenAt)}>
              {formatAge(takenAt, now)}
            </time>
            {stale && ': the market is asked again when you post'}
          </p>
          {refresh}
        </div>
      )}
      {/* Said once per answer, not at every tick of the age above. */}
      <p className="sr-only" aria-live="polite">
        {takenAt ? `Market prices as of ${formatPickTime(takenAt)}` : ''}
      </p>
    </fieldset>
  );
}
