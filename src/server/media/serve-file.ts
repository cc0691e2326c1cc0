// Answers with a stored media file: ranges, validators and types (docs/decisions/007). Who
// may have which file is the caller's rule: the videos feature's media routes decide, this only sends.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { attachmentDisposition } from '#common/download-name.js';
import { CONTENT_TYPES, contentTypeOf } from './content-types.js';
import { parseRange } from './http-range.js';
import { mediaVersion, type MediaStorage, type StoredObject } from './storage.js';

/** A media file's bytes, for the API document: its type follows its extension (CONTENT_TYPES). */
export const MEDIA_FILE_CONTENT = {
  content: Object.fromEntries(
    [...new Set(Object.values(CONTENT_TYPES))].map((type) => [
      type,
      { schema: z.string().meta({ format: 'binary' }) },
    ]),
  ),
};

/** The stored file under this key, or null: a key that could leave the media folder is simply not there. */
export async function findMediaFile(storage: MediaStorage, key: string): Promise<StoredObject | null> {
  try {
    return await storage.stat(key);
  } catch {
    return null;
  }
}

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

export interface MediaFileAnswer {
  key: string;
  object: StoredObject;
  /** Null for public media; for a private file (an original), the name it is downloaded under. */
  downloadName: string | null;
}

/** Whether the URL names this very version of the file (versionedMediaUrl): then it never changes. */
function isCurrentVersion(request: FastifyRequest<{ Querystring: { v?: unknown } }>, object: StoredObject) {
  return request.query.v === mediaVersion(object);
}

/**
 * A public file a CDN serves (S3_PUBLIC_URL, docs/decisions/022): 302 to its URL there, with the same cache
 * policy as the file itself, so a browser asks the app once per version. The HLS segments, named relative to
 * the playlist, then come from the CDN straight away.
 */
export function redirectToPublicUrl(
  request: FastifyRequest<{ Querystring: { v?: unknown } }>,
  reply: FastifyReply,
  url: string,
  object: StoredObject,
) {
  const current = isCurrentVersion(request, object);
  return reply
    .code(302)
    .header('location', current ? `${url}?v=${mediaVersion(object)}` : url)
    .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
    .send();
}

/** GET or HEAD of one stored file: 200, 206 for a range, 304 when the browser's copy is current, 416. */
export async function sendMediaFile(
  request: FastifyRequest<{ Querystring: { v?: unknown } }>,
  reply: FastifyReply,
  storage: MediaStorage,
  { key, object, downloadName }: MediaFileAnswer,
) {
  const isPrivate = downloadName !== null;
  const etag = etagOf(object);
  // A URL naming this very version (versionedMediaUrl) never answers anything else: kept for a year.
  // Without it, or naming an older version, the browser asks again after 5 minutes.
  const current = isCurrentVersion(request, object);
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
    .type(contentTypeOf(key));
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
  return reply.send(await storage.read(key, { start, end }));
}
