// Web Push (docs/decisions/038): the VAPID public key a browser subscribes with, storing and forgetting a
// browser's subscription, and what an admin sees of delivery.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminPushSchema,
  PUSH_SUBSCRIPTIONS_PER_USER,
  PushEndpointSchema,
  PushKeySchema,
  PushSubscribedSchema,
  PushSubscriptionSchema,
} from '#common/schemas/push.js';
import type { Db } from '#server/db/client.js';
import { rateLimited } from '#server/lib/rate-limited.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireAdmin } from '../auth/index.js';
import type { PushSettings } from './push-delivery.js';
import { pushSummary } from './push-repository.js';
import { subscribe, unsubscribe } from './push-service.js';

/** Subscribes and unsubscribes one user may send a minute: a button pressed, not a script. */
export const PUSH_CHANGES_PER_MINUTE = 30;

export async function pushRoutes(app: FastifyInstance, options: { db: Db; settings: PushSettings }) {
  const { db, settings } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Push');

  const changesPerUser = app.createRateLimit({
    max: PUSH_CHANGES_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `push:${request.user?.id ?? request.ip}`,
  });
  const changesLimit = rateLimited(changesPerUser, 'push subscription changes');
  const limitChanges = async (request: FastifyRequest) => {
    currentUser(request); // 401 first: a signed-out caller is not counted
    await changesLimit(request);
  };

  api.get(
    '/api/push/key',
    {
      schema: {
        summary: "The server's VAPID public key",
        description:
          'Public. A browser subscribes with it as `applicationServerKey` (PushManager.subscribe).',
        response: { 200: PushKeySchema },
      },
    },
    async () => ({ publicKey: settings.vapid.publicKey }),
  );

  api.post(
    '/api/push/subscriptions',
    {
      preHandler: limitChanges,
      schema: {
        summary: 'Turn on push alerts in this browser',
        description: `The browser's PushSubscription (its toJSON()). Sending the same endpoint again only renews its keys. The endpoint must be https on one of the push services' hosts (PUSH_SERVICE_HOSTS; 400 otherwise); at most ${PUSH_SUBSCRIPTIONS_PER_USER} browsers per account (409).`,
        body: PushSubscriptionSchema,
        response: { 200: PushSubscribedSchema, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request, reply) => {
      const result = await subscribe(db, currentUser(request).id, request.body, settings.serviceHosts);
      if (!result.ok) return reply.code(result.status).send({ message: result.message });
      return { subscribed: true };
    },
  );

  api.delete(
    '/api/push/subscriptions',
    {
      preHandler: limitChanges,
      schema: {
        summary: 'Turn off push alerts in a browser',
        description:
          'By its endpoint; only your own subscription is removed. Removing one that is gone changes nothing.',
        body: PushEndpointSchema,
        response: { 200: PushSubscribedSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      await unsubscribe(db, currentUser(request).id, request.body.endpoint);
      return { subscribed: false };
    },
  );

  api.get(
    '/api/admin/push',
    {
      preHandler: requireAdmin,
      schema: {
        summary: 'Push delivery, for admins',
        description:
          'How many browsers have push alerts on, deliveries by state, and the subscriptions a push service refused (a 4xx other than 404/410), most failures first.',
        response: { 200: AdminPushSchema, ...errorResponses(401, 403) },
      },
    },
    async () => {
      const summary = await pushSummary(db);
      const deliveries = { queued: 0, sent: 0, failed: 0, gone: 0 };
      for (const row of summary.byStatus) {
        if (row.status in deliveries) deliveries[row.status as keyof typeof deliveries] = Number(row.n);
      }
      return {
        subscriptions: summary.subscriptions,
        deliveries,
        failing: summary.failing.map((row) => ({
          id: row.id,
          username: row.username,
          host: new URL(row.endpoint).host,
          failures: row.failures,
          lastError: row.last_error,
        })),
      };
    },
  );
}
