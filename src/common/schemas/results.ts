// Results ('Graded by the scoreboard'): an event's final score from an admin's Results tab or from
// a results feed, props graded by hand, corrections. One set of schemas for the form, the routes and the
// feed document (docs/results-feed.md).
import { z } from 'zod';
import { OFFSET_MAX, pageQuerySchema } from './ids.js';
import { EventSchema, PICK_RESULTS } from './pick-views.js';
import {
  LEAGUES,
  LEAGUE_MESSAGE,
  MARKETS,
  StartsAtSchema,
  TEAM_MAX_LENGTH,
  TEAM_REQUIRED_MESSAGE,
} from './picks.js';

export const MAX_SCORE = 999;
export const REASON_MAX_LENGTH = 500;
/** A feed document holds at most this many results (a season's day of every league is far fewer). */
export const MAX_FEED_RESULTS = 5000;

export const SCORE_MESSAGE = `A score is a whole number from 0 to ${MAX_SCORE}`;
export const HOME_SCORE_MESSAGE = `The home score must be a whole number from 0 to ${MAX_SCORE}`;
export const AWAY_SCORE_MESSAGE = `The away score must be a whole number from 0 to ${MAX_SCORE}`;
export const RESULT_STATUS_MESSAGE = 'Please choose final (with a score), postponed or cancelled';
export const REASON_REQUIRED_MESSAGE = 'Please give a reason';
export const REASON_TOO_LONG_MESSAGE = `A reason is at most ${REASON_MAX_LENGTH} characters`;
export const LEG_RESULT_MESSAGE = 'Please choose win, loss, push or void';
export const FEED_SHAPE_MESSAGE = 'A results file is a JSON object with a "results" array';
export const FEED_TOO_LONG_MESSAGE = `A results file holds at most ${MAX_FEED_RESULTS} results`;
export const FEED_JSON_MESSAGE = 'The results file is not valid JSON';

const score = (message: string) =>
  z
    .number({ error: message })
    .int(message)
    .min(0, message)
    .max(MAX_SCORE, message)
    .meta({ description: `0 to ${MAX_SCORE}` });

const FinalResultSchema = z.object({
  status: z.literal('final'),
  homeScore: score(HOME_SCORE_MESSAGE),
  awayScore: score(AWAY_SCORE_MESSAGE),
});
const VoidResultSchema = z.object({ status: z.enum(['postponed', 'cancelled']) });

const ReasonSchema = z
  .string({ error: REASON_REQUIRED_MESSAGE })
  .trim()
  .min(1, REASON_REQUIRED_MESSAGE)
  .max(REASON_MAX_LENGTH, REASON_TOO_LONG_MESSAGE);

/** POST /api/admin/events/{id}/result: the final score, or postponed / cancelled (its legs are void). */
export const EventResultSchema = z.discriminatedUnion('status', [FinalResultSchema, VoidResultSchema], {
  error: RESULT_STATUS_MESSAGE,
});
export type EventResult = z.infer<typeof EventResultSchema>;

/** PUT /api/admin/events/{id}/result: an admin's correction, with the reason logged. */
export const EventCorrectionSchema = z.discriminatedUnion(
  'status',
  [FinalResultSchema.extend({ reason: ReasonSchema }), VoidResultSchema.extend({ reason: ReasonSchema })],
  { error: RESULT_STATUS_MESSAGE },
);
export type EventCorrection = z.infer<typeof EventCorrectionSchema>;

/** POST /api/admin/legs/{id}/grade: a prop or other leg, graded by hand with a reason. */
export const LegGradeSchema = z.object({
  result: z.enum(PICK_RESULTS, { error: LEG_RESULT_MESSAGE }),
  reason: ReasonSchema,
});
export type LegGrade = z.infer<typeof LegGradeSchema>;

export const RESULTS_PAGE_LIMITS = { max: 100, default: 50, offsetMax: OFFSET_MAX } as const;
export const ResultsPageQuerySchema = pageQuerySchema(RESULTS_PAGE_LIMITS);

/** An event waiting for its result, with how many legs it will grade. */
export const UnsettledEventSchema = EventSchema.extend({ legCount: z.int() }).meta({ id: 'UnsettledEvent' });
export type UnsettledEvent = z.infer<typeof UnsettledEventSchema>;

export const UnsettledEventPageSchema = z
  .object({ events: z.array(UnsettledEventSchema), total: z.int() })
  .meta({ id: 'UnsettledEventPage' });
export type UnsettledEventPage = z.infer<typeof UnsettledEventPageSchema>;

