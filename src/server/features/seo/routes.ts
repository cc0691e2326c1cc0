// What crawlers ask for: a real robots.txt, and a sitemap of the public pages and videos.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Db } from '#server/db/client.js';
import { EncodedBody, preferredEncoding } from '#server/lib/content-encoding.js';
import { badRequest, notFound } from '#server/lib/http-errors.js';
import { rateLimited } from '#server/lib/rate-limited.js';
import { highestVideoId, publicVideoIdsBetween } from './seo-repository.js';

/** The sitemap protocol's limit per file (sitemaps.org): 50,000 URLs (and 50 MB, far off at ~60 bytes each). */
export const URLS_PER_SITEMAP = 50_000;
/** The pages anyone can see that are not a video: the home page and the listing. */
const PUBLIC_PAGES = ['/', '/videos'];
/** A generated file is kept this long: crawlers come rarely, and a burst must not rebuild 50,000 URLs each time. */
const CACHE_MS = 60_000;
const CACHE_ENTRIES = 8;
/** Sitemap files one address may fetch a minute: a crawler needs a few; each miss reads up to 50,000 rows. */
const SITEMAPS_PER_MINUTE = 30;

// A host name or address with an optional port, nothing else: it is written into the answers.
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** This site's origin as the visitor reached it (the scheme follows TRUST_PROXY); null for an odd Host. */
function originOf(request: FastifyRequest): string | null {
  return HOST.test(request.host) ? `${request.protocol}://${request.host}` : null;
}

const xmlText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function urlset(locations: string[]): string {
  const urls = locations.map((loc) => `<url><loc>${xmlText(loc)}</loc></url>\n`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`;
}

function sitemapIndex(locations: string[]): string {
  const maps = locations.map((loc) => `<sitemap><loc>${xmlText(loc)}</loc></sitemap>\n`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${maps}</sitemapindex>\n`;
}

export async function seoRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  // Kept from the moment its build starts, so a burst waits on that one build.
  const cache = new LRUCache<string, Promise<EncodedBody | null>>({ max: CACHE_ENTRIES, ttl: CACHE_MS });

  /** A generated file from the cache (one build at a time per file and origin); null when it does not exist. */
  function cached(key: string, build: () => Promise<string | null>): Promise<EncodedBody | null> {
    const hit = cache.get(key);
    if (hit) return hit;
    const body = build().then((text) => (text === null ? null : new EncodedBody(Buffer.from(text))));
    cache.set(key, body);
    body.catch(() => {
      if (cache.peek(key) === body) cache.delete(key);
    });
    return body;
  }

  async function sendXml(request: FastifyRequest, reply: FastifyReply, body: EncodedBody | null) {
    if (!body) throw notFound('No such sitemap.');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('vary', 'accept-encoding');
    if (!encoding) return reply.send(body.identity);
    return reply.header('content-encoding', encoding).send(await body.in(encoding));
  }

  const sitemapsPerAddress = app.createRateLimit({
    max: SITEMAPS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `sitemap:${request.ip}`,
  });
  const limitSitemaps = rateLimited(sitemapsPerAddress, 'requests');

  app.get('/robots.txt', async (request, reply) => {
    const origin = originOf(request);
    // Every page may be crawled: the ones behind sign-in show a signed-out crawler the sign-in form.
    const lines = ['User-agent: *', 'Allow: /', ''];
    if (origin) lines.push(`Sitemap: ${origin}/sitemap.xml`, '');
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(lines.join('\n'));
  });

  // An index of the files below: the public pages, and the videos by ranges of 50,000 ids, so a video
  // stays in the same file for good and no file passes the protocol's limit however large the catalog.
  app.get('/sitemap.xml', { preHandler: limitSitemaps }, async (request, reply) => {
    const origin = originOf(request);
    if (!origin) throw badRequest('Unrecognised Host header.');
    const body = await cached(`${origin} index`, async () => {
      const ranges = Math.ceil((await highestVideoId(db)) / URLS_PER_SITEMAP);
      const files = ['pages', ...Array.from({ length: ranges }, (_, i) => `videos-${i + 1}`)];
      return sitemapIndex(files.map((name) => `${origin}/sitemaps/${name}.xml`));
    });
    return sendXml(request, reply, body);
  });

  app.get<{ Params: { file: string } }>(
    '/sitemaps/:file',
    { preHandler: limitSitemaps },
    async (request, reply) => {
      const origin = originOf(request);
      if (!origin) throw badRequest('Unrecognised Host header.');
      const { file } = request.params;
      if (file === 'pages.xml') {
        const body = await cached(`${origin} pages`, async () =>
          urlset(PUBLIC_PAGES.map((page) => origin + page)),
        );
        return sendXml(request, reply, body);
      }
      const range = /^videos-([1-9]\d{0,5})\.xml$/.exec(file);
      if (!range) throw notFound('No such sitemap.');
      const n = Number(range[1]);
      const body = await cached(`${origin} videos-${n}`, async () => {
        const first = (n - 1) * URLS_PER_SITEMAP + 1;
        if (first > (await highestVideoId(db))) return null;
        const ids = await publicVideoIdsBetween(db, first, n * URLS_PER_SITEMAP);
        return urlset(ids.map((id) => `${origin}/video/${id}`));
      });
      return sendXml(request, reply, body);
    },
  );
}
