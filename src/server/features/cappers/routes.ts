import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CapperParamsSchema,
  CapperProfileQuerySchema,
  CapperProfileSchema,
  LEADERBOARD_MIN_PICKS,
  LeaderboardQuerySchema,
  LeaderboardSchema,
  RecordsQuerySchema,
  RecordsSchema,
} from '#common/schemas/cappers.js';
import { NoBodySchema } from '#common/schemas/api.js';
import type { Db } from '#server/db/client.js';
import { readyBytes, sendReadyBytes, type ReadyBytes } from '#server/lib/ready-bytes.js';
import { errorResponses, responseSerializer, tagRoutes } from '#server/plugins/api-contract.js';
import { capperProfile, leaderboard, recordsOf } from './record/record-service.js';
import { capperSearchRoutes } from './search-routes.js';

// The profile and leaderboard are the same for everyone until grading runs: each cached answer is written
// once through its schema and sent as ready-made bytes with an ETag (as the catalog's pages are, decision 012).
const profileJson = responseSerializer(CapperProfileSchema);
const leaderboardJson = responseSerializer(LeaderboardSchema);
const written = new WeakMap<object, ReadyBytes>();

function bytesOf<T extends object>(answer: T, serialize: (value: T) => string): ReadyBytes {
  let bytes = written.get(answer);
  if (!bytes) written.set(answer, (bytes = readyBytes(serialize(answer))));
  return bytes;
}

/** Public: a capper's record, the leaderboard and the record badges on cards. */
export async function capperRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Cappers');
  await capperSearchRoutes(app, options);

  api.get(
    '/api/cappers/:username',
    {
      schema: {
        summary: "A capper's public record",
        description:
          'W-L-P, win %, units and ROI for 30 days, 90 days, all time and per league; the cumulative units; the graded picks with their revealed legs (paged); open picks (sealed); unverified and moderated counts. Picks removed by moderation never count.',
        params: CapperParamsSchema,
        querystring: CapperProfileQuerySchema,
        response: { 200: CapperProfileSchema, 304: NoBodySchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const answer = await capperProfile(db, request.params.username, request.query);
      await sendReadyBytes(request, reply, bytesOf(answer, profileJson));
      return reply;
    },
  );

  api.get(
    '/api/leaderboard',
    {
      schema: {
        summary: 'Cappers ranked by units won or ROI',
        description: `Only cappers with at least ${LEADERBOARD_MIN_PICKS} graded picks in the period (and league).`,
        querystring: LeaderboardQuerySchema,
        response: { 200: LeaderboardSchema, 304: NoBodySchema },
      },
    },
    async (request, reply) => {
      const answer = await leaderboard(db, request.query);
      await sendReadyBytes(request, reply, bytesOf(answer, leaderboardJson));
      return reply;
    },
  );

  api.get(
    '/api/records',
    {
      schema: {
        summary: "Cappers' all-time records, for the badges on cards",
        description: 'Comma-separated usernames (up to 60); unknown names are left out of the answer.',
        querystring: RecordsQuerySchema,
        response: { 200: RecordsSchema },
      },
    },
    async (request) => recordsOf(db, request.query.usernames),
  );
}
