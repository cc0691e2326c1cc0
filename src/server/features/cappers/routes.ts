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
import type { Db } from '#server/db/client.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { capperProfile, leaderboard, recordsOf } from './cappers-service.js';

/** Public: a capper's record, the leaderboard and the record badges on cards (issue 14). */
export async function capperRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Cappers');

  api.get(
    '/api/cappers/:username',
    {
      schema: {
        summary: "A capper's public record",
        description:
          'W-L-P, win %, units and ROI for 30 days, 90 days, all time and per league; the cumulative units; the graded picks with their revealed legs (paged); open picks (sealed); unverified and moderated counts. Picks removed by moderation never count.',
        params: CapperParamsSchema,
        querystring: CapperProfileQuerySchema,
        response: { 200: CapperProfileSchema, ...errorResponses(404) },
      },
    },
    async (request) => capperProfile(db, request.params.username, request.query),
  );

  api.get(
    '/api/leaderboard',
    {
      schema: {
        summary: 'Cappers ranked by units won or ROI',
        description: `Only cappers with at least ${LEADERBOARD_MIN_PICKS} graded picks in the period (and league).`,
        querystring: LeaderboardQuerySchema,
        response: { 200: LeaderboardSchema },
      },
    },
    async (request) => leaderboard(db, request.query),
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
