import type { ReactNode } from 'react';
import { Link, useParams } from 'wouter';
import { ArrowLeft, Printer } from 'lucide-react';
import { formatPrice } from '#common/money.js';
import type { PurchaseReceipt } from '#common/schemas/purchases.js';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage, errorStatus } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { Commitment, formatPickTime, VerifyButton } from '#client/features/picks/index.ts';
import { useReceipt } from '../api/get-receipt';
import { OutcomeChip } from '../components/outcome-chip';
import { SelectionLegs } from '../components/selection-legs';
import { NO_SELECTIONS_TEXT } from '../components/your-selections-panel';

const DIGITS = /^[0-9]{1,10}$/;

// Printed, a receipt is the page alone: no navigation or footer, black on white, no buttons.
const PRINT_CSS = `@media print {
  body > div header, body > div footer, [data-print-hide] { display: none !important; }
  html, body, main, [data-receipt] { background: #fff !important; color: #000 !important; }
  main { min-height: 0 !important; }
  [data-receipt] * { box-shadow: none !important; color: #000 !important; }
}`;

const PAYMENT_METHOD_TEXT: Record<NonNullable<PurchaseReceipt['paymentMethod']>, string> = {
  sandbox: 'Sandbox test card (no real money moved)',
  stripe: 'Card, through Stripe',
};

/** /purchases/{id}: the buyer's receipt, printable. */
export function ReceiptPage() {
  const { id: segment } = useParams<{ id: string }>();
  const id = segment && DIGITS.test(segment) ? Number(segment) : null;
  const receipt = useReceipt(id);
  const status = errorStatus(receipt.error);
  const missing = id === null || status === 404 || status === 400;
  useDocumentTitle(
    missing ? 'Receipt not found' : receipt.data ? `Receipt: ${receipt.data.title}` : 'Receipt',
  );

  if (missing) {
    return (
      <div className="mx-auto grid w-full max-w-2xl justify-items-start gap-4 px-4 py-16">
        <h1 className="text-2xl font-bold tracking-tight">Receipt not found</h1>
        <p className="text-muted-foreground">There is no purchase of yours with this number.</p>
        <Link href="/dashboard?tab=purchased" className={buttonClasses('primary', 'md')}>
          Your purchases
        </Link>
      </div>
    );
  }
  if (receipt.isPending) return <PageSpinner label="Loading the receipt" />;
  if (receipt.isError) {
    return (
      <div className="mx-auto grid w-full max-w-2xl justify-items-start gap-4 px-4 py-16">
        <h1 className="text-2xl font-bold tracking-tight">Receipt</h1>
        <p role="alert" className="text-destructive">
          Could not load the receipt: {errorMessage(receipt.error)}
        </p>
        <Button variant="outline" onClick={() => void receipt.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return <ReceiptDetails receipt={receipt.data} />;
}

function ReceiptDetails({ receipt }: { receipt: PurchaseReceipt }) {
  const capper = receipt.capper;
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6" data-receipt>
      <style>{PRINT_CSS}</style>
      <div className="flex flex-wrap items-center justify-between gap-3" data-print-hide>
        <Link
          href="/dashboard?tab=purchased"
          className="inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft aria-hidden className="size-4" />
          Your purchases
        </Link>
        <Button variant="outline" onClick={() => window.print()}>
          <Printer aria-hidden />
          Print
        </Button>
      </div>

      <div className="grid gap-1">
        <p className="text-sm font-semibold tracking-wide text-primary uppercase print:text-black">
          PickReel
        </p>
        <h1 className="text-3xl font-bold tracking-tight">Receipt</h1>
        <p className="text-muted-foreground">Purchase #{receipt.id}</p>
      </div>

      <dl
        className="grid gap-x-6 gap-y-3 rounded-card border bg-card p-4 text-base sm:grid-cols-[auto_1fr] sm:p-6 print:border-black"
        data-testid="receipt-facts"
      >
        <Fact term="Purchase number">#{receipt.id}</Fact>
        <Fact term="Date">
          <time dateTime={receipt.purchasedAt}>{formatPickTime(receipt.purchasedAt)}</time>
        </Fact>
        <Fact term="Pick">
          {receipt.videoId !== null ? (
            <Link href={`/video/${receipt.videoId}`} className="font-semibold underline underline-offset-2">
              {receipt.title}
            </Link>
          ) : (
            <>
              {receipt.title} <span className="text-muted-foreground">(removed by the capper)</span>
            </>
          )}
        </Fact>
        <Fact term="Capper">
          {capper ? (
            <Link
              href={`/cappers/${encodeURIComponent(capper.username)}`}
              className="underline underline-offset-2"
            >
              {capper.displayName || capper.username}
            </Link>
          ) : (
            'No longer listed'
          )}
        </Fact>
        <Fact term="Amount charged">
          <span className="font-bold" data-testid="receipt-amount">
            {formatPrice(receipt.amount)}
          </span>{' '}
          <span className="text-muted-foreground uppercase">{receipt.currency}</span>
        </Fact>
        <Fact term="Payment method">
          {receipt.paymentMethod ? PAYMENT_METHOD_TEXT[receipt.paymentMethod] : 'Not recorded'}
        </Fact>
        <Fact term="Payment reference">
          <code className="font-mono text-sm break-all">{receipt.paymentIntentId}</code>
        </Fact>
        <Fact term="Status">
          {receipt.outcome ? (
            <OutcomeChip
              outcome={receipt.outcome}
              className="print:border print:border-black print:bg-white"
            />
          ) : (
            'Unverified pick: not graded automatically'
          )}
        </Fact>
      </dl>

      <section aria-labelledby="receipt-selections" className="grid gap-3">
        <h2 id="receipt-selections" className="text-xl font-bold tracking-tight">
          Your selections
        </h2>
        {receipt.pick && <SelectionLegs legs={receipt.pick.legs} states={receipt.pick.states} />}
        {(!receipt.pick || receipt.selections?.trim()) && (
          <p className="rounded-card border p-4 text-lg whitespace-pre-wrap break-words print:border-black">
            {receipt.selections?.trim() || NO_SELECTIONS_TEXT}
          </p>
        )}
      </section>

      {receipt.pick && (
        <section aria-labelledby="receipt-commitment" className="grid gap-2">
          <h2 id="receipt-commitment" className="text-xl font-bold tracking-tight">
            Commitment
          </h2>
          <p className="text-sm text-muted-foreground">
            The SHA-256 of the sealed pick (version {receipt.pick.version}), published when it was posted: the
            legs and selections above cannot have changed without changing it.
          </p>
          <Commitment value={receipt.pick.commitment} label="the commitment" />
          <div data-print-hide>
            <VerifyButton sealed={receipt.pick.sealed} expected={receipt.pick.commitment} />
          </div>
        </section>
      )}

      {receipt.videoId !== null && (
        <Link
          href={`/video/${receipt.videoId}`}
          className={cn(buttonClasses('primary', 'md'), 'w-fit print:hidden')}
          data-print-hide
        >
          Open the pick
        </Link>
      )}
    </div>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5 sm:contents">
      <dt className="text-sm font-medium text-muted-foreground sm:text-base">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}
