// What the picks API answers (issue 14): a pick's public face before it is graded, its reveal after, and
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

/** Where a pick's event sits in the public pick log (issue 15, pick-log.md 'Endpoints'). */
export const PickLogRefSchema = z.object({
  index: z.int().meta({ description: 'The entry number in the log, from 0' }),
  type: z.enum(LOG_ENTRY_TYPES),
  at: IsoTime,
});
export type PickLogRef = z.infer<typeof PickLogRefSchema>;

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
    log: z
      .array(PickLogRefSchema)
      .meta({ description: "The pick's entries in the public pick log (issue 15), oldest first" }),
  })
  .meta({ id: 'Pick' });
export type PickView = z.infer<typeof PickViewSchema>;

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
});

export const SealedPickSchema = z
  .object({
    v: z.literal(1),
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
  .object({ version: z.int(), parlay: z.boolean(), legs: z.array(SealedLegSchema) })
  .meta({ id: 'PickLegs' });
export type PickLegsView = z.infer<typeof PickLegsViewSchema>;

export const PickRevealSchema = z
  .object({ sealed: SealedPickSchema, commitment: z.string() })
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
  })
  .meta({ id: 'Event' });
export type EventView = z.infer<typeof EventSchema>;

export const EventListQuerySchema = z.object({
  league: z.enum(LEAGUES, { error: 'Please choose a league from the list' }),
});
