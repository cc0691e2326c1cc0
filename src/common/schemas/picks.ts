// Structured picks (docs/decisions/020, 025): a pick's legs as the upload form, the multipart form, the tus
// metadata and the edit page send them, with their messages, once for the client and the server.
import { z } from 'zod';
import { LEAGUES, MARKETS, SCORED_MARKETS, TOTAL_SIDES, type League, type Market } from '../leagues.js';
import { containsNulCharacter, NUL_CHARACTER_MESSAGE } from './text.js';

export { LEAGUES, MARKETS, SCORED_MARKETS, TOTAL_SIDES, type League, type Market } from '../leagues.js';

export const MAX_LEGS = 12;
export const MIN_UNITS = 0.1;
export const MAX_UNITS = 10;
export const MIN_ODDS_ABS = 100;
export const MAX_ODDS_ABS = 10_000;
/** A self-reported leg's game starts within this many days of posting: no pick waits a season. */
export const SELF_REPORTED_MAX_DAYS = 14;
export const TEAM_MAX_LENGTH = 60;
export const SIDE_MAX_LENGTH = 200;
/** A line is a whole or half point (e.g. -3, +4.5, 220.5). */
const MAX_LINE_ABS = 1000;

export const LEAGUE_MESSAGE = 'Please choose a league from the list';
export const TEAM_REQUIRED_MESSAGE = 'Both teams are required';
export const SAME_TEAMS_MESSAGE = 'Home and away must be different teams';
export const START_TIME_MESSAGE = 'Start time must be a date and time';
export const START_IN_FUTURE_MESSAGE = 'Every leg must start in the future';
export const MARKET_MESSAGE = 'Please choose a market: moneyline, spread, total, prop or other';
export const SIDE_REQUIRED_MESSAGE = 'Say what the bet is on';
export const TEAM_SIDE_MESSAGE = 'The pick must be one of the two teams';
export const TOTAL_SIDE_MESSAGE = 'A total is over or under';
export const LINE_REQUIRED_MESSAGE = 'This market needs a line (e.g. -3.5 or 220.5)';
export const LINE_FORMAT_MESSAGE = 'A line is a whole or half point (e.g. -3, +4.5, 220.5)';
export const NO_LINE_MESSAGE = 'A moneyline has no line';
export const ODDS_MESSAGE = `Odds must be American odds: from -${MAX_ODDS_ABS} to -100, or from +100 to +${MAX_ODDS_ABS} (e.g. -110, +150)`;
export const ODDS_REQUIRED_MESSAGE = 'A self-reported leg needs its odds';
export const START_WITHIN_MESSAGE = `A self-reported game starts within ${SELF_REPORTED_MAX_DAYS} days`;
export const ONE_LEG_PER_GAME_MESSAGE = 'A pick has at most one leg per game and market';
export const UNITS_MESSAGE = `Units must be from ${MIN_UNITS} to ${MAX_UNITS}, in tenths`;
export const TOO_MANY_LEGS_MESSAGE = `A pick has at most ${MAX_LEGS} legs`;
/** A sealed pick's legs can change while it is open, but not to none: it stays a verified pick. */
export const KEEP_LEGS_MESSAGE = 'A verified pick keeps at least one leg.';
export const PARLAY_LEGS_MESSAGE = 'A parlay needs at least two legs';
export const PARLAY_UNITS_MESSAGE = 'Every leg of a parlay carries the same stake';
export const LEGS_JSON_MESSAGE = 'Legs must be a JSON array of legs';

const TeamSchema = z
  .string({ error: TEAM_REQUIRED_MESSAGE })
  .trim()
  .min(1, TEAM_REQUIRED_MESSAGE)
  .max(TEAM_MAX_LENGTH, `A team name is at most ${TEAM_MAX_LENGTH} characters`);

