// A capper's public record ("The record"): the profile, the leaderboard and the record badges.
// The server writes its answers through these; the client reads them and builds its queries with them.
import { z } from 'zod';
import { LEADERBOARD_PERIODS, LEADERBOARD_SORTS, MAX_RECORD_USERNAMES } from '../capper-records.js';
import { OFFSET_MAX, queryInt } from './ids.js';
import { LegStateSchema, PICK_RESULTS, SealedLegSchema } from './pick-views.js';
import { LEAGUES } from './picks.js';

const IsoTime = z.string().meta({ description: 'ISO-8601 UTC' });

/** summariseRecord's shape (src/common/pick-grading.ts): bets, not picks (a parlay is one bet). */
export const RecordSummarySchema = z
  .object({
    wins: z.int(),
    losses: z.int(),
    pushes: z.int(),
    voids: z.int(),
    graded: z.int().meta({ description: 'Graded bets: each leg of a straight pick, a parlay as one' }),
    picks: z.int().meta({ description: 'Graded picks the bets came in' }),
    winPct: z.number().nullable().meta({ description: 'wins ÷ (wins + losses) × 100, one decimal' }),
    unitsWon: z.number(),
    unitsRisked: z.number(),
    roi: z.number().nullable().meta({ description: 'unitsWon ÷ unitsRisked × 100, one decimal' }),
    clv: z
      .object({
        bets: z.int().meta({ description: 'Bets with a closing price' }),
        average: z
          .number()
          .meta({ description: 'Average closing line value per bet, percent, two decimals' }),
        beatPct: z
          .number()
          .meta({ description: 'Share of those bets that beat the close, percent, one decimal' }),
      })
      .nullable(),
  })
  .meta({ id: 'RecordSummary' });

export const CapperIdentitySchema = z.object({
  username: z.string(),
  displayName: z.string().nullable(),
  bio: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});

export const GradedPickSchema = z.object({
  videoId: z.int(),
  title: z.string(),
  result: z.enum(PICK_RESULTS),
  unitsWon: z.number(),
  commitment: z.string(),
  postedAt: IsoTime,
  gradedAt: IsoTime,
  parlay: z.boolean(),
  legs: z.array(SealedLegSchema).meta({ description: 'Revealed from the sealed pick: graded picks only' }),
  states: z.array(LegStateSchema).meta({ description: 'Each leg’s grade and closing line value' }),
  bets: z.int().meta({ description: 'Bets in the pick: its legs when straight, one when a parlay' }),
  clv: z.number().nullable().meta({ description: "The pick's bets' average closing line value, percent" }),
});
export type GradedPick = z.infer<typeof GradedPickSchema>;

export const OpenPickSchema = z.object({
  videoId: z.int(),
  title: z.string(),
  commitment: z.string(),
  postedAt: IsoTime,
  legCount: z.int(),
  status: z.enum(['open', 'started']),
  selfReported: z.boolean().meta({ description: 'A leg is self-reported: the pick will not count' }),
  price: z.number().meta({ description: 'Dollars, as charged' }),
  league: z.string(),
  startsAt: IsoTime.meta({ description: "The first leg's start: sales close then" }),
  onSale: z.boolean().meta({ description: 'Its video is ready to sell (an upload being processed is not yet)' }),
});
export type OpenPick = z.infer<typeof OpenPickSchema>;

export const ChartPointSchema = z.object({
  at: IsoTime,
  units: z.number().meta({ description: 'Cumulative units won after this pick' }),
});
export type ChartPoint = z.infer<typeof ChartPointSchema>;

export const CapperProfileSchema = z
  .object({
    capper: CapperIdentitySchema,
    records: z.object({ last30: RecordSummarySchema, last90: RecordSummarySchema, all: RecordSummarySchema }),
    byLeague: z.array(z.object({ league: z.string(), record: RecordSummarySchema })),
    chart: z.array(ChartPointSchema).meta({ description: 'Every graded pick, in grading order' }),
    graded: z.array(GradedPickSchema).meta({ description: 'Newest first, one page (?limit, ?offset)' }),
    gradedTotal: z.int(),
    open: z.array(OpenPickSchema),
    selfReported: z
      .array(GradedPickSchema)
      .meta({ description: 'Graded self-reported picks, newest first (never counted): the latest 50' }),
    selfReportedTotal: z.int(),
    unverified: z.int().meta({ description: "The capper's videos posted without a pick" }),
    removedByModeration: z.int(),
    asOf: IsoTime.meta({ description: 'When these figures were read: the 30- and 90-day periods end here' }),
  })
  .meta({ id: 'CapperProfile' });
