import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { APP_CONFIG_META_NAME, type AppConfig } from '../../common/schemas/app-config.js';

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
    wildcard: true,
    preCompressed: true,
    maxAge: 0,
    setHeaders(reply, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      }
    },
  });

  app.decorate('indexHtml', indexHtml);
  // The static plugin answers a directory (`/` included) with 403 when `index` is off: the home page is
  // a client route like any other, so it gets index.html explicitly.
  app.get('/', (_request, reply) => sendIndexHtml(reply, indexHtml));
}

/** index.html for a client-side route: the React router decides what it shows (its 404 page included). */
export function sendIndexHtml(reply: FastifyReply, html: string): FastifyReply {
  return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The built index.html with the browser's settings written in; undefined without a client build. */
    indexHtml?: string;
  }
}
