import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isoSeconds } from '#common/pick-seal.js';
import { VideoIdParamsSchema } from '#common/schemas/ids.js';
import {
  EventListQuerySchema,
  EventSchema,
  PickLegsViewSchema,
  PickRevealSchema,
  PickViewSchema,
  type EventView,
} from '#common/schemas/pick-views.js';
import type { Db } from '#server/db/client.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { listUpcomingEvents, type EventRow } from './picks-repository.js';
import { currentUser, requireUser } from '../auth/index.js';
import { pickLegsFor, pickView, revealPick } from './picks-service.js';

const UPCOMING_EVENTS_LIMIT = 200;

export function toEventView(row: EventRow): EventView {
  return {
    id: row.id,
    league: row.league as EventView['league'],
    home: row.home,
    away: row.away,
    startsAt: isoSeconds(row.startsAt),
    status: row.status as EventView['status'],
    homeScore: row.homeScore,
    awayScore: row.awayScore,
  };
}

/** Public: a pick's commitment and status before buying, its reveal once graded, and upcoming events. */
export async function pickRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Picks');

  api.get(
    '/api/picks/:id',
    {
      schema: {
        summary: "A video's sealed pick",
        description:
          'Public: the commitment and post time of every version, the status, and the result once graded. Never the legs or selections before then.',
        params: VideoIdParamsSchema,
        response: { 200: PickViewSchema, ...errorResponses(404) },
      },
    },
    async (request) => pickView(db, request.params.id),
  );

  api.get(
    '/api/picks/:id/reveal',
    {
      schema: {
        summary: 'The whole sealed pick, once every leg is graded',
        description:
          'The sealed pick with its salt: anyone can recompute the commitment (SHA-256 of its RFC 8785 bytes). 403 before every leg is graded.',
        params: VideoIdParamsSchema,
        response: { 200: PickRevealSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => revealPick(db, request.params.id),
  );

  // The legs before the reveal: signed in, and only for the owner, its buyers and admins.
  await app.register(async (signedIn) => {
    signedIn.addHook('preHandler', requireUser);
    signedIn.withTypeProvider<ZodTypeProvider>().get(
      '/api/picks/:id/legs',
      {
        schema: {
          summary: "A pick's current legs, for its owner, buyers and admins",
          description: 'The same secret as the winning selections: 403 for anyone else.',
          params: VideoIdParamsSchema,
          response: { 200: PickLegsViewSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => pickLegsFor(db, request.params.id, currentUser(request)),
    );
  });

  api.get(
    '/api/events',
    {
      schema: {
        summary: "A league's upcoming events",
        description:
          'Soonest first: what the pick form offers, so that one game is one event whoever posts on it.',
        querystring: EventListQuerySchema,
        response: { 200: EventSchema.array() },
      },
    },
    async (request) => {
      const rows = await listUpcomingEvents(db, request.query.league, new Date(), UPCOMING_EVENTS_LIMIT);
      return rows.map(toEventView);
    },
  );
}