/** The date's day exists in its month (JavaScript reads 2027-02-30 as March 2), and its hour and minute are real. */
function isRealDate(value: string): boolean {
  const [, year, month, day, hour, minute, second = '0'] =
    /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value) ?? [];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day) &&
    Number(hour) < 24 &&
    Number(minute) < 60 &&
    Number(second) < 60
  );
}

/** Any ISO-8601 date and time with an offset ('Z' or '+02:00'); kept as UTC, to the second. */
export const StartsAtSchema = z
  .string({ error: START_TIME_MESSAGE })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, START_TIME_MESSAGE)
  .refine((value) => Number.isFinite(Date.parse(value)) && isRealDate(value), START_TIME_MESSAGE)
  .transform((value) => {
    const date = new Date(Date.parse(value));
    date.setUTCMilliseconds(0);
    return date.toISOString().replace('.000Z', 'Z');
  });

/** Numbers arrive as numbers from JSON, and the form may send '' for "none". */
const optionalNumber = (message: string) =>
  z.preprocess(
    (value) =>
      value === '' || value === undefined ? null : typeof value === 'string' ? Number(value) : value,
    z.number({ error: message }).refine(Number.isFinite, message).nullable(),
  );

/** A JSON integer: text ('0x96', '+150') is the form's to read, never the server's to guess. */
const OddsSchema = z
  .number({ error: ODDS_MESSAGE })
  .int(ODDS_MESSAGE)
  .refine((value) => Math.abs(value) >= MIN_ODDS_ABS && Math.abs(value) <= MAX_ODDS_ABS, ODDS_MESSAGE);

/** American odds as a person types them ('+150', '-110', '150'); null when they are not that. */
export function parseOddsText(text: string): number | null {
  const trimmed = text.trim().replace(/^[−–]/, '-');
  return /^[+-]?\d{1,6}$/.test(trimmed) ? Number(trimmed.replace(/^\+/, '')) : null;
}

const UnitsSchema = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value),
  z
    .number({ error: UNITS_MESSAGE })
    .refine((value) => value >= MIN_UNITS && value <= MAX_UNITS, UNITS_MESSAGE)
    .refine((value) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-9, UNITS_MESSAGE)
    .transform((value) => Math.round(value * 10) / 10),
);

const isHalfPoint = (value: number) => Math.abs(value * 2 - Math.round(value * 2)) < 1e-9;
const sameTeam = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The lines a league's spread and total plausibly take (a wider range than any book's main line), so a
 * typo or a made-up line is refused: a spread's largest size, a total's lowest and highest.
 */
const LINE_RANGES: Partial<Record<League, { spread: number; total: [number, number] }>> = {
  NFL: { spread: 30, total: [20, 80] },
  'College Football': { spread: 60, total: [20, 110] },
  NBA: { spread: 30, total: [150, 300] },
  'College Basketball': { spread: 45, total: [90, 200] },
  MLB: { spread: 5, total: [3, 25] },
  NHL: { spread: 5, total: [2, 12] },
  Soccer: { spread: 5, total: [0.5, 10] },
};
const DEFAULT_LINE_RANGE = { spread: 100, total: [0.5, 500] as [number, number] };

/** Why a line is not plausible for its league and market; null when it is. */
export function lineRangeProblem(league: League, market: Market, line: number | null): string | null {
  if (line === null || (market !== 'spread' && market !== 'total')) return null;
  const range = LINE_RANGES[league] ?? DEFAULT_LINE_RANGE;
  if (market === 'spread' && Math.abs(line) > range.spread)
    return `A ${league} spread is at most ${range.spread} points either way`;
  if (market === 'total' && (line < range.total[0] || line > range.total[1]))
    return `A ${league} total is between ${range.total[0]} and ${range.total[1]}`;
  return null;
}

/**
 * One leg as the API takes it: `side` is the team for moneyline and spread (written as the
 * event's team), 'over' or 'under' for a total, the bet's text for a prop or other; `line` where the
 * market has one (null otherwise).
 */
