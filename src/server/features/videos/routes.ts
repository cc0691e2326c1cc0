import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageSchema, NoBodySchema } from '#common/schemas/api.js';
import {
  PurchasedFlagSchema,
  ShareCountSchema,
  ShareSchema,
  VideoListQuerySchema,
  VideoListSchema,
  VideoSchema,
  VideoUpdateSchema,
  ViewCountedSchema,
  type VideoListQuery,
} from '#common/schemas/videos.js';
import { OwnVideosQuerySchema, VideoIdParamsSchema } from '#common/schemas/ids.js';
import type { Db } from '#server/db/client.js';
import type { MediaStorage } from '#server/media/storage.js';
import type { CatalogCache } from './catalog-cache.js';
import { readyBytes, sendReadyBytes } from '#server/lib/ready-bytes.js';
import { ViewCounter } from './view-counter.js';
import { currentUser, requireUser } from '../auth/index.js';
import {
  hasPurchased,
  listPopularOnSale,
  listRecentUnreadyVideosOfUser,
  POPULAR_WINDOW_DAYS,
  listVideosOfUser,
  findVideo,
  purchasedAmong,
  recordShare,
  type VideoWithCapper,
} from './videos-repository.js';
import { cachedCatalogPage, cachedVideo } from './catalog-reads.js';
import { editVideo, mayView, removeVideo, toPublicVideo, viewerOf } from './videos-service.js';
import { notFound } from '#server/lib/http-errors.js';
import { rateLimited } from '#server/lib/rate-limited.js';
import { errorResponses, responseSerializer, tagRoutes } from '#server/plugins/api-contract.js';

// Signed-out answers are ready-made bytes (decision 012), written through the same schemas once per entry.
const videoJson = responseSerializer(VideoSchema);
const videoListJson = responseSerializer(VideoListSchema);
const FEATURED_COUNT = 6;
const SHARES_PER_MINUTE = 20;
/** How far back a capper's own unfinished uploads are shown on the catalog's newest page. */
const OWN_UPLOADS_MS = 24 * 60 * 60 * 1000;

/** The catalog's first page, newest first, unfiltered: the home page's list and /videos' first page. */
function isNewestFirstPage(query: VideoListQuery): boolean {
  return (
    query.sort === 'newest' &&
    query.offset === 0 &&
    !query.q &&
    !query.category &&
    !query.status &&
    !query.verified
  );
}

