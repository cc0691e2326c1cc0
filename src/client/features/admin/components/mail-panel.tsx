import { useState } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { AdminMail } from '#common/schemas/mail.js';
import { Button } from '#client/components/ui/button.tsx';
import { useAdminMail } from '../api/get-admin-mail';
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

const STATUS_LABEL: Record<AdminMail['status'], string> = {
  queued: 'Queued',
  sent: 'Sent',
  failed: 'Failed',
  outbox: 'Kept (not sent)',
};

const KIND_LABEL: Record<string, string> = {
  email_confirmation: 'E-mail confirmation',
};

function When({ iso }: { iso: string | null }) {
  return iso ? <time dateTime={iso}>{new Date(iso).toLocaleString()}</time> : <None />;
}

// What PickReel mailed, or would have: without an SMTP server (the embedded default) mail stays here, and an
// admin can read it, e.g. to hand a confirmation link on. Newest first, in pages.
export function MailPanel() {
  // The `before` of each page shown so far: the last is the current page (null: the newest).
  const [pages, setPages] = useState<(number | null)[]>([null]);
  const before = pages.at(-1) ?? null;
  const { data, isPending, isError, error, refetch, isFetching, isPlaceholderData } = useAdminMail(before);

  return (
    <section aria-labelledby="admin-mail-title" aria-busy={isPlaceholderData} className="grid gap-4">
      <PanelHeader
        id="admin-mail-title"
        title="Mail"
        description="Every mail sent or waiting, newest first. Without an SMTP server (SMTP_URL) mail is kept here unsent: open one to read its text."
      />
      {isPending ? (
        <TableLoading label="Loading the mail" />
      ) : isError ? (
        <TableError
          prefix="Failed to load the mail"
          error={error}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      ) : data.mails.length === 0 ? (
        <TableEmpty>No mail yet</TableEmpty>
      ) : (
        <>
          <AdminTable caption={`Mail, page ${pages.length}`}>
            <thead>
              <tr>
                <HeaderCell sticky>To</HeaderCell>
                <HeaderCell>Subject and text</HeaderCell>
                <HeaderCell>Kind</HeaderCell>
                <HeaderCell>Status</HeaderCell>
                <HeaderCell>Created</HeaderCell>
                <HeaderCell>Sent</HeaderCell>
              </tr>
            </thead>
            <tbody>
              {data.mails.map((mail) => (
                <MailRow key={mail.id} mail={mail} />
              ))}
            </tbody>
          </AdminTable>
          <nav aria-label="Mail pages" className="flex flex-wrap items-center justify-between gap-3">
            <Button
              variant="outline"
              size="sm"
              disabled={pages.length === 1 || isFetching}
              onClick={() => setPages((current) => current.slice(0, -1))}
            >
              <ChevronLeft aria-hidden />
              Newer
            </Button>
            <p className="text-sm text-muted-foreground tabular-nums" aria-live="polite">
              Page {pages.length}
            </p>
            <Button
              variant="outline"
              size="sm"
              disabled={data.nextBefore === null || isFetching}
              onClick={() => setPages((current) => [...current, data.nextBefore])}
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

function MailRow({ mail }: { mail: AdminMail }) {
  return (
    <Row data-testid="admin-mail">
      <StickyHeaderCell>
        {/* Narrow on a phone: a long address wraps rather than cover the subject behind it. */}
        <div className="w-28 whitespace-normal [overflow-wrap:anywhere] sm:w-auto sm:max-w-64 sm:min-w-40">
          {mail.to}
        </div>
      </StickyHeaderCell>
      <Cell wrap>
        <details className="w-max max-w-[min(36rem,60vw)] min-w-44">
          <summary className="cursor-pointer font-medium">{mail.subject}</summary>
          {/* The text as sent: links stay whole and selectable, so an admin can copy one. */}
          <pre className="mt-2 font-sans text-xs whitespace-pre-wrap [overflow-wrap:anywhere] select-all">
            {mail.text}
          </pre>
        </details>
      </Cell>
      <Cell>{KIND_LABEL[mail.kind] ?? mail.kind}</Cell>
      <Cell wrap>
        <div className="w-max max-w-56">
          <span className="block">{STATUS_LABEL[mail.status]}</span>
          {mail.lastError && (
            <span className="block text-xs text-destructive">
              {mail.attempts} {mail.attempts === 1 ? 'attempt' : 'attempts'}: {mail.lastError}
            </span>
          )}
        </div>
      </Cell>
      <Cell>
        <When iso={mail.createdAt} />
      </Cell>
      <Cell>
        <When iso={mail.sentAt} />
      </Cell>
    </Row>
  );
}
