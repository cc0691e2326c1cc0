import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EncodedBody, preferredEncoding } from '#server/lib/content-encoding.js';
import { COMPRESS_MIN_BYTES } from '#server/plugins/compression.js';

/** The signed-out visitor's JSON, serialised once per cache entry and compressed once per encoding. */
export interface ReadyBytes {
  body: EncodedBody;
  etag: string;
}

/** `json`: written once by the route's response schema (api-contract.ts responseSerializer), when the entry is made. */
export function readyBytes(json: string): ReadyBytes {
  const body = Buffer.from(json);
  return { body: new EncodedBody(body), etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/**
 * Ready-made bytes, compressed for a browser that accepts it, from the entry's own copy, so a
 * request never compresses (decision 012). Each encoding is its own representation, with its own ETag.
 * Sent at once when no compression is pending (undefined: a synchronous handler returns nothing more, and the
 * common case costs no promise); else a promise settled once it is written.
 */
export function sendReadyBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  ready: ReadyBytes,
): undefined | Promise<void> {
  const { identity } = ready.body;
  const encoding =
    identity.length >= COMPRESS_MIN_BYTES ? preferredEncoding(request.headers['accept-encoding']) : null;
  const etag = encoding ? `${ready.etag.slice(0, -1)}-${encoding}"` : ready.etag;
  reply.type('application/json; charset=utf-8').header('etag', etag).header('cache-control', 'no-cache');
  if (identity.length >= COMPRESS_MIN_BYTES) reply.header('vary', 'accept-encoding');
  if (request.headers['if-none-match'] === etag) {
    reply.code(304).send();
    return;
  }
  if (!encoding) {
    reply.send(identity);
    return;
  }
  // Settles once the answer is written (a reply is awaitable): a handler returning it leaves Fastify nothing to send.
  return ready.body.in(encoding).then(async (bytes) => {
    await reply.header('content-encoding', encoding).send(bytes);
  });
}