export async function videoRoutes(
  app: FastifyInstance,
  options: {
    db: Db;
    storage: MediaStorage;
    sessionSecret: string;
    catalog: CatalogCache;
  },
) {
  const { db, storage, catalog } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Videos');

  /** One page of the public catalog, from the cache; signed-out visitors get ready-made JSON. */
  async function catalogPage(request: FastifyRequest, reply: FastifyReply, query: VideoListQuery) {
    const viewer = viewerOf(request.user);
    // The newest page shows a capper their own uploads still processing, at once. Read before the
    // cached page, so a video turning ready between the two reads is in one of them, never in neither.
    const unready =
      viewer && isNewestFirstPage(query)
        ? await listRecentUnreadyVideosOfUser(
            db,
            viewer.id,
            new Date(Date.now() - OWN_UPLOADS_MS),
            query.limit,
          )
        : [];
    const entry = cachedCatalogPage(catalog, db, query, request.log);
    const rows = await entry.value;
    if (!viewer) {
      // Ready-made bytes: no serialising or UTF-8 encoding per request, close to a static file's cost.
      entry.anonymous ??= readyBytes(videoListJson(rows.map((row) => toPublicVideo(row, null))));
      await sendReadyBytes(request, reply, entry.anonymous);
      return reply; // Fastify waits for it to be written
    }
    const bought = await purchasedAmong(
      db,
      viewer.id,
      rows.map((row) => row.video.id),
    );
    const ready = new Set(rows.map((row) => row.video.id));
    return [
      ...unready.filter((row) => !ready.has(row.video.id)).map((row) => toPublicVideo(row, viewer)),
      ...rows.map((row) => toPublicVideo({ ...row, isPurchased: bought.has(row.video.id) }, viewer)),
    ];
  }

  api.get(
    '/api/videos',
    {
      schema: {
        summary: 'A page of the catalog',
        description:
          'Ready videos, newest first unless sorted otherwise; a signed-in capper also sees their own uploads still being processed on the first page. Signed out, the answer carries an ETag (If-None-Match: 304). A search that finds a hundred others waiting is answered 503 with Retry-After.',
        querystring: VideoListQuerySchema,
        response: { 200: VideoListSchema, 304: NoBodySchema, ...errorResponses(503) },
      },
    },
    (request, reply) => catalogPage(request, reply, request.query),
  );

  // Declared before /api/videos/:id so 'featured' is never read as an id.
  api.get(
    '/api/videos/featured',
    {
      schema: {
        summary: 'Popular picks on sale',
        description: `The most viewed videos of the last ${POPULAR_WINDOW_DAYS} days that are still on sale: never a pick whose first leg has started or that is graded. Signed in, each says whether it is the viewer's own or bought (the client leaves those out).`,
        response: { 200: VideoListSchema, 304: NoBodySchema },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request.user);
      const entry = catalog.get('featured', () => listPopularOnSale(db, FEATURED_COUNT));
      const rows = await entry.value;
      if (!viewer) {
        entry.anonymous ??= readyBytes(videoListJson(rows.map((row) => toPublicVideo(row, null))));
        await sendReadyBytes(request, reply, entry.anonymous);
        return reply;
      }
      // The same picks for everyone, with the viewer's own flags: the client leaves out their own and bought ones.
      const bought = await purchasedAmong(
        db,
        viewer.id,
        rows.map((row) => row.video.id),
      );
      return rows.map((row) => toPublicVideo({ ...row, isPurchased: bought.has(row.video.id) }, viewer));
    },
  );

  /** A video as this viewer may see it, from the cache (one indexed query for a signed-in viewer's purchase). */
  async function visibleVideo(request: FastifyRequest, id: number): Promise<VideoWithCapper> {
    let row = await cachedVideo(catalog, db, id).value;
    const viewer = viewerOf(request.user);
    if (!row || !mayView(row, viewer)) throw notFound('Video not found');
    // Its owner watches a video being processed: its progress is read fresh, not from the cache.
    if (row.video.transcodingStatus !== 'ready') {
      row = await findVideo(db, id, null);
      if (!row || !mayView(row, viewer)) throw notFound('Video not found');
    }
    if (!viewer || viewer.id === row.video.userId) return row;
    return { ...row, isPurchased: await hasPurchased(db, viewer.id, id) };
  }

  api.get(
    '/api/videos/:id',
    {
      schema: {
        summary: 'A video',
        description:
          'A video not ready yet is visible to its owner and admins only (else 404). The winning selections are in it for the owner, its buyers and admins.',
        params: VideoIdParamsSchema,
        response: { 200: VideoSchema, 304: NoBodySchema, ...errorResponses(404) },
      },
    },
    (request, reply) => {
      const viewer = viewerOf(request.user);
      if (viewer) return visibleVideo(request, request.params.id).then((row) => toPublicVideo(row, viewer));
      const entry = cachedVideo(catalog, db, request.params.id);
      // Ready-made bytes for a signed-out visitor, as for the catalog pages (a crowd on one video);
      // once made, they are sent without waiting on anything.
      if (entry.anonymous) return sendReadyBytes(request, reply, entry.anonymous);
      return entry.value.then(async (row) => {
        if (!row || !mayView(row, null)) throw notFound('Video not found');
        entry.anonymous ??= readyBytes(videoJson(toPublicVideo(row, null)));
        await sendReadyBytes(request, reply, entry.anonymous);
        await reply; // written: nothing left for Fastify to send
      });
    },
  );

  api.get(
    '/api/videos/:id/purchased',
    {
      schema: {
        summary: 'Whether the signed-in user bought this video',
        params: VideoIdParamsSchema,
        response: { 200: PurchasedFlagSchema },
      },
    },
    async (request) => {
      if (!request.user) return { purchased: false };
      return { purchased: await hasPurchased(db, request.user.id, request.params.id) };
    },
  );

  // A capper's own videos and their changes: signed in only (401 otherwise), checked once for the group.
  await app.register(async (signedIn) => {
    signedIn.addHook('preHandler', requireUser);
    const own = signedIn.withTypeProvider<ZodTypeProvider>();

    own.get(
      '/api/user/videos',
      {
        schema: {
          summary: "The signed-in capper's own videos",
          description: 'Newest first, in every state (processing and failed ones too).',
          querystring: OwnVideosQuerySchema,
          response: { 200: VideoListSchema, ...errorResponses(401) },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const viewer = viewerOf(user);
        const rows = await listVideosOfUser(db, user.id, request.query);
        return rows.map((row) => toPublicVideo(row, viewer));
      },
    );

    own.patch(
      '/api/videos/:id',
      {
        schema: {
          summary: "Edit a video's details",
          description:
            'The owner or an admin. A new price cancels the open payment intents at the old one. A change of the selections, legs or parlay of a verified pick seals a new version, or is refused (409) once the pick is sold or its first leg has started.',
          params: VideoIdParamsSchema,
          body: VideoUpdateSchema,
          response: { 200: VideoSchema, ...errorResponses(401, 403, 404, 409, 503) },
        },
      },
      async (request) => {
        const video = await editVideo(db, request.params.id, request.body, viewerOf(currentUser(request))!);
        return video;
      },
    );

    own.delete(
      '/api/videos/:id',
      {
        schema: {
          summary: 'Delete a video',
          description: 'The owner or an admin. Its purchases go with it; its sales keep their amount.',
          params: VideoIdParamsSchema,
          response: { 200: MessageSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        await removeVideo(db, storage, request.params.id, viewerOf(currentUser(request))!, request.log);
        return { message: 'Video deleted' };
      },
    );
  });

  /** An anonymous viewer is known only by a keyed hash of their address: no raw IPs kept for views or shares. */
  const viewerKeyOf = (request: FastifyRequest) =>
    request.user
      ? `u:${request.user.id}`
      : `a:${createHash('sha256').update(`${options.sessionSecret}:${request.ip}`).digest('base64url').slice(0, 22)}`;

  const views = new ViewCounter(db, app.log, (ids) => catalog.forgetVideos(ids));
  app.addHook('onClose', () => views.flush());

  api.post(
    '/api/videos/:id/view',
    {
      schema: {
        summary: 'Count a view',
        description: 'Once per viewer (signed in, or by a keyed hash of the address) per hour.',
        params: VideoIdParamsSchema,
        response: { 200: ViewCountedSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const entry = await visibleVideo(request, request.params.id);
      return { counted: await views.record(entry.video.id, viewerKeyOf(request)) };
    },
  );

  // So a flood of shares cannot inflate the count: a share counts once per viewer and channel, and one
  // address may try at most SHARES_PER_MINUTE times a minute.
  const sharesPerAddress = app.createRateLimit({
    max: SHARES_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `share:${request.ip}`,
  });
  const limitShares = rateLimited(sharesPerAddress, 'shares');

  api.post(
    '/api/videos/:id/share',
    {
      preHandler: limitShares,
      schema: {
        summary: 'Record a share',
        description: `Counted once per viewer and channel; at most ${SHARES_PER_MINUTE} tries a minute from one address.`,
        params: VideoIdParamsSchema,
        body: ShareSchema,
        response: { 200: ShareCountSchema, ...errorResponses(404, 429) },
      },
    },
    async (request) => {
      const entry = await visibleVideo(request, request.params.id);
      const referrer = request.headers.referer;
      const shareCount = await recordShare(db, {
        videoId: entry.video.id,
        userId: request.user?.id ?? null,
        viewerKey: viewerKeyOf(request),
        platform: request.body.platform,
        ipAddress: request.ip,
        referrer: typeof referrer === 'string' ? referrer.slice(0, 500) : null,
      });
      catalog.forgetVideos([entry.video.id]);
      return { shareCount };
    },
  );
}