/** A settled event, newest first: what an admin may correct. */
export const SettledEventSchema = EventSchema.extend({
  legCount: z.int(),
  settledAt: z.string().meta({ description: 'ISO-8601 UTC' }),
  source: z.string().nullable().meta({ description: "'admin', 'correction', or the results feed's name" }),
}).meta({ id: 'SettledEvent' });
export type SettledEvent = z.infer<typeof SettledEventSchema>;

export const SettledEventPageSchema = z
  .object({ events: z.array(SettledEventSchema), total: z.int() })
  .meta({ id: 'SettledEventPage' });
export type SettledEventPage = z.infer<typeof SettledEventPageSchema>;

/** A prop or other leg waiting for an admin's grade, with its pick's video and capper. */
export const PropLegSchema = z
  .object({
    legId: z.int(),
    eventId: z.int(),
    league: z.enum(LEAGUES),
    home: z.string(),
    away: z.string(),
    startsAt: z.string().meta({ description: 'ISO-8601 UTC' }),
    eventStatus: EventSchema.shape.status,
    market: z.enum(MARKETS),
    side: z.string().meta({ description: "The bet's text" }),
    odds: z.int(),
    units: z.number(),
    videoId: z.int(),
    title: z.string(),
    capper: z.string(),
  })
  .meta({ id: 'PropLeg' });
export type PropLeg = z.infer<typeof PropLegSchema>;

export const PropLegPageSchema = z
  .object({ legs: z.array(PropLegSchema), total: z.int() })
  .meta({ id: 'PropLegPage' });
export type PropLegPage = z.infer<typeof PropLegPageSchema>;

/** What settling or correcting an event graded. */
export const SettledSchema = z
  .object({ event: EventSchema, legs: z.int(), picks: z.int() })
  .meta({ id: 'EventSettled' });
export type Settled = z.infer<typeof SettledSchema>;

const FeedTeamSchema = z
  .string({ error: TEAM_REQUIRED_MESSAGE })
  .trim()
  .min(1, TEAM_REQUIRED_MESSAGE)
  .max(TEAM_MAX_LENGTH, `A team name is at most ${TEAM_MAX_LENGTH} characters`);
const FeedGameSchema = {
  league: z.enum(LEAGUES, { error: LEAGUE_MESSAGE }),
  home: FeedTeamSchema,
  away: FeedTeamSchema,
  startsAt: StartsAtSchema,
};

/** One game's result in a results feed: the game by the event's identity (league, teams, start time). */
export const FeedResultSchema = z.discriminatedUnion(
  'status',
  [FinalResultSchema.extend(FeedGameSchema), VoidResultSchema.extend(FeedGameSchema)],
  { error: RESULT_STATUS_MESSAGE },
);
export type FeedResult = z.infer<typeof FeedResultSchema>;

/** A results feed document (docs/results-feed.md): the format a file, an address or an admin's upload gives. */
export const FeedDocumentSchema = z
  .object(
    {
      results: z
        .array(FeedResultSchema, { error: FEED_SHAPE_MESSAGE })
        .max(MAX_FEED_RESULTS, FEED_TOO_LONG_MESSAGE),
    },
    { error: FEED_SHAPE_MESSAGE },
  )
  .meta({ id: 'ResultsFeed' });
export type FeedDocument = z.infer<typeof FeedDocumentSchema>;

/** What an import did: settled events, ones already settled alike, games PickReel does not know, conflicts. */
export const ImportSummarySchema = z
  .object({
    settled: z.int(),
    alreadySettled: z.int(),
    unknown: z.int(),
    conflicts: z.int(),
  })
  .meta({ id: 'ResultsImport' });
export type ImportSummary = z.infer<typeof ImportSummarySchema>;

/** POST /api/admin/market/refresh: what to fetch of one league now, whatever the schedule of fetches says. */
export const MarketRefreshSchema = z.object({
  league: z.enum(LEAGUES, { error: 'Please choose a league from the list' }),
  schedule: z.boolean().default(false),
  odds: z.boolean().default(true),
  scores: z.boolean().default(false),
});
export type MarketRefresh = z.infer<typeof MarketRefreshSchema>;

export const MarketRefreshedSchema = z
  .object({
    games: z.int().meta({ description: 'Games the provider listed with prices' }),
    prices: z.int().meta({ description: 'Games whose prices changed and were written' }),
    closed: z.int().meta({ description: 'Started games whose closing prices were kept' }),
    settled: z.int(),
    ms: z.number().meta({ description: 'How long the refresh took, milliseconds' }),
  })
  .meta({ id: 'MarketRefreshed' });
export type MarketRefreshed = z.infer<typeof MarketRefreshedSchema>;
