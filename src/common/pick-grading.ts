// Grading picks by the scoreboard (docs/decisions/020): a scored leg's result from the final score, units
// won at American odds, a pick's grade from its legs' results, and a capper's record. Pure: no I/O, no clock.
import { clvSummary, formatClv, NO_CLV, type ClvTotals } from './clv.js';
import { decimalOdds } from './odds.js';

export { decimalOdds };

/** The markets graded from the final score by rule (SCORED_MARKETS in schemas/picks.ts). */
export type ScoredMarket = 'moneyline' | 'spread' | 'total';
export type ScoredResult = 'win' | 'loss' | 'push';
/** 'void': the leg was cancelled (postponed game, scratched player); it counts as if never placed. */
export type LegResult = ScoredResult | 'void';

export interface ScoredLeg {
  market: ScoredMarket;
  /** The team (moneyline, spread) or 'over' / 'under' (total). */
  side: string;
  line: number | null;
  home: string;
  away: string;
}

export interface FinalScore {
  home: number;
  away: number;
}

export interface GradedLeg {
  /** null until the leg has been graded. */
  result: LegResult | null;
  odds: number;
  units: number;
}

/** How many bets a graded pick holds, by result: each leg of a straight pick, or the parlay as one. */
export interface BetCounts {
  win: number;
  loss: number;
  push: number;
  void: number;
}

export interface PickGrade {
  result: LegResult;
  unitsWon: number;
  unitsRisked: number;
  bets: BetCounts;
}

/** A graded pick as a record counts it: its grade, and the CLV of its bets once they closed. */
export interface RecordedPick extends PickGrade {
  clv?: ClvTotals;
}

/**
 * A record counts bets (each leg of a straight pick, a parlay as one): wins, losses, pushes and voids are
 * bets, `graded` their number, `picks` the graded picks they came in.
 */
export interface RecordSummary {
  wins: number;
  losses: number;
  pushes: number;
  voids: number;
  graded: number;
  picks: number;
  /** wins / (wins + losses) × 100, one decimal; null before the first win or loss. */
  winPct: number | null;
  unitsWon: number;
  unitsRisked: number;
  /** unitsWon / unitsRisked × 100, one decimal; null while nothing was risked. */
  roi: number | null;
  /** The bets' closing line value: average percent and share that beat the close; null before the first. */
  clv: { bets: number; average: number; beatPct: number } | null;
}

/**
 * Rounds half away from zero to `decimals` places, and never returns -0. The 1e-9 nudge absorbs binary
 * float error (1.005 is stored as 1.00499999…), far below any real difference at these scales.
 */
function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor + 1e-9)) / factor;
  return rounded === 0 ? 0 : rounded;
}

const compare = (a: number, b: number): ScoredResult => (a > b ? 'win' : a < b ? 'loss' : 'push');

/** A moneyline, spread or total leg's result from the final score. Callers validate the leg first. */
export function gradeScoredLeg(leg: ScoredLeg, score: FinalScore): ScoredResult {
  const side = leg.side.toLowerCase();
  if (leg.market === 'total') {
    if (leg.line === null) throw new Error('A total needs a line');
    const total = score.home + score.away;
    if (side === 'over') return compare(total, leg.line);
    if (side === 'under') return compare(leg.line, total);
    throw new Error(`A total's side is over or under, not '${leg.side}'`);
  }
  if (leg.market !== 'moneyline' && leg.market !== 'spread') {
    throw new Error(`The market '${String(leg.market)}' is not graded from the score`);
  }
  let own: number;
  let other: number;
  if (side === leg.home.toLowerCase()) [own, other] = [score.home, score.away];
  else if (side === leg.away.toLowerCase()) [own, other] = [score.away, score.home];
  else throw new Error(`The side '${leg.side}' is neither ${leg.home} nor ${leg.away}`);
  // Two-way moneyline: a draw returns the stake (push); three-way markets are graded as 'other' by an admin.
  if (leg.market === 'moneyline') return compare(own, other);
  if (leg.line === null) throw new Error('A spread needs a line');
  return compare(own + leg.line, other);
}

/** Units won by one leg bet on its own: the profit on a win, the stake lost on a loss. Not rounded. */
export function legUnitsWon(result: LegResult, odds: number, units: number): number {
  if (result === 'loss') return -units;
  if (result !== 'win') return 0;
  return odds > 0 ? (units * odds) / 100 : (units * 100) / Math.abs(odds);
}

const oneBet = (result: LegResult): BetCounts => ({
  win: 0,
  loss: 0,
  push: 0,
  void: 0,
  [result]: 1,
});

function gradeParlay(legs: readonly GradedLeg[]): PickGrade {
  // schemas/picks.ts makes every leg of a parlay carry the same stake, so the first leg's is the pick's.
  const stake = legs[0]!.units;
  if (legs.some((leg) => leg.result === 'loss')) {
    return {
      result: 'loss',
      unitsWon: roundTo(-stake, 2),
      unitsRisked: roundTo(stake, 2),
      bets: oneBet('loss'),
    };
  }
  // A pushed or void leg drops out and the parlay is paid on the legs that remain.
  const remaining = legs.filter((leg) => leg.result === 'win');
  if (remaining.length === 0) {
    const result = legs.every((leg) => leg.result === 'void') ? 'void' : 'push';
    return { result, unitsWon: 0, unitsRisked: 0, bets: oneBet(result) };
  }
  const payout = remaining.reduce((product, leg) => product * decimalOdds(leg.odds), 1);
  return {
    result: 'win',
    unitsWon: roundTo(stake * (payout - 1), 2),
    unitsRisked: roundTo(stake, 2),
    bets: oneBet('win'),
  };
}

