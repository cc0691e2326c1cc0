import { useState } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { centsToDollars, formatDollars } from '#common/money.js';
import type { AuditEntry } from '#common/schemas/admin.js';
import { REFUND_REASON_LABEL, isRefundReason } from '#common/refunds.js';
import { Button } from '#client/components/ui/button.tsx';
import { AUDIT_LOG_PAGE_SIZE, useAuditLog } from '../api/get-audit-log';
import {
  AdminTable,
  Cell,
  HeaderCell,
  None,
  Row,
  StickyHeaderCell,
  TableEmpty,
  TableError,
  TableLoading,
} from './admin-table';
import { PanelHeader } from './panel-header';

const ACTION_LABEL: Record<string, string> = {
  'payment.refund': 'Automatic refund',
  'payment.revoke': 'Refunded at the provider',
  'payout.paid': 'Payout marked paid',
  'payout.rejected': 'Payout rejected',
  'user.manual_earnings': 'Bonus changed',
  'user.delete': 'User deleted',
  'video.delete': 'Video deleted',
};

const TARGET_LABEL: Record<string, string> = {
  video: 'Video',
  user: 'User',
  payout_request: 'Payout request',
};

// Keys that name the target rather than describe the change: shown in the Target column instead.
const NAMING_KEYS = new Set(['videoTitle', 'title', 'username']);

/** 'manualEarningsCents' → 'manual earnings', 'paymentIntentId' → 'payment intent id'. */
function keyLabel(key: string): string {
  return key
    .replace(/Cents$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

function valueText(key: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (key.endsWith('Cents') && typeof value === 'number') return formatDollars(centsToDollars(value));
  if (key === 'reason' && isRefundReason(value)) return REFUND_REASON_LABEL[value];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value);
}

/** Each changed or recorded value once: 'status: pending → paid', 'amount: $3.00'. */
function detailsOf(entry: AuditEntry): { key: string; text: string }[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter(
    (key) => !NAMING_KEYS.has(key),
  );
  return keys.map((key) => {
    const had = key in before;
    const has = key in after;
    const text =
      had && has && before[key] !== after[key]
        ? `${valueText(key, before[key])} → ${valueText(key, after[key])}`
        : valueText(key, has ? after[key] : before[key]);
    return { key, text };
  });
}

function actorText(entry: AuditEntry): string {
  if (entry.actorUsername) return entry.actorUsername;
  // No actor: PickReel itself for payments; otherwise an admin whose account was deleted since.
  return entry.action.startsWith('payment.') ? 'PickReel (automatic)' : 'A deleted account';
}

function targetName(entry: AuditEntry): string | null {
  for (const side of [entry.after, entry.before]) {
    for (const key of NAMING_KEYS) {
      const value = side?.[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  return null;
}

// Who did what to which money and when, the automatic refunds included; newest first, in pages.
export function AuditLogPanel() {
  const [page, setPage] = useState(0);
  const { data, isPending, isError, error, refetch, isFetching, isPlaceholderData } = useAuditLog(page);
  const pages = data ? Math.max(1, Math.ceil(data.total / AUDIT_LOG_PAGE_SIZE)) : 1;

  return (
    <section aria-labelledby="admin-audit-title" aria-busy={isPlaceholderData} className="grid gap-4">
      <PanelHeader
        id="admin-audit-title"
        title="Audit log"
        count={data?.total}
        description="Every admin decision and every automatic refund, newest first: who, what, when and the amounts."
      />
      {isPending ? (
        <TableLoading label="Loading the audit log" />
      ) : isError ? (
        <TableError
          prefix="Failed to load the audit log"
          error={error}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      ) : data.entries.length === 0 ? (
        <TableEmpty>Nothing has been recorded yet</TableEmpty>
      ) : (
        <>
          <AdminTable caption={`Audit log, page ${page + 1} of ${pages}`}>
            <thead>
              <tr>
                <HeaderCell sticky>What</HeaderCell>
                <HeaderCell>Who</HeaderCell>
                <HeaderCell>Target</HeaderCell>
                <HeaderCell>Details</HeaderCell>
                <HeaderCell>When</HeaderCell>
              </tr>
            </thead>
            <tbody>
              {data.entries.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </AdminTable>
          <nav aria-label="Audit log pages" className="flex flex-wrap items-center justify-between gap-3">
            <Button
              variant="outline"
              size="sm"
              disabled={page === 0 || isFetching}
              onClick={() => setPage((current) => Math.max(0, current - 1))}
            >
              <ChevronLeft aria-hidden />
              Newer
            </Button>
            <p className="text-sm text-muted-foreground tabular-nums" aria-live="polite">
              Page {page + 1} of {pages}
            </p>
            <Button
              variant="outline"
              size="sm"
              disabled={page + 1 >= pages || isFetching}
              onClick={() => setPage((current) => current + 1)}
            >
              Older
              <ChevronRight aria-hidden />
            </Button>
          </nav>
        </>
      )}
    </section>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const name = targetName(entry);
  const target = `${TARGET_LABEL[entry.targetType] ?? entry.targetType}${entry.targetId === null ? '' : ` #${entry.targetId}`}`;
  const details = detailsOf(entry);
  return (
    <Row data-testid="audit-entry">
      <StickyHeaderCell>{ACTION_LABEL[entry.action] ?? entry.action}</StickyHeaderCell>
      <Cell>{actorText(entry)}</Cell>
      <Cell wrap>
        <div className="w-max max-w-48 min-w-28">
          {name && <span className="block font-medium">{name}</span>}
          <span className="text-muted-foreground">{target}</span>
        </div>
      </Cell>
      <Cell wrap>
        {details.length === 0 ? (
          <None />
        ) : (
          <dl className="grid w-max max-w-80 min-w-40 grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-0.5">
            {details.map(({ key, text }) => (
              <div key={key} className="contents">
                <dt className="text-muted-foreground">{keyLabel(key)}</dt>
                <dd className="tabular-nums">{text}</dd>
              </div>
            ))}
          </dl>
        )}
      </Cell>
      <Cell>
        <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString()}</time>
      </Cell>
    </Row>
  );
}
