// JSON from /api/ goes compressed to browsers that accept it (issue 12: Lighthouse's 'Enable text
// compression'). Ready-made catalog bytes come compressed already, once per cache entry (ready-bytes.ts).
import type { FastifyInstance } from 'fastify';
import { compress, preferredEncoding } from '../lib/content-encoding.js';

/** Below this, the compressed body saves less than the headers and the work cost. */
export const COMPRESS_MIN_BYTES = 1024;

export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload; // streams: media, files
    if (Buffer.byteLength(payload) < COMPRESS_MIN_BYTES || reply.hasHeader('content-encoding'))
      return payload;
    if (!request.url.startsWith('/api/') || reply.statusCode === 204 || reply.statusCode === 304)
      return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) return payload;
    reply.header('vary', 'accept-encoding');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const body = await compress(Buffer.isBuffer(payload) ? payload : Buffer.from(payload), encoding);
    reply.header('content-encoding', encoding).removeHeader('content-length');
    return body;
  });
}
