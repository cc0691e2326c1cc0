import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AnalyticsQuerySchema, AnalyticsSchema } from '../../../common/schemas/analytics.js';
import {
  AdminPayoutSchema,
  EarningsSchema,
  PayoutDecisionSchema,
  PayoutRequestSchema,
  PayoutSchema,
} from '../../../common/schemas/earnings.js';
import { AdminPageQuerySchema, PayoutIdParamsSchema } from '../../../common/schemas/ids.js';
import type { Db } from '../../db/client.js';
import { errorResponses, tagRoutes } from '../../plugins/api-contract.js';
import { currentUser, requireAdmin, requireUser } from '../auth/session.js';
import { listAllPayouts, listPayoutsOfUser } from './earnings-repository.js';
import { getAnalytics } from './analytics-service.js';
import { decidePayout, getEarnings, requestPayout, toPayoutRequest } from './earnings-service.js';

export async function earningsRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Earnings');

  api.get(
    '/api/user/earnings',
    {
      preHandler: requireUser,
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
      preHandler: requireUser,
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
      preHandler: requireUser,
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
      preHandler: requireUser,
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

  api.get(
    '/api/admin/payouts',
    {
      preHandler: requireAdmin,
      schema: {
        summary: 'Every payout request, with its capper',
        querystring: AdminPageQuerySchema,
        response: { 200: AdminPayoutSchema.array(), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const rows = await listAllPayouts(db, request.query);
      return rows.map(({ payout, username }) => ({ ...toPayoutRequest(payout), username }));
    },
  );

  api.patch(
    '/api/admin/payouts/:id',
    {
      preHandler: requireAdmin,
      schema: {
        summary: 'Mark a payout request paid, or reject it',
        description:
          "Only a pending request (409 otherwise); not paid while the capper's balance is below zero (409).",
        params: PayoutIdParamsSchema,
        body: PayoutDecisionSchema,
        response: { 200: PayoutSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => decidePayout(db, currentUser(request).id, request.params.id, request.body.status),
  );
}
