// The browser's own checks, the server's part: a session probe that is no error for a visitor,
// robots.txt and the sitemap, compressed JSON and pages, media URLs cached for good when versioned.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Video } from '#common/schemas/videos.js';
import { URLS_PER_SITEMAP } from '#server/features/seo/routes.js';
import { mediaVersion, versionedMediaUrl } from '#server/media/storage.js';
import { createVideo } from '../setup/fixtures.js';
import { storeObject } from '../setup/stored-media.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

let t: TestApp;
let capper: { cookie: string; id: number; username: string };
let ready: number[];
let processing: number;
let farId: number;

beforeAll(async () => {
  const clientDir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-client-'));
  writeFileSync(
    path.join(clientDir, 'index.html'),
    `<html><head><!--app-config--></head><body>${'<p>the app shell</p>'.repeat(100)}</body></html>`,
  );
  // scripts/route-preloads.mjs writes this from the build.
  writeFileSync(
    path.join(clientDir, 'route-preloads.json'),
    JSON.stringify([
      { path: '/auth', pattern: '^/auth/?$', files: ['/assets/auth-page-1.js', '/assets/zod-2.js'] },
      { path: '/video/:id', pattern: '^/video/[^/]+/?$', files: ['/assets/video-page-3.js'] },
    ]),
  );
  t = await createTestApp({ clientDir });
  capper = await registerUser(t.app, {}, '10.12.0.1');
  ready = [];
  for (let i = 0; i < 4; i++) ready.push((await createVideo(t, capper.id)).id);
  processing = (await createVideo(t, capper.id, { transcodingStatus: 'processing' })).id;
  // Far beyond the first range of ids: the sitemap needs a third file for it.
  farId = 2 * URLS_PER_SITEMAP + 7;
  await createVideo(t, capper.id, { id: farId });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host: 'picks.example:8443', ...headers } });

describe('GET /api/session', () => {
  it('answers a visitor 200 with no user, and GET /api/user still 401 (spec 7)', async () => {
    const session = await get('/api/session');
    expect(session.statusCode).toBe(200);
    expect(session.json()).toEqual({ user: null });
    expect((await get('/api/user')).statusCode).toBe(401);
  });

  it('answers a signed-in user with the user GET /api/user gives', async () => {
    const session = await get('/api/session', { cookie: capper.cookie });
    expect(session.statusCode).toBe(200);
    const user = await get('/api/user', { cookie: capper.cookie });
    expect(session.json()).toEqual({ user: user.json() });
    expect(session.json().user.username).toBe(capper.username);
  });
});

describe('robots.txt', () => {
  it('is plain text letting crawlers in, pointing at the sitemap of this origin', async () => {
    const robots = await get('/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body.split('\n')).toEqual([
      'User-agent: *',
      'Allow: /',
      '',
      'Sitemap: http://picks.example:8443/sitemap.xml',
      '',
    ]);
  });

  it('leaves the sitemap out for a Host header that is not a host name', async () => {
    const robots = await get('/robots.txt', { host: 'evil.example/"><x' });
    expect(robots.statusCode).toBe(200);
    expect(robots.body).not.toContain('Sitemap');
    expect((await get('/sitemap.xml', { host: 'evil.example/"><x' })).statusCode).toBe(400);
  });
});

