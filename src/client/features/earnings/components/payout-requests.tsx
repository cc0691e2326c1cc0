import { formatDollars } from '#common/money.js';
import type { PayoutStatus } from '#common/schemas/earnings.js';
import { Card } from '#client/components/ui/card.tsx';
import { CardList, DataCard, DataField, ResponsiveTable } from '#client/components/ui/responsive-table.tsx';
import { ScrollRegion } from '#client/components/ui/scroll-region.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatShortDate } from '#client/lib/format.ts';
import { usePayouts } from '../api/get-payouts';
import { paymentMethodLabel } from './payment-methods';

const STATUS_STYLES: Record<PayoutStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  paid: 'bg-emerald-100 text-emerald-900',
  rejected: 'bg-red-100 text-red-900',
};

const STATUS_LABELS: Record<PayoutStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  rejected: 'Rejected',
};

/**
 * The capper's payout requests and where each stands (docs/product-decisions.md 'Screens the spec does not show':
 * pending / paid / rejected).
 */
export function PayoutRequests() {
  const { data: payouts } = usePayouts();
  // Nothing to say until there is a request; a failure here is not worth a banner on the dashboard.
  if (!payouts || payouts.length === 0) return null;

  return (
    <Card className="overflow-hidden">
      <section aria-labelledby="payout-requests-heading">
        <h2 id="payout-requests-heading" className="px-5 pt-5 pb-3 text-lg font-semibold tracking-tight">
          Payout requests
        </h2>
        <ResponsiveTable
          table={
            <ScrollRegion
              aria-label="Payout requests table"
              className="border-t focus-visible:-outline-offset-2"
            >
              <table className="w-full text-sm">
                <caption className="sr-only">Your payout requests and where each stands</caption>
                <thead className="border-b bg-muted/60 text-left text-xs tracking-wide text-muted-foreground uppercase">
                  <tr>
                    <th scope="col" className="px-5 py-2 font-semibold">
                      Requested
                    </th>
                    <th scope="col" className="px-5 py-2 text-right font-semibold">
                      Amount
                    </th>
                    <th scope="col" className="px-5 py-2 text-right font-semibold">
                      Fee
                    </th>
                    <th scope="col" className="px-5 py-2 text-right font-semibold">
                      You receive
                    </th>
                    <th scope="col" className="px-5 py-2 font-semibold">
                      Method
                    </th>
                    <th scope="col" className="px-5 py-2 font-semibold">
                      Status
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y">
                  {payouts.map((payout) => (
                    <tr key={payout.id}>
                      <td className="px-5 py-2.5 whitespace-nowrap">{formatShortDate(payout.createdAt)}</td>
                      <td className="px-5 py-2.5 text-right tabular-nums">{formatDollars(payout.amount)}</td>
                      <td className="px-5 py-2.5 text-right text-muted-foreground tabular-nums">
                        {formatDollars(payout.fee)}
                      </td>
                      <td className="px-5 py-2.5 text-right font-medium tabular-nums">
                        {formatDollars(payout.net)}
                      </td>
                      <td className="px-5 py-2.5">{paymentMethodLabel(payout.paymentMethod)}</td>
                      <td className="px-5 py-2.5">
                        <StatusBadge status={payout.status} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          }
          cards={
            <CardList label="Payout requests" className="px-4 pb-4">
              {payouts.map((payout) => (
                <DataCard key={payout.id} title={formatShortDate(payout.createdAt)} className="shadow-none">
                  <DataField label="Amount" numeric>
                    {formatDollars(payout.amount)}
                  </DataField>
                  <DataField label="Fee" numeric>
                    {formatDollars(payout.fee)}
                  </DataField>
                  <DataField label="You receive" numeric>
                    <span className="font-medium">{formatDollars(payout.net)}</span>
                  </DataField>
                  <DataField label="Method">{paymentMethodLabel(payout.paymentMethod)}</DataField>
                  <DataField label="Status">
                    <StatusBadge status={payout.status} />
                  </DataField>
                </DataCard>
              ))}
            </CardList>
          }
        />
      </section>
    </Card>
  );
}

function StatusBadge({ status }: { status: PayoutStatus }) {
  return (
    <span className={cn('inline-flex rounded-full px-2 py-0.5 text-xs font-semibold', STATUS_STYLES[status])}>
      {STATUS_LABELS[status]}
    </span>
  );
}