export type CapperProfile = z.infer<typeof CapperProfileSchema>;

export {
  LEADERBOARD_MIN_PICKS,
  LEADERBOARD_PERIODS,
  LEADERBOARD_SORTS,
  MAX_RECORD_USERNAMES,
  type LeaderboardPeriod,
  type LeaderboardSort,
} from '../capper-records.js';

export const CAPPER_NOT_FOUND_MESSAGE = 'Capper not found';

export const CapperParamsSchema = z.object({
  username: z.string().min(1, CAPPER_NOT_FOUND_MESSAGE).max(100, CAPPER_NOT_FOUND_MESSAGE),
});

export const PROFILE_PAGE = { max: 100, default: 20 } as const;
export const CapperProfileQuerySchema = z.object({
  limit: queryInt({ name: 'Limit', min: 1, max: PROFILE_PAGE.max, default: PROFILE_PAGE.default }),
  offset: queryInt({ name: 'Offset', min: 0, max: OFFSET_MAX, default: 0 }),
});

export const LEADERBOARD_PAGE = { max: 100, default: 50 } as const;

export const LeaderboardQuerySchema = z.object({
  period: z.enum(LEADERBOARD_PERIODS, { error: 'Please choose a period: 30, 90 or all' }).default('all'),
  league: z.enum(LEAGUES, { error: 'Please choose a league from the list' }).optional(),
  sort: z.enum(LEADERBOARD_SORTS, { error: 'Please sort by units, roi or clv' }).default('units'),
  limit: queryInt({ name: 'Limit', min: 1, max: LEADERBOARD_PAGE.max, default: LEADERBOARD_PAGE.default }),
  offset: queryInt({ name: 'Offset', min: 0, max: OFFSET_MAX, default: 0 }),
});
export type LeaderboardQuery = z.input<typeof LeaderboardQuerySchema>;

export const LeaderboardEntrySchema = z.object({
  rank: z.int(),
  username: z.string(),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  record: RecordSummarySchema,
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;

export const LeaderboardSchema = z
  .object({
    entries: z.array(LeaderboardEntrySchema),
    total: z.int().meta({ description: 'Cappers ranked in this period and league' }),
    minPicks: z.int(),
    asOf: IsoTime.meta({ description: 'When these figures were read: the 30- and 90-day periods end here' }),
  })
  .meta({ id: 'Leaderboard' });
export type Leaderboard = z.infer<typeof LeaderboardSchema>;

const TOO_MANY_NAMES = `Ask for at most ${MAX_RECORD_USERNAMES} usernames at once`;

export const RecordsQuerySchema = z.object({
  usernames: z
    .string({ error: 'Please give usernames, separated by commas' })
    .max(MAX_RECORD_USERNAMES * 101, TOO_MANY_NAMES)
    .transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    ])
    .refine((names) => names.length >= 1, 'Please give usernames, separated by commas')
    .refine((names) => names.length <= MAX_RECORD_USERNAMES, TOO_MANY_NAMES),
});

/** A card's record badge: the all-time record and the capper's latest counted picks' results. */
export const BadgeRecordSchema = RecordSummarySchema.extend({
  lastResults: z
    .array(z.enum(PICK_RESULTS))
    .max(10)
    .meta({ description: "The latest counted picks' results, up to 10, oldest first (newest last)" }),
}).meta({ id: 'BadgeRecord' });
export type BadgeRecord = z.infer<typeof BadgeRecordSchema>;

export const RecordsSchema = z
  .record(z.string(), BadgeRecordSchema)
  .meta({ id: 'Records', description: "Each known capper's all-time record, by username" });
export type Records = z.infer<typeof RecordsSchema>;
