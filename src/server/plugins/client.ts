import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_SUPPORT_PHONE } from '#common/constants.js';
import { APP_CONFIG_META_NAME, type AppConfig } from '#common/schemas/app-config.js';
import { preferredEncoding } from '../lib/content-encoding.js';

/**
 * The picture a page shows largest at first sight (its LCP element), where the path alone names it.
 * Declared here, filled in by the videos feature (features/videos/page-pictures.ts): this plugin knows no
 * feature.
 */
export interface PagePictures {
  /** `/videos`: the first card's thumbnail, newest first, as a signed-out visitor sees it. */
  catalogFirst(): Promise<string | null>;
  /** `/video/{id}`: the video's thumbnail, if everyone may see the video. */
  video(id: number): Promise<string | null>;
}

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
  pictures?: PagePictures,
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

  // Every other page's index.html, with its prerendered shell when the build made one (its navigation, a
  // spinner, the footer: a first paint before the code arrives), compressed once at start too.
  app.decorate(
    'indexHtml',
    compressedOnce(prerendered(clientDir, 'shell.html', meta, appConfig) ?? indexHtml),
  );
  app.decorate('pagePreloads', pagePreloads(readRoutePreloads(clientDir), pictures));
  const home = compressedOnce(prerendered(clientDir, 'home.html', meta, appConfig) ?? indexHtml);
  // The static plugin answers a directory (`/` included) with 403 when `index` is off, so the home page
  // is answered explicitly: with its prerendered first paint when the build made one, compressed once at
  // start (decision 012: compressed markup arrives sooner on a slow phone network).
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
 * dist/client/home.html or shell.html (scripts/prerender-home.mjs): index.html with the home page's first
 * render, or any other page's shell, in #root, made with the default settings; the support phone in the
 * hero and the footer is this server's own.
 */
function prerendered(
  clientDir: string,
  name: 'home.html' | 'shell.html',
  meta: string,
  appConfig: AppConfig,
): string | null {
  const file = path.join(clientDir, name);
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

/** One client route's files beyond the entry (scripts/route-preloads.mjs). */
interface RoutePreload {
  pattern: string;
  files: string[];
}

function readRoutePreloads(clientDir: string): RoutePreload[] {
  const file = path.join(clientDir, 'route-preloads.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RoutePreload[]) : [];
}

// What every page asks first (src/client/features/auth/api/get-user.ts): fetched with credentials, as the
// preload says, so the page's own request takes the preloaded answer.
const SESSION_PRELOAD = '</api/session>; rel=preload; as=fetch; crossorigin=use-credentials';
const VIDEO_PAGE = /^\/video\/([1-9]\d{0,9})\/?$/;

/** A picture URL that can stand in a Link header as it is (ours and YouTube's are paths and plain URLs). */
const LINKABLE_URL = /^(?:\/|https:\/\/)[^\s<>,;"\\]+$/;

/**
 * The Link header for a client route other than the home page (its code and first data arrive with
 * the app's code instead of one after the other): the route's chunks, the session, and the data a page opens
 * with where the path alone names it (the listing's first page, a video), with that page's largest picture.
 */
function pagePreloads(
  routes: RoutePreload[],
  pictures: PagePictures | undefined,
): (url: string) => Promise<string> {
  const compiled = routes.map((route) => ({
    pattern: new RegExp(route.pattern, 'i'),
    links: route.files.map((file) => `<${file}>; rel=modulepreload`),
  }));
  return async (url) => {
    const [pathname, query] = url.split('?', 2);
    const links = [
      ...(compiled.find((route) => route.pattern.test(pathname!))?.links ?? []),
      SESSION_PRELOAD,
    ];
    let picture: Promise<string | null> | undefined;
    // The same URLs as get-videos.ts (no filter: no query) and get-video.ts ask for.
    if (pathname === '/videos' && !query) {
      links.push('</api/videos>; rel=preload; as=fetch; crossorigin=use-credentials');
      picture = pictures?.catalogFirst();
    }
    const video = VIDEO_PAGE.exec(pathname!);
    if (video) {
      links.push(`</api/videos/${video[1]}>; rel=preload; as=fetch; crossorigin=use-credentials`);
      picture = pictures?.video(Number(video[1]));
    }
    // Without it the picture is asked for only once the page has rendered its data (LCP on a slow phone).
    const src = await picture?.catch(() => null);
    if (src && LINKABLE_URL.test(src)) links.push(`<${src}>; rel=preload; as=image`);
    return links.join(', ');
  };
}

/** index.html for a client-side route: the React router decides what it shows (its 404 page included). */
export function sendIndexHtml(
  request: FastifyRequest,
  reply: FastifyReply,
  page: PageBytes,
  preloads?: string,
): FastifyReply {
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (preloads) reply.header('link', preloads);
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
    /** The Link header for a page other than the home page (with a client build). */
    pagePreloads?: (url: string) => Promise<string>;
  }
}
