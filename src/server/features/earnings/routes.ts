import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AnalyticsQuerySchema, AnalyticsSchema } from '#common/schemas/analytics.js';
import { EarningsSchema, PayoutRequestSchema, PayoutSchema } from '#common/schemas/earnings.js';
import type { Db } from '#server/db/client.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '../auth/index.js';
import { listPayoutsOfUser } from './earnings-repository.js';
import { getAnalytics } from './analytics-service.js';
import { getEarnings, requestPayout, toPayoutRequest } from './earnings-service.js';

export async function earningsRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // A capper's own money: every route here is for the signed-in user (401 otherwise), checked once here.
  app.addHook('preHandler', requireUser);
  tagRoutes(app, 'Earnings');

  api.get(
    '/api/user/earnings',
    {
      schema: {
        summary: "The signed-in capper's earnings",
        description: 'Sales and bonus, their total, and what is still available for payouts.',
        response: { 200: EarningsSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return getEarnings(db, user.id, user.manualEarningsCents);
    },
  );

  api.get(
    '/api/user/analytics',
    {
      schema: {
        summary: "The signed-in capper's sales, revenue and views over time",
        querystring: AnalyticsQuerySchema,
        response: { 200: AnalyticsSchema, ...errorResponses(401) },
      },
    },
    async (request) => getAnalytics(db, currentUser(request).id, request.query.range),
  );

  api.get(
    '/api/user/payouts',
    {
      schema: {
        summary: "The signed-in capper's payout requests",
        response: { 200: PayoutSchema.array(), ...errorResponses(401) },
      },
    },
    async (request) => {
      const rows = await listPayoutsOfUser(db, currentUser(request).id);
      return rows.map(toPayoutRequest);
    },
  );

  api.post(
    '/api/payout-request',
    {
      schema: {
        summary: 'Request a payout',
        description: 'At least $1.00 and at most the available earnings; PickReel keeps a 10 % fee.',
        body: PayoutRequestSchema,
        response: { 201: PayoutSchema, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const payout = await requestPayout(db, currentUser(request).id, request.body);
      return reply.code(201).send(payout);
    },
  );
}
