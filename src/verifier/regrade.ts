// The published grading rules (docs/pick-log.md 'Regrading'), written again here on purpose: a verifier that
// reused the server's arithmetic would agree with its mistakes. A leg's result from a final score, a pick's
// grade from its legs' results, and closing line value from a game's closing prices.
import type { ClosedEntry, LoggedResult } from '../common/pick-log/index.js';
import type { SealedLeg } from '../common/pick-seal.js';
import { round } from './record.js';

export interface Score {
  home: number;
  away: number;
}

/** American odds as the decimal payout per unit staked. */
export function decimalPayout(odds: number): number {
  return odds > 0 ? 1 + odds / 100 : 1 + 100 / -odds;
}

const versus = (own: number, other: number): LoggedResult =>
  own > other ? 'win' : own < other ? 'loss' : 'push';

const sameTeam = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * A moneyline, spread or total leg's result from the final score, on the game's own team names; null when
 * the leg is not one of those markets or does not name a side of the game (it cannot be graded by rule).
 */
export function resultFromScore(
  leg: Pick<SealedLeg, 'market' | 'side' | 'line'>,
  game: { home: string; away: string },
  score: Score,
): LoggedResult | null {
  if (leg.market === 'total') {
    if (leg.line === null) return null;
    const total = score.home + score.away;
    const side = leg.side.toLowerCase();
    if (side === 'over') return versus(total, leg.line);
    if (side === 'under') return versus(leg.line, total);
    return null;
  }
  if (leg.market !== 'moneyline' && leg.market !== 'spread') return null;
  let own: number;
  let other: number;
  if (sameTeam(leg.side, game.home)) [own, other] = [score.home, score.away];
  else if (sameTeam(leg.side, game.away)) [own, other] = [score.away, score.home];
  else return null;
  if (leg.market === 'moneyline') return versus(own, other);
  if (leg.line === null) return null;
  return versus(own + leg.line, other);
}

export interface RegradedPick {
  result: LoggedResult;
  unitsWon: number;
  unitsRisked: number;
  bets: Record<LoggedResult, number>;
}

const noBets = (): Record<LoggedResult, number> => ({ win: 0, loss: 0, push: 0, void: 0 });

/**
 * A pick's grade from its legs' results. Straight: each leg a bet, its units won at its odds; the pick wins
 * or loses by its units to the cent. Parlay: one bet at the first leg's stake, lost with any leg, paid on
 * the legs that won when others pushed or were void.
 */
export function gradeFromLegs(
  legs: readonly { result: LoggedResult; odds: number; units: number }[],
  parlay: boolean,
): RegradedPick {
  const bets = noBets();
  if (parlay) {
    const stake = legs[0]!.units;
    let result: LoggedResult;
    let won = 0;
    let risked = stake;
    if (legs.some((leg) => leg.result === 'loss')) {
      result = 'loss';
      won = -stake;
    } else {
      const winners = legs.filter((leg) => leg.result === 'win');
      if (!winners.length) {
        result = legs.every((leg) => leg.result === 'void') ? 'void' : 'push';
        risked = 0;
      } else {
        result = 'win';
        let payout = 1;
        for (const leg of winners) payout *= decimalPayout(leg.odds);
        won = stake * (payout - 1);
      }
    }
    bets[result] = 1;
    const exact = result === 'win' ? () => parlayWonExactly(stake, legs) : null;
    return { result, unitsWon: toCent(won, exact), unitsRisked: round(risked, 2), bets };
  }
  let won = 0;
  let risked = 0;
  for (const leg of legs) {
    bets[leg.result] += 1;
    if (leg.result === 'win')
      won += leg.odds > 0 ? (leg.units * leg.odds) / 100 : (leg.units * 100) / -leg.odds;
    if (leg.result === 'loss') won -= leg.units;
    if (leg.result === 'win' || leg.result === 'loss') risked += leg.units;
  }
  const unitsWon = toCent(won, () => straightWonExactly(legs));
  const unitsRisked = round(risked, 2);
  const result: LoggedResult = legs.every((leg) => leg.result === 'void')
    ? 'void'
    : unitsRisked === 0 || unitsWon === 0
      ? 'push'
      : unitsWon > 0
        ? 'win'
        : 'loss';
  return { result, unitsWon, unitsRisked, bets };
}

/** A fraction of BigInts, its denominator positive. */
type Fraction = readonly [numerator: bigint, denominator: bigint];

/**
 * Units won to the cent, half away from zero, of the exact amount. The floating-point sum can land a
 * half-cent on either side (0.5 × 1.13 − 0.5 is 0.06499…), so near one the exact fraction decides, when
 * the legs' units are tenths and their odds whole (as the format has them).
 */
function toCent(value: number, exact: (() => Fraction | null) | null): number {
  const scaled = Math.abs(value) * 100;
  if (!exact || Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) return round(value, 2);
  const fraction = exact();
  if (!fraction) return round(value, 2);
  const [numerator, denominator] = fraction;
  const magnitude = numerator < 0n ? -numerator : numerator;
  const cents = Number((200n * magnitude + denominator) / (2n * denominator));
  const rounded = (numerator < 0n ? -cents : cents) / 100;
  return rounded === 0 ? 0 : rounded;
}

/** Units as tenths (the format's step), or null when they are not. */
function tenthsOf(units: number): bigint | null {
  const tenths = Math.round(units * 10);
  return tenths / 10 === units ? BigInt(tenths) : null;
}

