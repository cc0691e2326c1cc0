// When to spend the provider's credits (docs/decisions/025 'What a day costs'). The schedule is free and read
// every tick; prices cost 3 credits a league and are read only when someone needs them (a capper choosing or
// posting a pick, on demand) and once in the last minutes before a start that legs are on (the closing
// prices); scores cost 2 and are read while games with legs await a result. Pure: no I/O, no clock.

/** A closing snapshot is one taken within this long before the start (at least two ticks). */
export const CLOSING_LEAD_SECONDS = 120;
/** Scores of games under way are read at most this often. */
export const SCORES_EVERY_SECONDS = 300;
/** Below this many credits left, only what cannot wait is fetched (posting, and scores every half hour). */
export const LOW_CREDITS = 60;
const LOW_SCORES_EVERY_SECONDS = 1800;
/** A league whose fetches fail waits 30 s, 1, 2, 4… up to 30 minutes before trying again. */
export function backoffSeconds(failures: number): number {
  return failures <= 0 ? 0 : Math.min(30 * 2 ** (failures - 1), 1800);
}

export interface LeagueView {
  /** The schedule's, prices' and scores' last answers. */
  scheduleAt: Date | null;
  oddsAt: Date | null;
  scoresAt: Date | null;
  /** The soonest start of a game with a leg on it, still to come. */
  nextStartWithLegs: Date | null;
  /** Whether a game with a leg on it has started and has no result yet. */
  awaitingScores: boolean;
  /** Consecutive failures of this league's fetches, and when the last one failed. */
  failures: number;
  failedAt: Date | null;
}

export interface FetchPlan {
  schedule: boolean;
  odds: boolean;
  scores: boolean;
}

const secondsSince = (now: Date, at: Date | null) => (at ? (now.getTime() - at.getTime()) / 1000 : Infinity);

export function planFetches(
  league: LeagueView,
  now: Date,
  options: {
    tickSeconds: number;
    creditsLeft: number | null;
    exhaustedUntil: Date | null;
    /** Scores come from a free source (ESPN): no quota slows them. */
    freeScores?: boolean;
  },
): FetchPlan {
  if (league.failures > 0 && secondsSince(now, league.failedAt) < backoffSeconds(league.failures))
    return { schedule: false, odds: false, scores: false };
  const schedule = secondsSince(now, league.scheduleAt) >= options.tickSeconds * 0.9;
  const exhausted = options.exhaustedUntil !== null && now < options.exhaustedUntil;
  const low = exhausted || (options.creditsLeft !== null && options.creditsLeft < LOW_CREDITS);
  const lead = Math.max(CLOSING_LEAD_SECONDS, 2 * options.tickSeconds) * 1000;
  const next = league.nextStartWithLegs;
  const closingDue =
    !low &&
    next !== null &&
    next.getTime() - now.getTime() <= lead &&
    (league.oddsAt === null || league.oddsAt.getTime() < next.getTime() - lead);
  const paidLow = low && !options.freeScores;
  const scoresEvery = Math.max(
    paidLow ? LOW_SCORES_EVERY_SECONDS : SCORES_EVERY_SECONDS,
    options.tickSeconds,
  );
  const scores =
    (options.freeScores || !exhausted) &&
    league.awaitingScores &&
    secondsSince(now, league.scoresAt) >= scoresEvery * 0.9;
  return { schedule, odds: closingDue, scores };
}
