// GET/HEAD /media/{key}: the media files, with ranges and validators (issue 4 'Server').
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { attachmentDisposition, downloadFileName } from '../../common/download-name.js';
import { NoBodySchema } from '../../common/schemas/api.js';
import type { Db } from '../db/client.js';
import { findVideoRow, hasPurchased } from '../features/videos/videos-repository.js';
import { forbidden, notFound, unauthorized } from '../lib/http-errors.js';
import { errorResponses, tagRoutes } from '../plugins/api-contract.js';
import { parseRange } from './http-range.js';
import { mediaVersion, type MediaStorage, type StoredObject } from './storage.js';

const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webm': 'video/webm',
};

/** The uploaded original: only its owner, its buyers and admins (issue 4; checkout's "direct download"). */
const ORIGINAL_KEY = /^videos\/(\d+)\/original\.[a-z0-9]+$/i;

function etagOf(object: StoredObject): string {
  return `"${object.size.toString(16)}-${object.modified.getTime().toString(16)}"`;
}

/** If-None-Match / If-Modified-Since: whether the browser's copy is still good. */
function notModified(request: FastifyRequest, etag: string, modified: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch)
    return ifNoneMatch
      .split(',')
      .some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*');
  const since = request.headers['if-modified-since'];
  if (since) {
    const time = Date.parse(since);
    return Number.isFinite(time) && Math.floor(modified.getTime() / 1000) <= Math.floor(time / 1000);
  }
  return false;
}

/** If-Range: a range applies only to the representation the browser already holds part of. */
function rangeStillValid(request: FastifyRequest, etag: string, modified: Date): boolean {
  const ifRange = request.headers['if-range'];
  if (typeof ifRange !== 'string') return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === etag;
  const time = Date.parse(ifRange);
  return Number.isFinite(time) && Math.floor(modified.getTime() / 1000) === Math.floor(time / 1000);
}

/** The file's bytes, for the API document: its type follows its extension (CONTENT_TYPES). */
const FILE = {
  content: Object.fromEntries(
    [...new Set(Object.values(CONTENT_TYPES))].map((type) => [
      type,
      { schema: z.string().meta({ format: 'binary' }) },
    ]),
  ),
};

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

  async function serve(
    request: FastifyRequest<{ Params: { '*': string }; Querystring: { v?: unknown } }>,
    reply: FastifyReply,
  ) {
    const key = request.params['*'];
    let object: StoredObject | null;
    try {
      object = await storage.stat(key);
    } catch {
      object = null; // a key that could leave the media folder is simply not there
    }
    if (!object) throw notFound('Media file not found.');
    const downloadName = await authorise(request, key);
    const isPrivate = downloadName !== null;

    const etag = etagOf(object);
    // A URL naming this very version (versionedMediaUrl) never answers anything else: kept for a year
    // (issue 12). Without it, or naming an older version, the browser asks again after 5 minutes.
    const current = request.query.v === mediaVersion(object);
    reply
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('last-modified', object.modified.toUTCString())
      .header('x-content-type-options', 'nosniff')
      .header(
        'cache-control',
        isPrivate
          ? 'private, no-cache'
          : current
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=300',
      )
      .type(CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream');
    // The original is a download ("direct download after purchase"), saved under the video's title.
    if (downloadName !== null) reply.header('content-disposition', attachmentDisposition(downloadName));

    if (notModified(request, etag, object.modified)) return reply.code(304).send();

    const range = rangeStillValid(request, etag, object.modified)
      ? parseRange(request.headers.range, object.size)
      : ({ kind: 'full' } as const);
    if (range.kind === 'unsatisfiable') {
      return reply
        .code(416)
        .header('content-range', `bytes */${object.size}`)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ message: 'Range not satisfiable.' }));
    }
    const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, object.size - 1];
    if (range.kind === 'partial')
      reply.code(206).header('content-range', `bytes ${start}-${end}/${object.size}`);
    reply.header('content-length', String(end - start + 1));
    if (request.method === 'HEAD' || object.size === 0) return reply.send();
    return reply.send(storage.read(key, { start, end }));
  }

  app.route<{ Params: { '*': string }; Querystring: { v?: unknown } }>({
    method: ['GET', 'HEAD'],
    url: '/media/*',
    exposeHeadRoute: false,
    schema: {
      summary: 'A media file',
      description:
        "Thumbnails, MP4s, HLS playlists and segments: public, with ranges (206, 416) and validators (ETag, Last-Modified: 304); ?v= naming the file's current version makes it cacheable for a year. An original (videos/{id}/original.*) only for its capper, its buyers and admins, as a download.",
      response: {
        200: { description: 'The file.', ...FILE },
        206: { description: 'The byte range asked for (Range).', ...FILE },
        304: NoBodySchema,
        ...errorResponses(401, 403, 404, 416),
      },
    },
    handler: serve,
  });
}
