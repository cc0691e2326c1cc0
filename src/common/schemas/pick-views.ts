// What the picks API answers: a pick's public face before it is graded, its reveal after, and
// the events a capper can post on. The server writes its answers through these; the client reads them.
import { z } from 'zod';
import { LOG_ENTRY_TYPES } from '../pick-log/entry.js';
import { LEAGUES, MARKETS } from './picks.js';

export const PICK_RESULTS = ['win', 'loss', 'push', 'void'] as const;
export type PickResult = (typeof PICK_RESULTS)[number];
export const PICK_STATUSES = ['open', 'started', 'graded'] as const;

const IsoTime = z.string().meta({ description: 'ISO-8601 UTC' });

export const PickVersionSchema = z.object({
  version: z.int(),
  commitment: z.string(),
  postedAt: IsoTime,
});

/** Where a pick's event sits in the public pick log (pick-log.md 'Endpoints'). */
export const PickLogRefSchema = z.object({
  index: z.int().meta({ description: 'The entry number in the log, from 0' }),
  type: z.enum(LOG_ENTRY_TYPES),
  at: IsoTime,
  title: z.string().meta({
    description: "What the entry says, in words: 'Sealed — version 1', 'Graded: Won +1.8u', 'Settled: Knicks 112 – Celtics 108'",
  }),
});
export type PickLogRef = z.infer<typeof PickLogRefSchema>;

/** A correction of a game's outcome (or of a prop's grade by hand), public on the pick's page. */
export const CorrectionSchema = z
  .object({
    game: z.string().meta({ description: "'Away at Home', the corrected game" }),
    before: z
      .string()
      .meta({ description: "The outcome it replaced: 'final 102-99', 'postponed', or a leg's grade" }),
    after: z.string(),
    reason: z.string(),
    by: z.string().meta({ description: "The admin's username" }),
    at: IsoTime,
  })
  .meta({ id: 'Correction' });
export type Correction = z.infer<typeof CorrectionSchema>;

export const PickViewSchema = z
  .object({
    videoId: z.int(),
    commitment: z.string().meta({ description: 'Lowercase hex SHA-256 of the sealed pick (RFC 8785 bytes)' }),
    postedAt: IsoTime,
    status: z.enum(PICK_STATUSES),
    legCount: z.int(),
    parlay: z.boolean(),
    removed: z.enum(['capper', 'moderation']).nullable(),
    versions: z.array(PickVersionSchema),
    result: z.enum(PICK_RESULTS).optional(),
    unitsWon: z.number().optional(),
    selfReported: z.boolean().meta({
      description:
        'A leg is not bound to a market game and price (no market, a prop, or posted before the market): never counted in the record',
    }),
    corrections: z
      .array(CorrectionSchema)
      .meta({ description: "Corrections of the pick's games, once the pick is graded" }),
    log: z
      .array(PickLogRefSchema)
      .meta({ description: "The pick's entries in the public pick log, oldest first" }),
  })
  .meta({ id: 'Pick' });
export type PickView = z.infer<typeof PickViewSchema>;

export const SealedPriceSchema = z.object({
  book: z.string().meta({ description: "The book with the best price for the leg's side and line" }),
  odds: z.int().meta({ description: 'That best price, American odds' }),
  line: z.number().nullable(),
  at: IsoTime.meta({ description: 'The price snapshot’s time' }),
});

export const SealedLegSchema = z.object({
  league: z.string(),
  home: z.string(),
  away: z.string(),
  startsAt: IsoTime,
  market: z.enum(MARKETS),
  side: z.string(),
  line: z.number().nullable(),
  odds: z.int(),
  units: z.number(),
  game: z.string().optional().meta({ description: "A market leg's game: '<provider>:<the provider's id>'" }),
  price: SealedPriceSchema.optional().meta({ description: "A market leg's price evidence" }),
});

/** What became of a leg: its grade, why it is void, whether it counts, and its closing price once started. */
export const LegStateSchema = z
  .object({
    result: z.enum(PICK_RESULTS).nullable(),
    voidReason: z.string().nullable(),
    selfReported: z.boolean(),
    eventStatus: z.enum(['scheduled', 'final', 'postponed', 'cancelled']),
    homeScore: z.int().nullable(),
    awayScore: z.int().nullable(),
    closingOdds: z.int().nullable().meta({ description: 'The best closing price for its side and line' }),
    clv: z.number().nullable().meta({ description: 'Closing line value, percent' }),
  })
  .meta({ id: 'LegState' });
export type LegState = z.infer<typeof LegStateSchema>;

export const SealedPickSchema = z
  .object({
    v: z.union([z.literal(1), z.literal(2)]),
    capper: z.string(),
    videoId: z.int(),
    postedAt: IsoTime,
    selections: z.string(),
    legs: z.array(SealedLegSchema),
    parlay: z.boolean(),
    salt: z.string().meta({ description: '64 hex characters, random' }),
  })
  .meta({ id: 'SealedPick' });

/** The current version's legs, for those who may see the selections: the owner, its buyers and admins. */
export const PickLegsViewSchema = z
  .object({
    version: z.int(),
    parlay: z.boolean(),
    legs: z.array(SealedLegSchema),
    states: z.array(LegStateSchema).meta({ description: 'Each leg’s state, in the order of `legs`' }),
    corrections: z.array(CorrectionSchema),
  })
  .meta({ id: 'PickLegs' });
export type PickLegsView = z.infer<typeof PickLegsViewSchema>;

export const PickRevealSchema = z
  .object({
    sealed: SealedPickSchema,
    commitment: z.string(),
    states: z
      .array(LegStateSchema)
      .meta({ description: "Each sealed leg's grade, score and closing line value, in the order of its legs" }),
  })
  .meta({ id: 'PickReveal' });

export const EventSchema = z
  .object({
    id: z.int(),
    league: z.enum(LEAGUES),
    home: z.string(),
    away: z.string(),
    startsAt: IsoTime,
    status: z.enum(['scheduled', 'final', 'postponed', 'cancelled']),
    homeScore: z.int().nullable(),
    awayScore: z.int().nullable(),
    market: z
      .boolean()
      .meta({ description: "A game of the market's schedule (its start is the official one)" }),
  })
  .meta({ id: 'Event' });
export type EventView = z.infer<typeof EventSchema>;

/** One side at one line: the best price among books, and which book. */
export const OfferSchema = z.object({
  side: z.string().meta({ description: "The team as the game writes it, or 'over' / 'under'" }),
  line: z.number().nullable(),
  odds: z.int(),
  book: z.string(),
});

/** A market game's prices for the pick form: the best price of every side and line, and the snapshot's age. */
export const EventPricesSchema = z
  .object({
    eventId: z.int(),
    takenAt: IsoTime.nullable().meta({
      description: 'The snapshot’s time; null when the game was never priced',
    }),
    moneyline: z.array(OfferSchema),
    spread: z.array(OfferSchema),
    total: z.array(OfferSchema),
  })
  .meta({ id: 'EventPrices' });
export type EventPrices = z.infer<typeof EventPricesSchema>;

export const EventListQuerySchema = z.object({
  league: z.enum(LEAGUES, { error: 'Please choose a league from the list' }),
});
