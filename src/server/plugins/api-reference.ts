// The interactive API reference: a page that runs Swagger UI (swagger-ui-dist's files) on the
// OpenAPI document. Our own two routes instead of @fastify/swagger-ui's plugin (docs/decisions/015): nothing
// is read before someone opens the page, and the files go compressed and cached for a year.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { compressStream, preferredEncoding } from '../lib/content-encoding.js';

export interface ApiReferenceOptions {
  /** Where the page is (`/api/docs`); its files are below it. */
  prefix: string;
  /** The OpenAPI document the page reads. */
  documentUrl: string;
  title: string;
}

/** Swagger UI's files the page loads, as shipped by swagger-ui-dist (read from disk per request). */
const DIST_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};
const INITIALIZER = 'initializer.js';
const YEAR = 'public, max-age=31536000, immutable';

/**
 * The page configures Swagger UI from a file, not an inline script, so it runs under the pages' own
 * Content-Security-Policy (`script-src 'self'`). The base layout: no top bar to explore other URLs, and no
 * validator badge, which would load an image from validator.swagger.io.
 */
function initializerScript(documentUrl: string): string {
  const config = {
    url: documentUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
    validatorUrl: null,
  };
  // The page loads it after the bundle, below #swagger-ui: both are there already.
  return `window.ui = SwaggerUIBundle(${JSON.stringify(config)});\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A short tag of some bytes, for an ETag and a URL version. */
function tagOf(text: string): string {
  let hash = 0x811c9dc5; // FNV-1a: enough to tell our own few versions apart
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16);
}

function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  return !!header && header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

interface Dist {
  dir: string;
  version: string;
}

export function registerApiReference(app: FastifyInstance, options: ApiReferenceOptions): void {
  const { prefix, documentUrl, title } = options;
  const initializer = initializerScript(documentUrl);
  const initializerTag = tagOf(initializer);

  // Found at the first request, kept after: the package's folder and version (the files' URL version).
  let dist: Promise<Dist> | null = null;
  const findDist = (): Promise<Dist> =>
    (dist ??= (async () => {
      const manifest = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
      const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
      return { dir: path.dirname(manifest), version };
    })().catch((err: unknown) => {
      dist = null;
      throw err;
    }));

  let page: Promise<{ html: string; etag: string }> | null = null;
  const pageHtml = () =>
    (page ??= findDist().then(({ version }) => {
      const file = (name: string) => `${prefix}/${name}?v=${version}`;
      const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="${file('swagger-ui.css')}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${file('swagger-ui-bundle.js')}"></script>
<script src="${prefix}/${INITIALIZER}?v=${initializerTag}"></script>
</body>
</html>
`;
      return { html, etag: `"${tagOf(html)}"` };
    }));

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const { html, etag } = await pageHtml();
    reply.header('etag', etag).header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    if (matches(request, etag)) return reply.code(304).send();
    return reply.send(html);
  };

  const sendFile = async (
    request: FastifyRequest<{ Params: { file: string }; Querystring: { v?: string } }>,
    reply: FastifyReply,
  ) => {
    const name = request.params.file;
    if (name === '') return sendPage(request, reply);
    if (name === INITIALIZER) {
      const etag = `"${initializerTag}"`;
      reply
        .header('etag', etag)
        .header('cache-control', request.query.v === initializerTag ? YEAR : 'no-cache')
        .type('application/javascript; charset=utf-8');
      if (matches(request, etag)) return reply.code(304).send();
      return reply.send(initializer);
    }
    const type = Object.hasOwn(DIST_FILES, name) ? DIST_FILES[name] : undefined;
    if (!type) return reply.code(404).send({ message: `Not found: ${request.method} ${prefix}/${name}` });

    const { dir, version } = await findDist();
    const file = path.join(dir, name);
    const { size, mtimeMs } = await stat(file);
    const encoding = request.method === 'HEAD' ? null : preferredEncoding(request.headers['accept-encoding']);
    // One tag per version, size and encoding: npm gives every installed file the same mtime, so the
    // package's version is what tells two copies apart.
    const base = `${version}-${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}`;
    const etag = `"${encoding ? `${base}-${encoding}` : base}"`;
    reply
      .header('etag', etag)
      .header('vary', 'accept-encoding')
      // A URL naming this version never answers anything else: kept for a year.
      .header('cache-control', request.query.v === version ? YEAR : 'no-cache')
      .type(type);
    if (matches(request, etag)) return reply.code(304).send();
    if (request.method === 'HEAD') return reply.header('content-length', String(size)).send();
    const bytes: Readable = createReadStream(file);
    if (!encoding) return reply.header('content-length', String(size)).send(bytes);
    const compressed = compressStream(encoding);
    bytes.on('error', (err) => compressed.destroy(err));
    return reply.header('content-encoding', encoding).send(bytes.pipe(compressed));
  };

  // Hidden from the document: they are the reference, not the API it describes.
  const schema = { hide: true };
  app.route({ method: ['GET', 'HEAD'], url: prefix, schema, handler: sendPage });
  app.route<{ Params: { file: string }; Querystring: { v?: string } }>({
    method: ['GET', 'HEAD'],
    url: `${prefix}/:file`,
    schema,
    handler: sendFile,
  });
}
