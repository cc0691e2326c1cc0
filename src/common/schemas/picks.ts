// Structured picks (issue 14): a pick's legs as the upload form, the multipart form, the tus metadata and
// the edit page send them, with their messages, once for the client and the server.
import { z } from 'zod';
import { CATEGORIES, type Category } from '../constants.js';
import { containsNulCharacter, NUL_CHARACTER_MESSAGE } from './text.js';

/** The categories that are not a league (spec 5): a leg is on a game of one of the others. */
const NOT_LEAGUES = ['General', 'Fantasy Sports', 'Player Props', 'Parlays', 'Daily Picks'] as const;
export type League = Exclude<Category, (typeof NOT_LEAGUES)[number]>;
/** The leagues a leg can be on: the sports among the categories, in the categories' order. */
export const LEAGUES = CATEGORIES.filter(
  (category): category is League => !(NOT_LEAGUES as readonly string[]).includes(category),
) as [League, ...League[]];

export const MARKETS = ['moneyline', 'spread', 'total', 'prop', 'other'] as const;
export type Market = (typeof MARKETS)[number];
/** Markets graded from the final score by rule; the others are graded by an admin, with a reason. */
export const SCORED_MARKETS: readonly Market[] = ['moneyline', 'spread', 'total'];
export const TOTAL_SIDES = ['over', 'under'] as const;

export const MAX_LEGS = 12;
export const MIN_UNITS = 0.1;
export const MAX_UNITS = 10;
export const MIN_ODDS_ABS = 100;
export const MAX_ODDS_ABS = 100_000;
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
export const ODDS_MESSAGE = 'Odds must be American odds: -100 or lower, or +100 or higher (e.g. -110, +150)';
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

/** Any ISO-8601 date and time with an offset ('Z' or '+02:00'); kept as UTC, to the second. */
export const StartsAtSchema = z
  .string({ error: START_TIME_MESSAGE })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, START_TIME_MESSAGE)
  .refine((value) => Number.isFinite(Date.parse(value)), START_TIME_MESSAGE)
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

const OddsSchema = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value.replace(/^\+/, '')) : value),
  z
    .number({ error: ODDS_MESSAGE })
    .int(ODDS_MESSAGE)
    .refine((value) => Math.abs(value) >= MIN_ODDS_ABS && Math.abs(value) <= MAX_ODDS_ABS, ODDS_MESSAGE),
);

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
 * One leg as the API takes it (issue 14): `side` is the team for moneyline and spread (written as the
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
    odds: OddsSchema,
    units: UnitsSchema,
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
  })
  .transform((leg) => ({
    ...leg,
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
    const problem = parlayProblem(pick);
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
      'JSON array of legs: {"league","home","away","startsAt","market":"moneyline"|"spread"|"total"|"prop"|"other","side","line","odds","units"}. At most 12.',
  });

/** The first leg's start, which locks the pick's selections and legs; null without legs. */
export function earliestStart(legs: readonly Leg[]): string | null {
  let earliest: string | null = null;
  for (const leg of legs) if (earliest === null || leg.startsAt < earliest) earliest = leg.startsAt;
  return earliest;
}

/** issue 14: every leg starts in the future at posting (and at each revision). */
export function legsStartInFuture(legs: readonly Leg[], now: Date): boolean {
  const first = earliestStart(legs);
  return first === null || Date.parse(first) > now.getTime();
}