/** American odds' profit per unit staked, as a fraction: +150 is 150/100, −110 is 100/110. */
function profitOf(odds: number): Fraction | null {
  if (!Number.isSafeInteger(odds) || odds === 0) return null;
  return odds > 0 ? [BigInt(odds), 100n] : [100n, BigInt(-odds)];
}

type GradedLeg = { result: LoggedResult; odds: number; units: number };

function straightWonExactly(legs: readonly GradedLeg[]): Fraction | null {
  let sum: Fraction = [0n, 1n];
  for (const leg of legs) {
    if (leg.result !== 'win' && leg.result !== 'loss') continue;
    const tenths = tenthsOf(leg.units);
    const profit = profitOf(leg.odds);
    if (tenths === null || !profit) return null;
    const term: Fraction = leg.result === 'win' ? [tenths * profit[0], 10n * profit[1]] : [-tenths, 10n];
    sum = [sum[0] * term[1] + term[0] * sum[1], sum[1] * term[1]];
  }
  return sum;
}

/** A won parlay: the stake times the product of its winning legs' decimal payouts, less the stake. */
function parlayWonExactly(stake: number, legs: readonly GradedLeg[]): Fraction | null {
  const tenths = tenthsOf(stake);
  if (tenths === null) return null;
  let payout: Fraction = [1n, 1n];
  for (const leg of legs) {
    if (leg.result !== 'win') continue;
    const profit = profitOf(leg.odds);
    if (!profit) return null;
    payout = [payout[0] * (profit[1] + profit[0]), payout[1] * profit[1]];
  }
  return [tenths * (payout[0] - payout[1]), 10n * payout[1]];
}

/** Where a leg stands in a closed entry's list: its market, its side by place, its line. */
export function closingKey(
  leg: Pick<SealedLeg, 'market' | 'side' | 'line'>,
  game: { home: string; away: string },
): { market: string; side: string; line: number | null } | null {
  if (leg.market === 'total') {
    const side = leg.side.toLowerCase();
    return side === 'over' || side === 'under' ? { market: 'total', side, line: leg.line } : null;
  }
  if (leg.market !== 'moneyline' && leg.market !== 'spread') return null;
  const side = sameTeam(leg.side, game.home) ? 'home' : sameTeam(leg.side, game.away) ? 'away' : null;
  if (!side) return null;
  return { market: leg.market, side, line: leg.market === 'moneyline' ? null : leg.line };
}

const OTHER_SIDE: Record<string, string> = { home: 'away', away: 'home', over: 'under', under: 'over' };

/**
 * The closing figures of every side and line some book priced, from the books' own prices: the best price
 * (the highest payout) and the median over books that priced both sides of each book's fair probability
 * (its implied probability over both sides' sum). Keyed `market|side|line`.
 */
export function closingFigures(
  books: ClosedEntry['books'],
): Map<string, { best: number; fair: number | null }> {
  const figures = new Map<string, { best: number; fair: number | null; fairs: number[] }>();
  const key = (market: string, side: string, line: number | null) => `${market}|${side}|${line}`;
  for (const { prices } of books) {
    for (const [market, side, line, price] of prices) {
      const id = key(market, side, line);
      const known = figures.get(id);
      if (!known) figures.set(id, { best: price, fair: null, fairs: [] });
      else if (decimalPayout(price) > decimalPayout(known.best)) known.best = price;
      const otherLine = market === 'spread' && line !== null ? -line : line;
      const other = prices.find(([m, s, l]) => m === market && s === OTHER_SIDE[side] && l === otherLine);
      if (other) {
        const own = 1 / decimalPayout(price);
        const theirs = 1 / decimalPayout(other[3]);
        figures.get(id)!.fairs.push(own / (own + theirs));
      }
    }
  }
  const out = new Map<string, { best: number; fair: number | null }>();
  for (const [id, { best, fairs }] of figures) {
    fairs.sort((a, b) => a - b);
    const middle = fairs.length >> 1;
    const fair = !fairs.length
      ? null
      : fairs.length % 2
        ? fairs[middle]!
        : (fairs[middle - 1]! + fairs[middle]!) / 2;
    out.set(id, { best, fair });
  }
  return out;
}

export const figureKey = (market: string, side: string, line: number | null) => `${market}|${side}|${line}`;

/** CLV in percent, four decimals, of one bet: ∏ decimal(odds) × fair over its legs, minus 1. */
export function betClv(legs: readonly { odds: number; fair: number }[]): number {
  let value = 1;
  for (const leg of legs) value *= decimalPayout(leg.odds) * leg.fair;
  return round((value - 1) * 100, 4);
}

/** A pick's CLV figures: how many of its bets have one, their sum in ten-thousandths of a percent, how many beat the close. */
export interface PickClv {
  bets: number;
  /** Σ CLV × 10,000, an integer: sums stay exact. */
  sum: number;
  beat: number;
}

/**
 * A graded pick's bets' CLV: void legs never stood; a straight leg without a closing fair price has none;
 * a parlay has one only when every leg that stood has one.
 */
export function pickClv(
  legs: readonly { result: LoggedResult; odds: number; fair: number | null }[],
  parlay: boolean,
): PickClv {
  const stood = legs.filter((leg) => leg.result !== 'void');
  const values: number[] = [];
  if (parlay) {
    if (stood.length && stood.every((leg) => leg.fair !== null))
      values.push(betClv(stood as { odds: number; fair: number }[]));
  } else
    for (const leg of stood) if (leg.fair !== null) values.push(betClv([{ odds: leg.odds, fair: leg.fair }]));
  return {
    bets: values.length,
    sum: values.reduce((sum, value) => sum + Math.round(value * 10_000), 0),
    beat: values.filter((value) => value > 0).length,
  };
}
