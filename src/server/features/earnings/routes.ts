import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AnalyticsQuerySchema } from '../../../common/schemas/analytics.js';
import { PayoutRequestSchema } from '../../../common/schemas/earnings.js';
import { idParams, queryInt } from '../../../common/schemas/ids.js';
import type { Db } from '../../db/client.js';
import { currentUser, requireAdmin, requireUser } from '../auth/session.js';
import { listAllPayouts, listPayoutsOfUser } from './earnings-repository.js';
import { getAnalytics } from './analytics-service.js';
import { decidePayout, getEarnings, requestPayout, toPayoutRequest } from './earnings-service.js';

const PageQuery = z.object({
  limit: queryInt({ name: 'Limit', min: 1, max: 500, default: 500 }),
  offset: queryInt({ name: 'Offset', min: 0, max: 1_000_000, default: 0 }),
});
const PayoutIdParams = idParams('Payout id must be a whole number');
const PayoutDecisionSchema = z.object({
  status: z.enum(['paid', 'rejected'], { error: "Status must be 'paid' or 'rejected'" }),
});

export async function earningsRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/user/earnings', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    return getEarnings(db, user.id, user.manualEarningsCents);
  });

  api.get(
    '/api/user/analytics',
    { preHandler: requireUser, schema: { querystring: AnalyticsQuerySchema } },
    async (request) => getAnalytics(db, currentUser(request).id, request.query.range),
  );

  api.get('/api/user/payouts', { preHandler: requireUser }, async (request) => {
    const rows = await listPayoutsOfUser(db, currentUser(request).id);
    return rows.map(toPayoutRequest);
  });

  api.post(
    '/api/payout-request',
    { preHandler: requireUser, schema: { body: PayoutRequestSchema } },
    async (request, reply) => {
      const payout = await requestPayout(db, currentUser(request).id, request.body);
      return reply.code(201).send(payout);
    },
  );

  api.get(
    '/api/admin/payouts',
    { preHandler: requireAdmin, schema: { querystring: PageQuery } },
    async (request) => {
      const rows = await listAllPayouts(db, request.query);
      return rows.map(({ payout, username }) => ({ ...toPayoutRequest(payout), username }));
    },
  );

  api.patch(
    '/api/admin/payouts/:id',
    { preHandler: requireAdmin, schema: { params: PayoutIdParams, body: PayoutDecisionSchema } },
    async (request) => decidePayout(db, currentUser(request).id, request.params.id, request.body.status),
  );
}
