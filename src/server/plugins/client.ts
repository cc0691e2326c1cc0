import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_SUPPORT_PHONE } from '../../common/constants.js';
import { APP_CONFIG_META_NAME, type AppConfig } from '../../common/schemas/app-config.js';
import { preferredEncoding } from '../lib/content-encoding.js';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Serves the built React client: hashed assets cached for a year (pre-compressed .br/.gz when the
 * build made them), every other page path gets index.html with the browser's settings written in.
 */
export async function registerClient(
  app: FastifyInstance,
  clientDir: string,
  appConfig: AppConfig,
): Promise<void> {
  const indexFile = path.join(clientDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ clientDir }, 'client build not found: run `npm run build` (serving the API only)');
    return;
  }
  const meta = `<meta name="${APP_CONFIG_META_NAME}" content="${escapeAttribute(JSON.stringify(appConfig))}">`;
  const indexHtml = readFileSync(indexFile, 'utf8').replace('<!--app-config-->', meta);

  await app.register(fastifyStatic, {
    root: clientDir,
    index: false,
    // One route per built file, found once at start (dist/client does not change while serving): a client
    // route such as /video/12 is not looked up on disk (with every precompressed variant) per request.
    wildcard: false,
    preCompressed: true,
    maxAge: 0,
    setHeaders(reply, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      }
    },
  });

  // Every other page's index.html, compressed once at start too (issue 12).
  app.decorate('indexHtml', compressedOnce(indexHtml));
  const home = compressedOnce(prerenderedHome(clientDir, meta, appConfig) ?? indexHtml);
  // The static plugin answers a directory (`/` included) with 403 when `index` is off, so the home page
  // is answered explicitly: with its prerendered first paint when the build made one, compressed once at
  // start (decision 012: ~16 KB of markup is worth ~4 KB on a slow phone network).
  app.get('/', (request, reply) => sendIndexHtml(request, reply, home));
}

/** A page's bytes as sent, in each encoding a browser may ask for. */
export type PageBytes = Record<'identity' | 'br' | 'gzip', Buffer>;

function compressedOnce(html: string): PageBytes {
  const identity = Buffer.from(html);
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/**
 * dist/client/home.html (scripts/prerender-home.mjs): index.html with the home page's first render in
 * #root, made with the default settings; the support phone in the hero is this server's own.
 */
function prerenderedHome(clientDir: string, meta: string, appConfig: AppConfig): string | null {
  const file = path.join(clientDir, 'home.html');
  if (!existsSync(file)) return null;
  const digits = (phone: string) => phone.replace(/[^\d+]/g, '');
  return readFileSync(file, 'utf8')
    .replace('<!--app-config-->', meta)
    .replaceAll(
      `tel:${digits(DEFAULT_SUPPORT_PHONE)}`,
      `tel:${escapeAttribute(digits(appConfig.supportPhone))}`,
    )
    .replaceAll(escapeAttribute(DEFAULT_SUPPORT_PHONE), escapeAttribute(appConfig.supportPhone));
}

/** index.html for a client-side route: the React router decides what it shows (its 404 page included). */
export function sendIndexHtml(request: FastifyRequest, reply: FastifyReply, page: PageBytes): FastifyReply {
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  reply.header('vary', 'accept-encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply
    .code(200)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .send(page[encoding ?? 'identity']);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The built index.html with the browser's settings written in, as sent; undefined without a client build. */
    indexHtml?: PageBytes;
  }
}
