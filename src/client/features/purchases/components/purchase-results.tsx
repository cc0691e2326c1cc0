import type { Purchase } from '#common/schemas/payments.js';
import { formatUnits } from '#common/pick-grading.js';
import { moneyText, purchaseResults, recordText } from './outcome';

/**
 * The buyer's own results on the picks they bought: won-lost(-push), units, and what that would have
 * returned at one unit = $100. Graded picks only; unverified picks are never graded.
 */
export function PurchaseResultsSummary({ purchases }: { purchases: readonly Purchase[] }) {
  const results = purchaseResults(purchases);
  return (
    <section
      aria-labelledby="your-results"
      className="grid gap-2 rounded-card border bg-card p-4 sm:p-5"
      data-testid="purchase-results"
    >
      <h3 id="your-results" className="text-lg font-semibold">
        Your results on picks you bought
      </h3>
      {results.graded === 0 ? (
        <p className="text-muted-foreground">
          {results.pending > 0
            ? `No pick of yours is graded yet: ${results.pending} still to play. Results appear here once the final scores are in.`
            : 'Results appear here once a verified pick you bought is graded from its final scores.'}
        </p>
      ) : (
        <>
          <p className="flex flex-wrap items-baseline gap-x-4 gap-y-1 text-2xl font-bold tabular-nums">
            <span>
              <span className="sr-only">Won, lost{results.pushes > 0 ? ', pushed' : ''}: </span>
              <span data-testid="results-record">{recordText(results)}</span>
            </span>
            <span data-testid="results-units">{formatUnits(results.units)}</span>
            <span data-testid="results-money">{moneyText(results.units)}</span>
          </p>
          <p className="text-sm text-muted-foreground">
            {results.graded} graded {results.graded === 1 ? 'pick' : 'picks'}
            {results.voids > 0 && ` (${results.voids} void)`}
            {results.pending > 0 && `, ${results.pending} still to play`}. Money is what the picks would have
            returned at their sealed stakes with one unit = $100; it is not what you paid for them.
          </p>
        </>
      )}
    </section>
  );
}
