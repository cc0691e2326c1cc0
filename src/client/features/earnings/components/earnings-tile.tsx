import { lazy, Suspense, useState } from 'react';
import { Wallet } from 'lucide-react';
import { formatDollars } from '../../../../common/money.js';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/error-message';
import { useEarnings } from '../api/get-earnings';
import { StatTile } from '../../../components/stat-tile';

// The dialog brings zod and the form library: fetched when a capper first reaches for it, not with the page.
const loadPayoutDialog = () => import('./payout-dialog');
const PayoutDialog = lazy(async () => ({ default: (await loadPayoutDialog()).PayoutDialog }));

/**
 * spec 2 'Dashboard': the total, a Sales line, a Bonus line when there is a bonus, and 'Request Payout'
 * when the total is above 0. The payout maximum is what the ledger still allows (decisions.md), shown too.
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

  return (
    <StatTile title="Earnings" icon={<Wallet aria-hidden />}>
      {isPending ? (
        <Skeleton className="h-9 w-28" />
      ) : isError ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load earnings: {errorMessage(error)}
        </p>
      ) : (
        <div className="grid gap-3">
          <p className="text-3xl font-bold tracking-tight tabular-nums" data-testid="earnings-total">
            {formatDollars(earnings.total)}
          </p>
          <dl className="grid gap-1 text-sm">
            <div className="flex justify-between gap-3">
              <dt className="text-muted-foreground">Sales</dt>
              <dd className="tabular-nums">{formatDollars(earnings.sales)}</dd>
            </div>
            {earnings.bonus > 0 && (
              <div className="flex justify-between gap-3">
                <dt className="text-muted-foreground">Bonus</dt>
                <dd className="tabular-nums">{formatDollars(earnings.bonus)}</dd>
              </div>
            )}
            <div className="flex justify-between gap-3">
              <dt className="text-muted-foreground">Available for payout</dt>
              <dd className="font-semibold tabular-nums" data-testid="earnings-available">
                {formatDollars(earnings.available)}
              </dd>
            </div>
          </dl>
          {earnings.total > 0 && (
            <>
              <Button
                size="sm"
                onClick={openPayout}
                onPointerEnter={() => void loadPayoutDialog()}
                onFocus={() => void loadPayoutDialog()}
                className="w-full"
              >
                Request Payout
              </Button>
              {payoutLoaded && (
                <Suspense fallback={null}>
                  <PayoutDialog
                    open={payoutOpen}
                    onOpenChange={setPayoutOpen}
                    available={earnings.available}
                  />
                </Suspense>
              )}
            </>
          )}
        </div>
      )}
    </StatTile>
  );
}