export const LegInputSchema = z
  .object({
    league: z.enum(LEAGUES, { error: LEAGUE_MESSAGE }),
    home: TeamSchema,
    away: TeamSchema,
    startsAt: StartsAtSchema,
    market: z.enum(MARKETS, { error: MARKET_MESSAGE }),
    side: z
      .string({ error: SIDE_REQUIRED_MESSAGE })
      .trim()
      .min(1, SIDE_REQUIRED_MESSAGE)
      .max(SIDE_MAX_LENGTH, `A bet's text is at most ${SIDE_MAX_LENGTH} characters`),
    line: optionalNumber(LINE_FORMAT_MESSAGE).default(null),
    // Omitted on a market game: the leg takes the best price among books now (docs/decisions/025).
    odds: OddsSchema.nullable().optional(),
    units: UnitsSchema,
    // A game of GET /api/events (the market's schedule), instead of matching the teams and start.
    eventId: z
      .int({ error: 'eventId must be a game id' })
      .positive('eventId must be a game id')
      .nullable()
      .optional(),
  })
  .superRefine((leg, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (sameTeam(leg.home, leg.away)) issue('away', SAME_TEAMS_MESSAGE);
    if (leg.market === 'moneyline' || leg.market === 'spread') {
      if (!sameTeam(leg.side, leg.home) && !sameTeam(leg.side, leg.away)) issue('side', TEAM_SIDE_MESSAGE);
    }
    if (leg.market === 'total' && !(TOTAL_SIDES as readonly string[]).includes(leg.side.toLowerCase()))
      issue('side', TOTAL_SIDE_MESSAGE);
    if (leg.market === 'moneyline' && leg.line !== null) issue('line', NO_LINE_MESSAGE);
    if ((leg.market === 'spread' || leg.market === 'total') && leg.line === null)
      issue('line', LINE_REQUIRED_MESSAGE);
    if (leg.line !== null && (!isHalfPoint(leg.line) || Math.abs(leg.line) > MAX_LINE_ABS))
      issue('line', LINE_FORMAT_MESSAGE);
    if (leg.market === 'total' && leg.line !== null && leg.line <= 0) issue('line', LINE_FORMAT_MESSAGE);
    else if (leg.line !== null && isHalfPoint(leg.line)) {
      const range = lineRangeProblem(leg.league, leg.market, leg.line);
      if (range) issue('line', range);
    }
  })
  .transform((leg) => ({
    ...leg,
    odds: leg.odds ?? null,
    eventId: leg.eventId ?? null,
    // A team side is written as the event writes the team; a total's side in lower case.
    side:
      leg.market === 'moneyline' || leg.market === 'spread'
        ? sameTeam(leg.side, leg.home)
          ? leg.home
          : leg.away
        : leg.market === 'total'
          ? leg.side.toLowerCase()
          : leg.side,
  }));
export type LegInput = z.input<typeof LegInputSchema>;
export type Leg = z.output<typeof LegInputSchema>;

/** A parlay has two legs or more, all at the same stake; null when the pick is fine. */
export function parlayProblem(pick: { legs: readonly { units: number }[]; parlay: boolean }): string | null {
  if (!pick.parlay) return null;
  if (pick.legs.length < 2) return PARLAY_LEGS_MESSAGE;
  if (pick.legs.some((leg) => leg.units !== pick.legs[0]!.units)) return PARLAY_UNITS_MESSAGE;
  return null;
}

/** The legs of one pick, and whether it is a parlay (all legs must win). */
export const PickLegsSchema = z
  .object({
    legs: z.array(LegInputSchema, { error: LEGS_JSON_MESSAGE }).max(MAX_LEGS, TOO_MANY_LEGS_MESSAGE),
    parlay: z.boolean().default(false),
  })
  .superRefine((pick, ctx) => {
    const problem =
      parlayProblem(pick) ??
      contradictionProblem(
        pick.legs.map((leg) => ({ key: leg.eventId ? `event:${leg.eventId}` : gameKey(leg), ...leg })),
      );
    if (problem) ctx.addIssue({ code: 'custom', path: ['legs'], message: problem });
  });
