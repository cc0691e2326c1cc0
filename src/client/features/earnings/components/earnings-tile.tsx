import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Wallet } from 'lucide-react';
import { formatDollars } from '#common/money.js';
import { Button } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useEarnings } from '../api/get-earnings';
import {
  STAT_FIGURE_CLASSES,
  STAT_FIGURE_SKELETON_CLASSES,
  StatTile,
} from '#client/components/stat-tile.tsx';
import { cn } from '#client/lib/cn.ts';

// The dialog brings zod and the form library: fetched when a capper first reaches for it, not with the page.
const loadPayoutDialog = () => import('./payout-dialog');
const PayoutDialog = lazy(async () => ({ default: (await loadPayoutDialog()).PayoutDialog }));

/**
 * spec 2 'Dashboard': the total, a Sales line, a Bonus line when there is a bonus, and 'Request Payout' when
 * the total is above 0. The payout maximum is what the ledger still allows (docs/product-decisions.md 'Security
 * overrides'), shown too.
 */
export function EarningsTile() {
  const { data: earnings, isPending, isError, error } = useEarnings();
  const [payoutOpen, setPayoutOpen] = useState(false);
  // Once opened it stays mounted, so closing animates and the form keeps Radix's focus return.
  const [payoutLoaded, setPayoutLoaded] = useState(false);
  const openPayout = () => {
    setPayoutLoaded(true);
    setPayoutOpen(true);
  };

  if (isError) {
    return (
      <StatTile title="Earnings" icon={<Wallet aria-hidden />}>
        <p role="alert" className="text-sm text-destructive">
          Could not load earnings: {errorMessage(error)}
        </p>
      </StatTile>
    );
  }

  // While loading, the tile has its final shape for a user without earnings (labels known, amounts as
  // skeletons), so it keeps its height when the numbers arrive (no layout shift).
  return (
    <StatTile title="Earnings" icon={<Wallet aria-hidden />}>
      <div className="flex flex-1 flex-col gap-3">
        {isPending ? (
          <Skeleton className={cn(STAT_FIGURE_SKELETON_CLASSES, 'w-24')} />
        ) : (
          <p className={STAT_FIGURE_CLASSES} data-testid="earnings-total">
            {formatDollars(earnings.total)}
          </p>
        )}
        <dl className="grid gap-1 text-sm">
          <Line term="Sales">{isPending ? <AmountSkeleton /> : formatDollars(earnings.sales)}</Line>
          {earnings && earnings.subscriptions > 0 && (
            <Line term="Subscriptions">{formatDollars(earnings.subscriptions)}</Line>
          )}
          {earnings && earnings.bonus > 0 && <Line term="Bonus">{formatDollars(earnings.bonus)}</Line>}
          <Line term="Available for payout" strong testId="earnings-available">
            {isPending ? <AmountSkeleton /> : formatDollars(earnings.available)}
          </Line>
        </dl>
        {/* The button's row is always there (a skeleton while loading, a line when there is nothing to
            pay out), so the tile is one height whatever the total. */}
        {isPending ? (
          <Skeleton className="mt-auto h-8 w-full" />
        ) : earnings.total > 0 ? (
          <>
            <Button
              size="sm"
              onClick={openPayout}
              onPointerEnter={() => void loadPayoutDialog()}
              onFocus={() => void loadPayoutDialog()}
              className="mt-auto w-full"
            >
              {/* Smaller in a phone's tile, and on two lines at 320 px rather than wider than the tile. */}
              <span className="text-center text-xs leading-4 whitespace-normal sm:text-sm">
                Request Payout
              </span>
            </Button>
            {payoutLoaded && (
              <Suspense fallback={null}>
                <PayoutDialog open={payoutOpen} onOpenChange={setPayoutOpen} available={earnings.available} />
              </Suspense>
            )}
          </>
        ) : (
          <p className="mt-auto flex h-8 items-center text-xs leading-4 text-muted-foreground">
            Nothing to pay out yet.
          </p>
        )}
      </div>
    </StatTile>
  );
}

/** One line of the tile: the amount beside its label, or under it when the tile is narrow (a phone). */
function Line({
  term,
  strong = false,
  testId,
  children,
}: {
  term: string;
  strong?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-wrap justify-between gap-x-3">
      <dt className="text-muted-foreground">{term}</dt>
      <dd className={cn('tabular-nums', strong && 'font-semibold')} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** As wide and as tall as "$0.00" in the tile's text. */
function AmountSkeleton() {
  return <Skeleton className="my-0.5 h-4 w-10" />;
}
