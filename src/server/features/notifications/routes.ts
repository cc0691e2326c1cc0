// A signed-in user's in-app alerts (docs/decisions/035): the list, marking read, and the live unread count
// as server-sent events.
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MarkReadSchema,
  NotificationPageSchema,
  NotificationsQuerySchema,
  UnreadSchema,
} from '#common/schemas/notifications.js';
import type { Db } from '#server/db/client.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '../auth/index.js';
import { notificationPage, readNotifications } from './notifications-service.js';
import type { UnreadStreams } from './unread-streams.js';

/** A comment line this often keeps proxies and the server's idle timeout from closing a quiet stream. */
export const KEEP_ALIVE_MS = 25_000;

export async function notificationRoutes(
  app: FastifyInstance,
  options: { db: Db; streams: UnreadStreams; keepAliveMs?: number },
) {
  const { db, streams } = options;
  const keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Notifications');

  api.get(
    '/api/notifications',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Your alerts, newest first',
        description:
          "A new pick of a capper you follow, as its title and price (never its selections), linking to its video. Alerts of videos since deleted or hidden are left out. Page with ?before= the previous page's nextBefore.",
        querystring: NotificationsQuerySchema,
        response: { 200: NotificationPageSchema, ...errorResponses(401) },
      },
    },
    async (request) => notificationPage(db, currentUser(request).id, request.query),
  );

  api.post(
    '/api/notifications/read',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Mark alerts read',
        description:
          '`{ "ids": [...] }` (only your own alerts change) or `{ "all": true }`. Answers your unread count.',
        body: MarkReadSchema,
        response: { 200: UnreadSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const unread = await readNotifications(db, userId, request.body);
      // This user's other tabs hear it now (those on other instances at the next re-check).
      await streams.userChanged(userId);
      return { unread };
    },
  );

  // Untyped: its 200 is a stream, not a schema's JSON.
  app.get(
    '/api/notifications/stream',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Your unread count, live',
        description: `Server-sent events: \`event: unread\` with \`data: {"unread":N}\` on connecting and whenever the count changes; a comment line every ${Math.round(KEEP_ALIVE_MS / 1000)} s keeps the connection open.`,
        response: {
          200: {
            description: 'An event stream that stays open.',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          ...errorResponses(401),
        },
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      const stream = new PassThrough();
      let stop: (() => void) | null = null;
      let ended = false;
      const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), keepAliveMs);
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(keepAlive);
        stop?.();
        stream.end();
      };
      // The client went away (or the answer ended): the listener and the timer go with it.
      reply.raw.on('close', end);
      try {
        stop = await streams.open(
          userId,
          (unread) => stream.write(`event: unread\ndata: ${JSON.stringify({ unread })}\n\n`),
          end,
        );
      } catch (error) {
        end();
        throw error;
      }
      if (ended) stop();
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(stream);
    },
  );
}
