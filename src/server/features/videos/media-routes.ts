// GET/HEAD /media/{key}: a video's files (thumbnail, MP4, HLS, original), sent by the media library
// (media/serve-file.ts); who may have the original is this feature's rule (docs/decisions/017).
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { downloadFileName } from '#common/download-name.js';
import { NoBodySchema } from '#common/schemas/api.js';
import type { Db } from '#server/db/client.js';
import { forbidden, notFound, unauthorized } from '#server/lib/http-errors.js';
import {
  findMediaFile,
  MEDIA_FILE_CONTENT,
  redirectToPublicUrl,
  sendMediaFile,
} from '#server/media/serve-file.js';
import type { MediaStorage } from '#server/media/storage.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { findVideoRow, hasPurchased } from './videos-repository.js';

/** The uploaded original: only its owner, its buyers and admins (checkout's "direct download"). */
const ORIGINAL_KEY = /^videos\/(\d+)\/original\.[a-z0-9]+$/i;

/**
 * Only a video's files are media: in a bucket, uploads wait beside them (tus's <id> and <id>.info, the form's
 * incoming/), and those are nobody's to download here.
 */
const VIDEO_FILE_KEY = /^videos\/\d+\//;

type MediaRequest = FastifyRequest<{ Params: { '*': string }; Querystring: { v?: unknown } }>;

export async function mediaRoutes(app: FastifyInstance, options: { db: Db; storage: MediaStorage }) {
  const { db, storage } = options;
  tagRoutes(app, 'Media');

  /** Null for public media; for an original its download name, once the viewer may have it. */
  async function authorise(request: FastifyRequest, key: string): Promise<string | null> {
    const match = ORIGINAL_KEY.exec(key);
    if (!match) return null;
    const user = request.user;
    if (!user) throw unauthorized('Sign in to download the original file.');
    const video = await findVideoRow(db, Number(match[1]));
    if (!video) throw notFound('Media file not found.');
    if (video.userId === user.id || user.isAdmin || (await hasPurchased(db, user.id, video.id)))
      return downloadFileName(video.title, path.extname(key).slice(1));
    throw forbidden('Only the capper and buyers of this video can download the original file.');
  }

  app.route<{ Params: { '*': string }; Querystring: { v?: unknown } }>({
    method: ['GET', 'HEAD'],
    url: '/media/*',
    exposeHeadRoute: false,
    schema: {
      summary: 'A media file',
      description:
        "Thumbnails, MP4s, HLS playlists and segments: public, with ranges (206, 416) and validators (ETag, Last-Modified: 304); ?v= naming the file's current version makes it cacheable for a year. With a CDN configured (S3_PUBLIC_URL), a GET of a public file answers 302 to its URL there (HEAD is answered here). An original (videos/{id}/original.*) only for its capper, its buyers and admins, as a download, always from here.",
      response: {
        200: { description: 'The file.', ...MEDIA_FILE_CONTENT },
        206: { description: 'The byte range asked for (Range).', ...MEDIA_FILE_CONTENT },
        302: NoBodySchema.describe(
          'A public file served by the CDN (S3_PUBLIC_URL): Location is its URL there.',
        ),
        304: NoBodySchema,
        ...errorResponses(401, 403, 404, 416),
      },
    },
    handler: async (request: MediaRequest, reply) => {
      const key = request.params['*'];
      const object = VIDEO_FILE_KEY.test(key) ? await findMediaFile(storage, key) : null;
      if (!object) throw notFound('Media file not found.');
      const downloadName = await authorise(request, key);
      // Originals never leave through the CDN: every request for one is checked here (docs/decisions/022).
      // HEAD is answered here too: the player's existence check is a fetch, which the page's CSP
      // (connect-src 'self') would refuse to follow to the CDN.
      const publicUrl = downloadName === null && request.method === 'GET' ? storage.publicUrl(key) : null;
      if (publicUrl) return redirectToPublicUrl(request, reply, publicUrl, object);
      return sendMediaFile(request, reply, storage, { key, object, downloadName });
    },
  });
}
