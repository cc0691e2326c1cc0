// GET/HEAD /media/…: ranges, validators, types, who gets the original, from local disk or
// from a bucket (TEST_MEDIA_STORAGE=s3).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadFileName } from '#common/download-name.js';
import type { Video } from '#common/schemas/videos.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { findVideoRow } from '#server/features/videos/videos-repository.js';
import { createPurchase } from '../setup/fixtures.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { storedBytes } from '../setup/stored-media.js';
import { multipart, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
type Person = { cookie: string; id: number };
let owner: Person, buyer: Person, stranger: Person, admin: Person;
let video: Video;
let mp4: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t.app, {}, '10.5.0.1');
  buyer = await registerUser(t.app, {}, '10.5.0.2');
  stranger = await registerUser(t.app, {}, '10.5.0.3');
  admin = await registerUser(t.app, {}, '10.5.0.4');
  await setAdmin(t.database.db, admin.id, true);
  const { payload, headers } = multipart(VALID_FIELDS, {
    name: 'pick.mov',
    content: readFileSync(mediaFixture('h264Mov')),
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/videos',
    payload,
    headers: { ...headers, cookie: owner.cookie },
  });
  expect(response.statusCode, response.body).toBe(201);
  await t.app.mediaJobs.runUntilIdle();
  video = (
    await t.app.inject({ method: 'GET', url: `/api/videos/${response.json<Video>().id}` })
  ).json<Video>();
  expect(video.transcodingStatus).toBe('ready');
  await createPurchase(t, buyer.id, (await findVideoRow(t.database.db, video.id))!);
  mp4 = (await storedBytes(t, `videos/${video.id}/video.mp4`))!;
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('media files: whole, ranges, HEAD', () => {
  it('serves the MP4 to anyone, with its type, length, validators and nosniff', async () => {
    const response = await get(video.videoUrl!);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['content-length']).toBe(String(mp4.length));
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(response.headers['last-modified']).toBeTruthy();
    expect(response.rawPayload.equals(mp4)).toBe(true);
  });

  it('serves the first bytes, a middle slice and a suffix with 206 and Content-Range', async () => {
    const first = await get(video.videoUrl!, { range: 'bytes=0-99' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-99/${mp4.length}`);
    expect(first.headers['content-length']).toBe('100');
    expect(first.rawPayload.equals(mp4.subarray(0, 100))).toBe(true);

    const middleStart = Math.floor(mp4.length / 2);
    const middle = await get(video.videoUrl!, { range: `bytes=${middleStart}-${middleStart + 4095}` });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes ${middleStart}-${middleStart + 4095}/${mp4.length}`);
    expect(middle.rawPayload.equals(mp4.subarray(middleStart, middleStart + 4096))).toBe(true);

    const suffix = await get(video.videoUrl!, { range: 'bytes=-500' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${mp4.length - 500}-${mp4.length - 1}/${mp4.length}`);
    expect(suffix.rawPayload.equals(mp4.subarray(mp4.length - 500))).toBe(true);

    const open = await get(video.videoUrl!, { range: `bytes=${mp4.length - 10}-` });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(mp4.subarray(mp4.length - 10))).toBe(true);
  });

  it('answers 416 with the size to a range outside the file or malformed', async () => {
    for (const range of [`bytes=${mp4.length}-`, 'bytes=500-100', 'bytes=x-y']) {
      const response = await get(video.videoUrl!, { range });
      expect(response.statusCode, range).toBe(416);
      expect(response.headers['content-range']).toBe(`bytes */${mp4.length}`);
    }
  });

  it('ignores a range that If-Range says is stale', async () => {
    const response = await get(video.videoUrl!, { range: 'bytes=0-9', 'if-range': '"stale-etag"' });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBe(mp4.length);
  });

  it('answers HEAD with the headers and no body (the card checks a file exists)', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: video.videoUrl! });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(mp4.length));
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.rawPayload.length).toBe(0);
    const missing = await t.app.inject({ method: 'HEAD', url: `/media/videos/${video.id}/nope.mp4` });
    expect(missing.statusCode).toBe(404);
  });

  it('answers 304 to a copy the browser already has', async () => {
    const first = await get(video.videoUrl!);
    const again = await get(video.videoUrl!, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('serves the thumbnail, playlist and segments with their types', async () => {
    expect((await get(video.thumbnailUrl!)).headers['content-type']).toBe('image/jpeg');
    const playlist = await get(video.hlsUrl!);
    expect(playlist.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    const segment = playlist.body.split('\n').find((line) => line.endsWith('.ts'))!;
    const ts = await get(video.hlsUrl!.replace('index.m3u8', segment));
    expect(ts.statusCode).toBe(200);
    expect(ts.headers['content-type']).toBe('video/mp2t');
  });

  it('never leaves the media folder', async () => {
    const secret = `secret-${Date.now()}`;
    writeFileSync(path.join(t.config.dataDir, 'session-secret'), secret);
    for (const url of [
      '/media/../session-secret',
      '/media/%2e%2e/session-secret',
      '/media/videos/..%2f..%2fsession-secret',
      '/media/videos/%2e%2e/%2e%2e/session-secret',
      '/media//etc/passwd',
      '/media/',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain(secret);
    }
  });
});

describe('the original MOV: owner, buyers and admins only', () => {
  const originalUrl = () => `/media/videos/${video.id}/original.mov`;
  const original = () => readFileSync(mediaFixture('h264Mov'));

  it.each([
    ['owner', () => owner],
    ['buyer', () => buyer],
    ['admin', () => admin],
  ])('serves it to the %s', async (_name, person) => {
    const response = await get(originalUrl(), { cookie: person().cookie });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('video/quicktime');
    expect(response.headers['cache-control']).toMatch(/private/);
    // A download, saved under the video's title ("direct download after purchase").
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${downloadFileName(video.title, 'mov')}"; filename*=UTF-8''${encodeURIComponent(downloadFileName(video.title, 'mov'))}`,
    );
    expect(response.rawPayload.equals(original())).toBe(true);
  });

  it('refuses it to anyone else, ranges and HEAD included', async () => {
    expect((await get(originalUrl())).statusCode).toBe(401);
    expect((await get(originalUrl(), { cookie: stranger.cookie })).statusCode).toBe(403);
    expect((await get(originalUrl(), { cookie: stranger.cookie, range: 'bytes=0-9' })).statusCode).toBe(403);
    const head = await t.app.inject({
      method: 'HEAD',
      url: originalUrl(),
      headers: { cookie: stranger.cookie },
    });
    expect(head.statusCode).toBe(403);
  });
});
