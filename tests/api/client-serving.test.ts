import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inBucket } from '../setup/stored-media.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

let t: TestApp;
beforeAll(async () => {
  const clientDir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-client-'));
  writeFileSync(
    path.join(clientDir, 'index.html'),
    '<html><head><!--app-config--></head><body>app</body></html>',
  );
  // A prerendered home page made with the default phone (scripts/prerender-home.mjs).
  writeFileSync(
    path.join(clientDir, 'home.html'),
    '<html><head><!--app-config--></head><body><div id="root"><h1>Winning picks</h1>' +
      '<a href="tel:+15550100199">Support: <span>+1 (555) 010-0199</span></a></div></body></html>',
  );
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'assets', 'main-abc123.js'), 'console.log(1)');
  t = await createTestApp({ clientDir, env: { SUPPORT_PHONE: '+1 555 000 1234' } });
});
afterAll(async () => {
  await t?.close();
});

describe('serving the client', () => {
  it.each(['/', '/videos?q=nba', '/video/12', '/dashboard', '/no/such/page'])(
    'answers %s with index.html carrying the settings',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain(
        '<meta name="pickreel-config" content="{&quot;supportPhone&quot;:&quot;+1 555 000 1234&quot;',
      );
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['content-security-policy']).toContain('https://www.youtube-nocookie.com');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('tells the browser its tus chunk: 2 MB on disk, 32 MiB (whole S3 parts) with media in a bucket', async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/dashboard' })).body;
    const content = /<meta name="pickreel-config" content="([^"]*)">/
      .exec(page)![1]!
      .replaceAll('&quot;', '"');
    const { uploadChunkBytes } = JSON.parse(content) as { uploadChunkBytes: number };
    expect(uploadChunkBytes).toBe(inBucket() ? 32 * 1024 * 1024 : 2 * 1024 * 1024);
  });

  it("answers / with the prerendered home page, with this server's settings and support phone", async () => {
    const home = await t.app.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<h1>Winning picks</h1>');
    expect(home.body).toContain('<a href="tel:+15550001234">Support: <span>+1 555 000 1234</span></a>');
    expect(home.body).not.toContain('010-0199');
    expect(home.body).toContain('<meta name="pickreel-config"');
    // Other client routes keep the plain index.html: the prerender is the home page's first paint only.
    expect((await t.app.inject({ method: 'GET', url: '/videos' })).body).not.toContain('Winning picks');
  });

  it('sends the home page compressed when the browser accepts it, and as is otherwise', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const cases = [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
      ['br;q=0, gzip;q=0.5', 'gzip', gunzipSync],
      ['*', 'br', brotliDecompressSync],
    ] as const;
    for (const [accept, encoding, decode] of cases) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/',
        headers: { 'accept-encoding': accept },
      });
      expect(response.headers['content-encoding'], accept).toBe(encoding);
      expect(decode(response.rawPayload).toString(), accept).toBe(plain.body);
    }
    const refused = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'br;q=0, gzip;q=0, identity' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(plain.body);
  });

  it('serves hashed assets with a year of caching, and unknown API paths as JSON 404', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const api = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Not found: GET /api/nothing-here' });
  });
});
