// JSON from /api/ (and the routes that ask: compressBody) goes compressed to browsers that accept it
// (Lighthouse's 'Enable text compression'). Ready-made catalog bytes come compressed already, once per cache
// entry (ready-bytes.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { compress, preferredEncoding, type ContentEncoding } from '../lib/content-encoding.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route whose answers are compressible text of another type (the pick log's entry bundles). */
    compressBody?: boolean;
  }
}

/** Below this, the compressed body saves less than the headers and the work cost. */
export const COMPRESS_MIN_BYTES = 1024;

export function registerCompression(app: FastifyInstance): void {
  // A callback hook: the many answers it leaves alone (small, streamed, already encoded) cost no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const encoding = encodingFor(request, reply, payload);
    if (!encoding) return done(null, payload);
    const bytes = payload as string | Buffer;
    compress(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes), encoding).then((body) => {
      reply.header('content-encoding', encoding).removeHeader('content-length');
      done(null, body);
    }, done);
  });
}

/** The encoding this answer goes out in, or null to send it as it is (setting Vary where it could vary). */
function encodingFor(request: FastifyRequest, reply: FastifyReply, payload: unknown): ContentEncoding | null {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return null; // streams: media, files
  if (Buffer.byteLength(payload) < COMPRESS_MIN_BYTES || reply.hasHeader('content-encoding')) return null;
  if (!request.url.startsWith('/api/') || reply.statusCode === 204 || reply.statusCode === 304) return null;
  const type = reply.getHeader('content-type');
  const json = typeof type === 'string' && type.startsWith('application/json');
  if (!json && !request.routeOptions.config.compressBody) return null;
  reply.header('vary', 'accept-encoding');
  return preferredEncoding(request.headers['accept-encoding']);
}
