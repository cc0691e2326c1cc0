import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isoSeconds } from '#common/pick-seal.js';
import { IdParamsSchema, VideoIdParamsSchema } from '#common/schemas/ids.js';
import {
  EventListQuerySchema,
  EventPricesSchema,
  EventSchema,
  PickLegsViewSchema,
  PickRevealSchema,
  PickViewSchema,
  type EventPrices,
  type EventView,
} from '#common/schemas/pick-views.js';
import type { Db } from '#server/db/client.js';
import { notFound } from '#server/lib/http-errors.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import {
  findMarketEvent,
  listSchedule,
  offeredLines,
  pricesOf,
  type PriceSnapshot,
} from '../market/index.js';
import { listOwnUpcomingEvents } from './picks-repository.js';
import { currentUser, requireUser } from '../auth/index.js';
import { marketOf } from './market-sync.js';
import { pickLegsFor, pickView, revealPick } from './picks-service.js';

const UPCOMING_EVENTS_LIMIT = 500;

export function toEventView(row: {
  id: number;
  league: string;
  home: string;
  away: string;
  startsAt: Date;
  status: string;
  homeScore?: number | null;
  awayScore?: number | null;
  gameId?: string | null;
}): EventView {
  return {
    id: row.id,
    league: row.league as EventView['league'],
    home: row.home,
    away: row.away,
    startsAt: isoSeconds(row.startsAt),
    status: row.status as EventView['status'],
    homeScore: row.homeScore ?? null,
    awayScore: row.awayScore ?? null,
    market: row.gameId != null,
  };
}

function offers(prices: PriceSnapshot | null, event: { home: string; away: string }) {
  const list = (
    market: 'moneyline' | 'spread' | 'total',
    sides: [code: 'h' | 'a' | 'o' | 'u', name: string][],
  ) =>
    prices
      ? sides.flatMap(([code, side]) =>
          offeredLines(prices, market, code).map((offer) => ({
            side,
            line: offer.point,
            odds: offer.price,
            book: offer.title,
          })),
        )
      : [];
  const teams: [code: 'h' | 'a', name: string][] = [
    ['a', event.away],
    ['h', event.home],
  ];
  return {
    moneyline: list('moneyline', teams),
    spread: list('spread', teams),
    total: list('total', [
      ['o', 'over'],
      ['u', 'under'],
    ]),
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
        summary: "A league's upcoming games",
        description:
          "Soonest first: in a league the market follows, the market's schedule, whether or not anyone picked a game; elsewhere, the signed-in capper's own self-reported games (no one else's: a game never tells an open pick).",
        querystring: EventListQuerySchema,
        response: { 200: EventSchema.array() },
      },
    },
    async (request, reply) => {
      const { league } = request.query;
      const now = new Date();
      if (marketOf(db)?.follows(league)) {
        const rows = await listSchedule(db, league, now, UPCOMING_EVENTS_LIMIT);
        return rows.map(toEventView);
      }
      void reply.header('cache-control', 'private, no-store');
      if (!request.user) return [];
      const rows = await listOwnUpcomingEvents(db, request.user.id, league, now, UPCOMING_EVENTS_LIMIT);
      return rows.map(toEventView);
    },
  );

  api.get(
    '/api/events/:id/prices',
    {
      schema: {
        summary: "A market game's prices",
        description:
          'The best price among books for every side and line, and the snapshot’s time. For a signed-in user, fetched from the market first when older than a few minutes (503 when the market cannot answer); a visitor gets the stored snapshot.',
        params: IdParamsSchema,
        response: { 200: EventPricesSchema, ...errorResponses(404, 503) },
      },
    },
    async (request): Promise<EventPrices> => {
      const event = await findMarketEvent(db, request.params.id);
      const market = marketOf(db);
      if (!event || !market) throw notFound('No such game on the market.');
      // Fresh prices cost the provider's credits: fetched for a signed-in capper choosing a game, while a
      // visitor sees the stored snapshot (with its time), so no one can spend the quota anonymously.
      if (request.user && event.status === 'scheduled' && event.startsAt > new Date())
        await market.ensureFresh(event.league as EventView['league']);
      const snapshot = await pricesOf(db, event.id);
      return {
        eventId: event.id,
        takenAt: snapshot ? isoSeconds(snapshot.takenAt) : null,
        ...offers(snapshot?.prices ?? null, event),
      };
    },
  );
}
