// Where a bought pick stands, as its chip says it, and what a buyer's graded picks added up to.
import { formatPrice } from '#common/money.js';
import { formatUnits } from '#common/pick-grading.js';
import type { Purchase } from '#common/schemas/payments.js';
import type { PurchaseOutcome } from '#common/schemas/purchases.js';

export type OutcomeTone = 'open' | 'closed' | 'won' | 'lost' | 'even' | 'removed';

export const OUTCOME_TONE_CLASSES: Record<OutcomeTone, string> = {
  open: 'bg-sky-100 text-sky-900',
  closed: 'bg-amber-100 text-amber-950',
  won: 'bg-emerald-100 text-emerald-900',
  lost: 'bg-red-100 text-red-900',
  even: 'bg-slate-200 text-slate-900',
  removed: 'bg-slate-200 text-slate-900',
};

/** 'Open', 'Sales closed · started', 'Won +0.9u', 'Lost -1.0u', 'Push', 'Void'. */
export function outcomeLabel(outcome: PurchaseOutcome): { label: string; tone: OutcomeTone } {
  if (outcome.removed === 'moderation') return { label: 'Removed by moderation', tone: 'removed' };
  if (outcome.status === 'open') return { label: 'Open', tone: 'open' };
  if (outcome.status === 'started') return { label: 'Sales closed · started', tone: 'closed' };
  const units = outcome.unitsWon === null ? '' : ` ${formatUnits(outcome.unitsWon)}`;
  switch (outcome.result) {
    case 'win':
      return { label: `Won${units}`, tone: 'won' };
    case 'loss':
      return { label: `Lost${units}`, tone: 'lost' };
    case 'push':
      return { label: 'Push', tone: 'even' };
    case 'void':
      return { label: 'Void', tone: 'even' };
    default:
      return { label: 'Graded', tone: 'even' };
  }
}

/** One unit staked as $100. */
export const DOLLARS_PER_UNIT = 100;

export interface PurchaseResults {
  graded: number;
  wins: number;
  losses: number;
  pushes: number;
  voids: number;
  units: number;
  pending: number;
}

/** The buyer's own results on the picks they bought: graded ones only, moderated ones left out. */
export function purchaseResults(purchases: readonly Purchase[]): PurchaseResults {
  const results: PurchaseResults = {
    graded: 0,
    wins: 0,
    losses: 0,
    pushes: 0,
    voids: 0,
    units: 0,
    pending: 0,
  };
  for (const { outcome } of purchases) {
    if (!outcome || outcome.removed === 'moderation') continue;
    if (outcome.status !== 'graded' || outcome.result === null) {
      results.pending += 1;
      continue;
    }
    results.graded += 1;
    if (outcome.result === 'win') results.wins += 1;
    else if (outcome.result === 'loss') results.losses += 1;
    else if (outcome.result === 'push') results.pushes += 1;
    else results.voids += 1;
    results.units += outcome.unitsWon ?? 0;
  }
  // Summed in hundredths, as the units are kept.
  results.units = Math.round(results.units * 100) / 100;
  return results;
}

/** '3-1' or '3-1-1' with pushes: won, lost, pushed. */
export function recordText({ wins, losses, pushes }: PurchaseResults): string {
  return pushes > 0 ? `${wins}-${losses}-${pushes}` : `${wins}-${losses}`;
}

/** '+$240 at $100 a unit', '-$100 at $100 a unit', '$0 at $100 a unit'. */
export function moneyText(units: number): string {
  const cents = Math.round(units * DOLLARS_PER_UNIT * 100);
  const sign = cents > 0 ? '+' : cents < 0 ? '-' : '';
  return `${sign}${formatPrice(Math.abs(cents) / 100)} at ${formatPrice(DOLLARS_PER_UNIT)} a unit`;
}