describe('sitemap', () => {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

  it('indexes the public pages and one file per 50,000 video ids', async () => {
    const index = await get('/sitemap.xml');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(index.body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(index.body)).toEqual([
      'http://picks.example:8443/sitemaps/pages.xml',
      'http://picks.example:8443/sitemaps/videos-1.xml',
      'http://picks.example:8443/sitemaps/videos-2.xml',
      'http://picks.example:8443/sitemaps/videos-3.xml',
    ]);
    const pages = await get('/sitemaps/pages.xml');
    expect(locs(pages.body)).toEqual(['http://picks.example:8443/', 'http://picks.example:8443/videos']);
  });

  it('lists the ready videos of each range, not those still processing', async () => {
    const first = await get('/sitemaps/videos-1.xml');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(first.body)).toEqual(ready.map((id) => `http://picks.example:8443/video/${id}`));
    expect(locs(first.body)).not.toContain(`http://picks.example:8443/video/${processing}`);
    expect(locs((await get('/sitemaps/videos-2.xml')).body)).toEqual([]);
    expect(locs((await get('/sitemaps/videos-3.xml')).body)).toEqual([
      `http://picks.example:8443/video/${farId}`,
    ]);
    for (const missing of ['videos-4.xml', 'videos-0.xml', 'videos-x.xml', 'other.xml']) {
      expect((await get(`/sitemaps/${missing}`)).statusCode, missing).toBe(404);
    }
  });

  it('is sent gzipped to a crawler that accepts it', async () => {
    const plain = await get('/sitemaps/videos-1.xml');
    const zipped = await get('/sitemaps/videos-1.xml', { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
  });
});

describe('compression', () => {
  it('sends the signed-out catalog compressed, each encoding with its own ETag, and 304 on a match', async () => {
    const plain = await get('/api/videos');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await get('/api/videos', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gzip = await get('/api/videos', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    const etags = new Set([plain, br, gzip].map((r) => r.headers.etag));
    expect(etags.size).toBe(3);
    const again = await get('/api/videos', {
      'accept-encoding': 'gzip, deflate, br',
      'if-none-match': String(br.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    // The identity's tag does not match the compressed representation.
    const other = await get('/api/videos', {
      'accept-encoding': 'br',
      'if-none-match': String(plain.headers.etag),
    });
    expect(other.statusCode).toBe(200);
  });

  it('compresses other JSON (signed in) when accepted, and leaves small answers alone', async () => {
    const plain = await get('/api/videos', { cookie: capper.cookie });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get('/api/videos', { cookie: capper.cookie, 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    // The 5 ready videos, and for their owner the one still being processed.
    expect((plain.json() as Video[]).length).toBe(6);
    const small = await get('/api/session', { cookie: capper.cookie, 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().user.id).toBe(capper.id);
  });

  it("sends a signed-out visitor's long video compressed from its ready bytes, and 304 on a match", async () => {
    const long = await createVideo(t, capper.id, {
      description: 'Line movement and the number. '.repeat(60),
    });
    const url = `/api/videos/${long.id}`;
    const plain = await get(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().description).toBe(long.description);
    // Twice: the first answer makes the entry's bytes, the second is sent from them.
    for (let i = 0; i < 2; i++) {
      const br = await get(url, { 'accept-encoding': 'br' });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    }
  });

  it('sends every page index.html compressed once, when accepted', async () => {
    const plain = await get('/videos');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    const br = await get('/video/12', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(plain.body).toContain('<p>the app shell</p>');
  });
});

describe('preloads', () => {
  const session = '</api/session>; rel=preload; as=fetch; crossorigin=use-credentials';
  const links = async (url: string) => String((await get(url)).headers.link ?? '').split(', ');

  it("names a page's code and its first data in a Link header, beside the session", async () => {
    expect(await links('/auth?next=%2Fupload')).toEqual([
      '</assets/auth-page-1.js>; rel=modulepreload',
      '</assets/zod-2.js>; rel=modulepreload',
      session,
    ]);
    expect(await links('/video/12')).toEqual([
      '</assets/video-page-3.js>; rel=modulepreload',
      session,
      '</api/videos/12>; rel=preload; as=fetch; crossorigin=use-credentials',
    ]);
    const first = (await get('/api/videos')).json()[0] as Video;
    expect(await links('/videos')).toEqual([
      session,
      '</api/videos>; rel=preload; as=fetch; crossorigin=use-credentials',
      `<${first.thumbnailUrl}>; rel=preload; as=image`,
    ]);
  });

  it("names the picture a page shows first: a video's own, the listing's first card's", async () => {
    const video = (await get(`/api/videos/${ready[1]}`)).json() as Video;
    expect(video.thumbnailUrl).toMatch(/^\/media\//);
    expect(await links(`/video/${ready[1]}`)).toEqual([
      '</assets/video-page-3.js>; rel=modulepreload',
      session,
      `</api/videos/${ready[1]}>; rel=preload; as=fetch; crossorigin=use-credentials`,
      `<${video.thumbnailUrl}>; rel=preload; as=image`,
    ]);
    // Not one a visitor may not see: a video still being processed shows no picture to them.
    expect(await links(`/video/${processing}`)).toEqual([
      '</assets/video-page-3.js>; rel=modulepreload',
      session,
      `</api/videos/${processing}>; rel=preload; as=fetch; crossorigin=use-credentials`,
    ]);
  });

  it('preloads no data a path does not name exactly, and nothing for the home page', async () => {
    expect(await links('/videos?q=nba')).toEqual([session]);
    expect(await links('/video/abc')).toEqual(['</assets/video-page-3.js>; rel=modulepreload', session]);
    expect((await get('/')).headers.link).toBeUndefined();
    expect((await get('/api/nothing')).headers.link).toBeUndefined();
  });
});

describe('media caching', () => {
  it('keeps a versioned URL for a year, and the rest for 5 minutes', async () => {
    const key = 'videos/777/thumb.jpg';
    await storeObject(t, key, Buffer.alloc(2048, 1));
    const object = (await t.app.storage.stat(key))!;
    const url = versionedMediaUrl(key, object);
    expect(url).toBe(`/media/${key}?v=${mediaVersion(object)}`);
    const current = await get(url);
    expect(current.statusCode).toBe(200);
    expect(current.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(`/media/${key}`)).headers['cache-control']).toBe('public, max-age=300');
    // The file changed: the old URL's version no longer matches, so nobody keeps it for long.
    await storeObject(t, key, Buffer.alloc(4096, 2));
    const stale = await get(url);
    expect(stale.rawPayload.length).toBe(4096);
    expect(stale.headers['cache-control']).toBe('public, max-age=300');
  });
});
