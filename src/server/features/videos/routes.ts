import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ShareSchema, VideoListQuerySchema, VideoUpdateSchema } from '../../../common/schemas/videos.js';
import type { Db } from '../../db/client.js';
import type { MediaStorage } from '../../media/storage.js';
import { currentUser, requireUser } from '../auth/session.js';
import {
  hasPurchased,
  listPublicVideos,
  listVideosOfUser,
  recordShare,
  recordView,
} from './videos-repository.js';
import { editVideo, getVisibleVideo, removeVideo, toPublicVideo, viewerOf } from './videos-service.js';

const IdParams = z.object({
  id: z.coerce.number({ error: 'Video id must be a number' }).int('Video id must be a whole number').positive('Video id must be positive').max(2_147_483_647, 'Video id is too large'),
});
const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});
const FEATURED_COUNT = 6;

export async function videoRoutes(
  app: FastifyInstance,
  options: { db: Db; storage: MediaStorage; sessionSecret: string },
) {
  const { db, storage } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/videos', { schema: { querystring: VideoListQuerySchema } }, async (request) => {
    const viewer = viewerOf(request.user);
    const rows = await listPublicVideos(db, request.query, viewer?.id ?? null);
    return rows.map((row) => toPublicVideo(row, viewer));
  });

  // Declared before /api/videos/:id so 'featured' is never read as an id.
  api.get('/api/videos/featured', async (request) => {
    const viewer = viewerOf(request.user);
    const rows = await listPublicVideos(
      db,
      { sort: 'popular', limit: FEATURED_COUNT, offset: 0 },
      viewer?.id ?? null,
    );
    return rows.map((row) => toPublicVideo(row, viewer));
  });

  api.get('/api/videos/:id', { schema: { params: IdParams } }, async (request) => {
    const viewer = viewerOf(request.user);
    return toPublicVideo(await getVisibleVideo(db, request.params.id, viewer), viewer);
  });

  api.get('/api/videos/:id/purchased', { schema: { params: IdParams } }, async (request) => {
    if (!request.user) return { purchased: false };
    return { purchased: await hasPurchased(db, request.user.id, request.params.id) };
  });

  api.get(
    '/api/user/videos',
    { preHandler: requireUser, schema: { querystring: PageQuery } },
    async (request) => {
      const user = currentUser(request);
      const viewer = viewerOf(user);
      const rows = await listVideosOfUser(db, user.id, request.query);
      return rows.map((row) => toPublicVideo(row, viewer));
    },
  );

  api.patch(
    '/api/videos/:id',
    { preHandler: requireUser, schema: { params: IdParams, body: VideoUpdateSchema } },
    async (request) => editVideo(db, request.params.id, request.body, viewerOf(currentUser(request))!),
  );

  api.delete('/api/videos/:id', { preHandler: requireUser, schema: { params: IdParams } }, async (request) => {
    await removeVideo(db, storage, request.params.id, viewerOf(currentUser(request))!);
    return { message: 'Video deleted' };
  });

  api.post('/api/videos/:id/view', { schema: { params: IdParams } }, async (request) => {
    const entry = await getVisibleVideo(db, request.params.id, viewerOf(request.user));
    // An anonymous viewer is known only by a keyed hash of their address: no raw IPs kept for views.
    const viewerKey = request.user
      ? `u:${request.user.id}`
      : `a:${createHash('sha256').update(`${options.sessionSecret}:${request.ip}`).digest('base64url').slice(0, 22)}`;
    const counted = await recordView(db, entry.video.id, viewerKey);
    return { counted };
  });

  api.post(
    '/api/videos/:id/share',
    { schema: { params: IdParams, body: ShareSchema } },
    async (request) => {
      const entry = await getVisibleVideo(db, request.params.id, viewerOf(request.user));
      const referrer = request.headers.referer;
      const shareCount = await recordShare(db, {
        videoId: entry.video.id,
        userId: request.user?.id ?? null,
        platform: request.body.platform,
        ipAddress: request.ip,
        referrer: typeof referrer === 'string' ? referrer.slice(0, 500) : null,
      });
      return { shareCount };
    },
  );
}
