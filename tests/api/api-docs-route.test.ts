// The API reference at /api/docs: our own page and routes over swagger-ui-dist's files (instead
// of @fastify/swagger-ui, docs/decisions/015), under the pages' Content-Security-Policy, hidden from the
// document it shows. That it renders is tests/e2e/api-docs.spec.ts's.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../setup/test-app.js';

const distDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const distVersion = (
  JSON.parse(readFileSync(path.join(distDir, 'package.json'), 'utf8')) as { version: string }
).version;

let t: TestApp;
let page: { body: string; headers: Record<string, unknown> };
/** The page's scripts and style sheets, in order. */
let assets: string[];

beforeAll(async () => {
  t = await createTestApp();
  const response = await t.app.inject({ method: 'GET', url: '/api/docs' });
  expect(response.statusCode).toBe(200);
  page = response;
  assets = [...response.body.matchAll(/<(?:script src|link rel="stylesheet" href)="([^"]+)"/g)].map(
    (match) => match[1]!,
  );
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('GET /api/docs', () => {
  it('is a page under the pages’ policy, loading Swagger UI and its initializer from this server', () => {
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<title>PickReel API</title>');
    // No inline script: the CSP allows scripts from files of this site only.
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(assets.map((url) => url.split('?')[0])).toEqual([
      '/api/docs/swagger-ui.css',
      '/api/docs/swagger-ui-bundle.js',
      '/api/docs/initializer.js',
    ]);
  });

  it('is the same page with a trailing slash', async () => {
    const slash = await get('/api/docs/');
    expect(slash.statusCode).toBe(200);
    expect(slash.body).toBe(page.body);
  });

  it('answers 304 to the copy the browser holds', async () => {
    const again = await get('/api/docs', { 'if-none-match': String(page.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it('points Swagger UI at GET /api/openapi.json, with no request to another site', async () => {
    const initializer = await get(assets[2]!);
    expect(initializer.statusCode).toBe(200);
    expect(initializer.headers['content-type']).toMatch(/^application\/javascript/);
    expect(initializer.body).toContain('"url":"/api/openapi.json"');
    // Swagger UI's default validator is an image from validator.swagger.io.
    expect(initializer.body).toContain('"validatorUrl":null');
  });
});

describe("Swagger UI's files", () => {
  it('are swagger-ui-dist’s bytes, with their type, an ETag and a year of cache at this version', async () => {
    for (const [url, type] of [
      [assets[0]!, /^text\/css/],
      [assets[1]!, /^application\/javascript/],
    ] as const) {
      expect(url).toMatch(new RegExp(`\\?v=${distVersion.replace(/\./g, '\\.')}$`));
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(type);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);
      const onDisk = readFileSync(path.join(distDir, path.basename(url.split('?')[0]!)));
      expect(response.rawPayload.equals(onDisk), url).toBe(true);
      expect(response.headers['content-length']).toBe(String(onDisk.length));

      const again = await get(url, { 'if-none-match': String(response.headers.etag) });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    }
  });

  it('go compressed to a browser that accepts it, each encoding with its own ETag', async () => {
    const url = assets[1]!;
    const onDisk = readFileSync(path.join(distDir, 'swagger-ui-bundle.js'));
    const plain = await get(url);
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(onDisk.length / 2);
    expect(brotliDecompressSync(br.rawPayload).equals(onDisk)).toBe(true);
    const gzip = await get(url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(onDisk)).toBe(true);
    expect(new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);
    // The identity copy's tag does not stand for the compressed one.
    const other = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) });
    expect(other.statusCode).toBe(200);
  });

  it('are cached only briefly under a URL without this version', async () => {
    const response = await get('/api/docs/swagger-ui.css?v=0.0.1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answer HEAD with the headers alone', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: assets[0]! });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBe(0);
    expect(response.headers['content-length']).toBe(
      String(readFileSync(path.join(distDir, 'swagger-ui.css')).length),
    );
  });

  it('are the only files served: any other name, or a way out of the folder, is a 404 { message }', async () => {
    for (const url of [
      '/api/docs/index.html',
      '/api/docs/swagger-ui.js',
      '/api/docs/package.json',
      '/api/docs/..%2Fpackage.json',
      '/api/docs/..%2F..%2F..%2Fpackage.json',
      '/api/docs/constructor',
      '/api/docs/__proto__',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toHaveProperty('message');
    }
  });
});

describe('the API document', () => {
  it('leaves out the reference’s own routes, which exist all the same', async () => {
    const document = (await get('/api/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(document.paths).filter((p) => p.startsWith('/api/docs'))).toEqual([]);
    expect(t.app.hasRoute({ method: 'GET', url: '/api/docs' })).toBe(true);
    expect(t.app.hasRoute({ method: 'GET', url: '/api/docs/:file' })).toBe(true);
  });
});