function gradeStraight(legs: readonly GradedLeg[]): PickGrade {
  let won = 0;
  let risked = 0;
  const bets: BetCounts = { win: 0, loss: 0, push: 0, void: 0 };
  for (const leg of legs) {
    const result = leg.result as LegResult;
    won += legUnitsWon(result, leg.odds, leg.units);
    if (result === 'win' || result === 'loss') risked += leg.units;
    bets[result] += 1;
  }
  const unitsWon = roundTo(won, 2);
  const unitsRisked = roundTo(risked, 2);
  if (legs.every((leg) => leg.result === 'void')) return { result: 'void', unitsWon, unitsRisked, bets };
  // Decided on the rounded figure, so a pick shown as 0.00u is never labelled a win or a loss.
  const result = unitsRisked === 0 || unitsWon === 0 ? 'push' : unitsWon > 0 ? 'win' : 'loss';
  return { result, unitsWon, unitsRisked, bets };
}

/**
 * A pick's grade from its legs' results: a parlay needs every leg, straight legs are bets of
 * their own. null while any leg is ungraded, and for a pick without legs.
 */
export function gradePick(legs: readonly GradedLeg[], parlay: boolean): PickGrade | null {
  if (legs.length === 0 || legs.some((leg) => leg.result === null)) return null;
  return parlay ? gradeParlay(legs) : gradeStraight(legs);
}

/** What a record sums: bets by result, the picks they came in, units, and the bets' CLV. */
export interface RecordTotals {
  wins: number;
  losses: number;
  pushes: number;
  voids: number;
  picks: number;
  unitsWon: number;
  unitsRisked: number;
  clv: ClvTotals;
}

/** The totals of graded picks (the profile sums its capper's picks; the leaderboard sums them in SQL). */
export function recordTotals(picks: readonly RecordedPick[]): RecordTotals {
  const totals: RecordTotals = {
    wins: 0,
    losses: 0,
    pushes: 0,
    voids: 0,
    picks: picks.length,
    unitsWon: 0,
    unitsRisked: 0,
    clv: { ...NO_CLV },
  };
  for (const pick of picks) {
    totals.wins += pick.bets.win;
    totals.losses += pick.bets.loss;
    totals.pushes += pick.bets.push;
    totals.voids += pick.bets.void;
    totals.unitsWon += pick.unitsWon;
    totals.unitsRisked += pick.unitsRisked;
    if (pick.clv) {
      totals.clv.bets += pick.clv.bets;
      totals.clv.sum += pick.clv.sum;
      totals.clv.beat += pick.clv.beat;
    }
  }
  return totals;
}

/** A record's figures from its totals: the one place win %, ROI, CLV and their rounding are derived. */
export function recordSummary(totals: RecordTotals): RecordSummary {
  const { wins, losses, pushes, voids } = totals;
  const unitsWon = roundTo(totals.unitsWon, 2);
  const unitsRisked = roundTo(totals.unitsRisked, 2);
  return {
    wins,
    losses,
    pushes,
    voids,
    graded: wins + losses + pushes + voids,
    picks: totals.picks,
    winPct: wins + losses === 0 ? null : roundTo((wins / (wins + losses)) * 100, 1),
    unitsWon,
    unitsRisked,
    // From the rounded sums, so the ROI shown agrees with the units shown beside it.
    roi: unitsRisked === 0 ? null : roundTo((unitsWon / unitsRisked) * 100, 1),
    clv: clvSummary(totals.clv),
  };
}

/** A capper's record over graded picks: bets by result, win %, units, ROI and CLV. */
export function summariseRecord(picks: readonly RecordedPick[]): RecordSummary {
  return recordSummary(recordTotals(picks));
}

/** Units with a sign and one decimal: '+23.4u', '-1.2u', '0.0u'. */
export function formatUnits(units: number): string {
  const rounded = roundTo(units, 1);
  const sign = rounded > 0 ? '+' : rounded < 0 ? '-' : '';
  return `${sign}${Math.abs(rounded).toFixed(1)}u`;
}

/** The one-line record on a capper's card: '+23.4u · 58% · 112 bets · CLV +1.85%'. */
export function recordBadge(summary: RecordSummary): string {
  const decided = summary.wins + summary.losses;
  // From the counts, not winPct: rounding 57.46 to 57.5 and then to 58 would round twice.
  const pct = decided === 0 ? '—' : `${roundTo((summary.wins / decided) * 100, 0)}%`;
  const bets = `${summary.graded} ${summary.graded === 1 ? 'bet' : 'bets'}`;
  const clv = summary.clv ? ` · CLV ${formatClv(summary.clv.average)}` : '';
  return `${formatUnits(summary.unitsWon)} · ${pct} · ${bets}${clv}`;
}
