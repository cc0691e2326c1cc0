// Closing line value (docs/decisions/025 'Closing line value'): how a bet's price compares with the market's
// last price before the game, with the books' margin taken out. Pure: the server computes and stores it,
// the verifier and the browser can recompute it from the same figures.
import { decimalOdds } from './odds.js';

/** The probability a price implies, margin included: 1 / decimal odds. */
export function impliedProbability(odds: number): number {
  return 1 / decimalOdds(odds);
}

/**
 * One book's fair probability of a side: its implied probability divided by the sum of both sides'
 * (the "multiplicative" removal of the margin, which keeps the two sides' ratio).
 */
export function fairProbability(odds: number, otherSideOdds: number): number {
  const own = impliedProbability(odds);
  return own / (own + impliedProbability(otherSideOdds));
}

/**
 * The closing fair probability of a side from every book that priced both sides of the same line at the
 * close: the median of their fair probabilities, so one stale or off-market book cannot move it. null when
 * no book priced both sides.
 */
export function consensusFairProbability(pairs: readonly { odds: number; other: number }[]): number | null {
  if (!pairs.length) return null;
  const fair = pairs.map((pair) => fairProbability(pair.odds, pair.other)).sort((a, b) => a - b);
  const middle = fair.length >> 1;
  return fair.length % 2 ? fair[middle]! : (fair[middle - 1]! + fair[middle]!) / 2;
}

/**
 * A bet's CLV in percent: what one unit staked at its price returns, on average, if the closing fair
 * probability is the truth, minus the unit. `decimal(price) × fair − 1`, × 100. Positive: the bet beat
 * the close. A parlay's legs multiply: ∏ (decimal × fair) − 1.
 */
export function clvPercent(legs: readonly { odds: number; closingFair: number }[]): number {
  if (!legs.length) throw new RangeError('A bet needs at least one priced leg');
  let value = 1;
  for (const leg of legs) {
    if (!(leg.closingFair > 0 && leg.closingFair < 1))
      throw new RangeError(`Not a probability: ${leg.closingFair}`);
    value *= decimalOdds(leg.odds) * leg.closingFair;
  }
  return (value - 1) * 100;
}

/** A capper's CLV over bets: how many had one, their sum (percent) and how many beat the close. */
export interface ClvTotals {
  bets: number;
  sum: number;
  beat: number;
}

export const NO_CLV: ClvTotals = { bets: 0, sum: 0, beat: 0 };

/**
 * The CLV figures of one graded pick's bets (each leg of a straight pick, or the parlay as one bet). A void
 * leg never stood and has none; a bet whose legs lack a closing price (a line no book offered at the close)
 * has none either. Each bet's CLV is rounded to 4 decimals, as stored.
 */
export function pickClv(
  legs: readonly { result: string | null; odds: number; closingFair: number | null }[],
  parlay: boolean,
): ClvTotals {
  const stood = legs.filter((leg) => leg.result !== 'void');
  const bets: number[] = [];
  if (parlay) {
    if (stood.length && stood.every((leg) => leg.closingFair !== null))
      bets.push(clvPercent(stood as { odds: number; closingFair: number }[]));
  } else {
    for (const leg of stood)
      if (leg.closingFair !== null) bets.push(clvPercent([{ odds: leg.odds, closingFair: leg.closingFair }]));
  }
  const rounded = bets.map(roundClv);
  return {
    bets: rounded.length,
    sum: roundClv(rounded.reduce((sum, clv) => sum + clv, 0)),
    beat: rounded.filter((clv) => clv > 0).length,
  };
}

/** Four decimals of a percent, half away from zero, never -0. */
export function roundClv(value: number): number {
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * 10_000 + 1e-9)) / 10_000;
  return rounded === 0 ? 0 : rounded;
}

/** Half away from zero at `decimals`, never -0: a CLV figure as the record shows it. */
function roundShown(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor + 1e-9)) / factor;
  return rounded === 0 ? 0 : rounded;
}

/** The average CLV per bet, two decimals; null when no bet had a close. */
export function clvAverage(totals: Pick<ClvTotals, 'bets' | 'sum'>): number | null {
  return totals.bets ? roundShown(totals.sum / totals.bets, 2) : null;
}

/** A capper's CLV as the record shows it: the average per bet and the share of bets that beat the close. */
export function clvSummary(totals: ClvTotals): { bets: number; average: number; beatPct: number } | null {
  if (!totals.bets) return null;
  return {
    bets: totals.bets,
    average: clvAverage(totals)!,
    beatPct: roundShown((totals.beat / totals.bets) * 100, 1),
  };
}

/** '+1.85%' / '−0.40%': a CLV as printed beside a leg or a record. */
export function formatClv(percent: number): string {
  const rounded = Math.round(percent * 100) / 100;
  return `${rounded > 0 ? '+' : rounded < 0 ? '−' : ''}${Math.abs(rounded).toFixed(2)}%`;
}
