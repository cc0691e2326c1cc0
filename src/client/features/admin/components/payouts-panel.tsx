import { Check, LoaderCircle, X } from 'lucide-react';
import { formatDollars } from '#common/money.js';
import type { PayoutStatus } from '#common/schemas/earnings.js';
import { Button } from '#client/components/ui/button.tsx';
import { CardList, DataCard, DataField, ResponsiveTable } from '#client/components/ui/responsive-table.tsx';
import { cn } from '#client/lib/cn.ts';
import { useDecidePayout } from '../api/decide-payout';
import { useAdminPayouts, type AdminPayout } from '../api/get-admin-payouts';
import { AdminTable, Cell, HeaderCell, LocalDate, None, Row, StickyHeaderCell } from './admin-table';
import { AdminListPanel } from './admin-list-panel';

const METHOD_LABEL: Record<string, string> = {
  paypal: 'PayPal',
  bank: 'Bank transfer',
  venmo: 'Venmo',
  other: 'Other',
};

const STATUS_STYLE: Record<PayoutStatus, string> = {
  pending: 'bg-accent/25 text-accent-foreground',
  paid: 'bg-primary/10 text-primary',
  rejected: 'bg-destructive/10 text-destructive',
};

const STATUS_LABEL: Record<PayoutStatus, string> = { pending: 'Pending', paid: 'Paid', rejected: 'Rejected' };

type PayoutsPanelProps = { onReject: (payout: AdminPayout, opener: HTMLElement) => void };

// docs/product-decisions.md 'Screens the spec does not show': the admin's third tab. Paying happens outside PickReel
// (the capper's PayPal, bank...); here the admin records the outcome, and a rejection returns the amount to
// the capper's balance.
export function PayoutsPanel({ onReject }: PayoutsPanelProps) {
  const list = useAdminPayouts();

  return (
    <AdminListPanel
      id="admin-payouts-title"
      title="Payouts"
      description="Payout requests from cappers. Send the net amount by the chosen method, then mark the request paid. A rejected request returns its amount to the capper's balance."
      list={list}
      loadingLabel="Loading payout requests"
      errorPrefix="Failed to load payout requests"
      empty="No payout requests yet"
    >
      {(payouts) => (
        <ResponsiveTable
          table={
            <AdminTable caption="Payout requests">
              <thead>
                <tr>
                  <HeaderCell sticky>Capper</HeaderCell>
                  <HeaderCell className="text-right">Amount</HeaderCell>
                  <HeaderCell className="text-right">Fee</HeaderCell>
                  <HeaderCell className="text-right">Net</HeaderCell>
                  <HeaderCell>Method</HeaderCell>
                  <HeaderCell>Details</HeaderCell>
                  <HeaderCell>Requested</HeaderCell>
                  <HeaderCell>Status</HeaderCell>
                  <HeaderCell>Actions</HeaderCell>
                </tr>
              </thead>
              <tbody>
                {payouts.map((payout) => (
                  <PayoutRow key={payout.id} payout={payout} onReject={onReject} />
                ))}
              </tbody>
            </AdminTable>
          }
          cards={
            <CardList label="Payout requests">
              {payouts.map((payout) => (
                <PayoutCard key={payout.id} payout={payout} onReject={onReject} />
              ))}
            </CardList>
          }
        />
      )}
    </AdminListPanel>
  );
}

type PayoutProps = { payout: AdminPayout; onReject: PayoutsPanelProps['onReject'] };

function PayoutRow({ payout, onReject }: PayoutProps) {
  return (
    <Row>
      <StickyHeaderCell>
        <span className="block max-w-36 truncate sm:max-w-none" title={payout.username}>
          {payout.username}
        </span>
      </StickyHeaderCell>
      <Cell className="text-right tabular-nums">{formatDollars(payout.amount)}</Cell>
      <Cell className="text-right text-muted-foreground tabular-nums">{formatDollars(payout.fee)}</Cell>
      <Cell className="text-right font-semibold tabular-nums">{formatDollars(payout.net)}</Cell>
      <Cell>{METHOD_LABEL[payout.paymentMethod] ?? payout.paymentMethod}</Cell>
      {/* Free text the capper typed: wrap it rather than stretch the table. */}
      <Cell wrap>
        <div className="w-max max-w-40 min-w-28">{payout.accountDetails}</div>
      </Cell>
      <Cell>
        <LocalDate iso={payout.createdAt} />
      </Cell>
      <Cell>
        <PayoutStatusBadge payout={payout} />
      </Cell>
      <Cell>
        {payout.status === 'pending' ? <PayoutActions payout={payout} onReject={onReject} /> : <None />}
      </Cell>
    </Row>
  );
}

/** On a phone: the same request as a card, its buttons in full view (no sideways scroll to reach them). */
function PayoutCard({ payout, onReject }: PayoutProps) {
  return (
    <DataCard
      title={payout.username}
      actions={payout.status === 'pending' && <PayoutActions payout={payout} onReject={onReject} />}
    >
      <DataField label="Amount" numeric>
        {formatDollars(payout.amount)}
      </DataField>
      <DataField label="Fee" numeric>
        {formatDollars(payout.fee)}
      </DataField>
      <DataField label="Net" numeric>
        <span className="font-semibold">{formatDollars(payout.net)}</span>
      </DataField>
      <DataField label="Method">{METHOD_LABEL[payout.paymentMethod] ?? payout.paymentMethod}</DataField>
      <DataField label="Details">{payout.accountDetails}</DataField>
      <DataField label="Requested">
        <LocalDate iso={payout.createdAt} />
      </DataField>
      <DataField label="Status">
        <PayoutStatusBadge payout={payout} />
      </DataField>
    </DataCard>
  );
}

function PayoutStatusBadge({ payout }: { payout: AdminPayout }) {
  return (
    <span className="inline-grid justify-items-start gap-0.5">
      <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', STATUS_STYLE[payout.status])}>
        {STATUS_LABEL[payout.status]}
      </span>
      {payout.decidedAt && (
        <span className="text-xs text-muted-foreground">
          <LocalDate iso={payout.decidedAt} />
        </span>
      )}
    </span>
  );
}

function PayoutActions({ payout, onReject }: PayoutProps) {
  const decide = useDecidePayout();
  const what = `${formatDollars(payout.amount)} payout to ${payout.username}`;
  return (
    <div className="flex gap-2 *:flex-1">
      <Button
        size="sm"
        aria-label={`Mark paid: ${what}`}
        disabled={decide.isPending}
        aria-busy={decide.isPending}
        onClick={() => decide.mutate({ payout, status: 'paid' })}
      >
        {decide.isPending ? <LoaderCircle aria-hidden className="animate-spin" /> : <Check aria-hidden />}
        Mark paid
      </Button>
      <Button
        variant="outline"
        size="sm"
        aria-label={`Reject: ${what}`}
        disabled={decide.isPending}
        onClick={(event) => onReject(payout, event.currentTarget)}
      >
        <X aria-hidden />
        Reject
      </Button>
    </div>
  );
}