export type PickLegs = z.output<typeof PickLegsSchema>;

/** The `legs` field of the multipart form and of the tus metadata: JSON text; absent or '' is no legs. */
export const LegsTextSchema = z
  .union([z.string(), z.array(z.unknown())], { error: LEGS_JSON_MESSAGE })
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || (typeof value === 'string' && value.trim() === '')) return [];
    let legs: unknown = value;
    if (typeof value === 'string') {
      try {
        legs = JSON.parse(value) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: LEGS_JSON_MESSAGE });
        return z.NEVER;
      }
    }
    // `\u0000` in the text is a NUL once read: refused here, as a NUL in any other field is, before a query.
    if (containsNulCharacter(legs)) {
      ctx.addIssue({ code: 'custom', message: NUL_CHARACTER_MESSAGE });
      return z.NEVER;
    }
    return legs;
  })
  .meta({
    type: 'string',
    description:
      'JSON array of legs: {"league","home","away","startsAt","market":"moneyline"|"spread"|"total"|"prop"|"other","side","line","odds","units","eventId"}. At most 12. With a market, a moneyline, spread or total leg is on a market game (eventId, or its teams and official start) and `odds` may be omitted (the best price now).',
  });

/** The same game as a capper names it: its league, both teams in either order, and its start. */
export function gameKey(leg: { league: string; home: string; away: string; startsAt: string }): string {
  const teams = [leg.home.toLowerCase(), leg.away.toLowerCase()].sort();
  return `${leg.league}|${teams[0]}|${teams[1]}|${leg.startsAt}`;
}

/**
 * Both sides of one game's moneyline or spread, over and under of one total, or two legs on one game's
 * same market: a pick that cannot lose (or hedges itself) is refused. Props and `other` are free text and
 * may be several on one game. `key` names the game (gameKey, or the market's game id).
 */
export function contradictionProblem(
  legs: readonly { key: string; market: Market; side: string }[],
): string | null {
  const seen = new Map<string, string>();
  for (const leg of legs) {
    if (!(SCORED_MARKETS as readonly Market[]).includes(leg.market)) continue;
    const id = `${leg.key}|${leg.market}`;
    const side = seen.get(id);
    if (side === undefined) {
      seen.set(id, leg.side.toLowerCase());
      continue;
    }
    if (side === leg.side.toLowerCase()) return ONE_LEG_PER_GAME_MESSAGE;
    return leg.market === 'total'
      ? "A pick cannot take both the over and the under of one game's total"
      : `A pick cannot take both sides of one game's ${leg.market}`;
  }
  return null;
}

/** Why a self-reported leg's start cannot be taken: in the past, or more than SELF_REPORTED_MAX_DAYS away. */
export function selfReportedStartProblem(leg: Pick<Leg, 'startsAt'>, now: Date): string | null {
  const start = Date.parse(leg.startsAt);
  if (start <= now.getTime()) return START_IN_FUTURE_MESSAGE;
  if (start > now.getTime() + SELF_REPORTED_MAX_DAYS * 24 * 3600_000) return START_WITHIN_MESSAGE;
  return null;
}

/** The first leg's start, which locks the pick's selections and legs; null without legs. */
export function earliestStart(legs: readonly Leg[]): string | null {
  let earliest: string | null = null;
  for (const leg of legs) if (earliest === null || leg.startsAt < earliest) earliest = leg.startsAt;
  return earliest;
}

/** Every leg starts in the future at posting (and at each revision). */
export function legsStartInFuture(legs: readonly Leg[], now: Date): boolean {
  const first = earliestStart(legs);
  return first === null || Date.parse(first) > now.getTime();
}
