// Where media lives (docs/decisions/022): under DATA_DIR/media by default, in a bucket with S3_*
// (this file runs in both modes: TEST_MEDIA_STORAGE=s3 for the bucket). With a CDN (S3_PUBLIC_URL), public
// files are sent there and originals never are.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Video } from '#common/schemas/videos.js';
import { S3MediaStorage } from '#server/media/s3-storage.js';
import { mediaVersion } from '#server/media/storage.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { inBucket, incomingLeftovers, storedBytes, storedKeys } from '../setup/stored-media.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, tusMetadata, VALID_FIELDS } from '../setup/upload-requests.js';

const CDN = 'https://cdn.pickreel.test';

let t: TestApp;
let owner: { cookie: string; id: number };
let video: Video;

beforeAll(async () => {
  t = await createTestApp({ env: inBucket() ? { S3_PUBLIC_URL: CDN } : {} });
  owner = await registerUser(t.app, {}, '10.16.0.1');
  const response = await postVideo(t.app, owner.cookie, VALID_FIELDS, {
    name: 'pick.mov',
    content: readFileSync(mediaFixture('h264Mov')),
  });
  expect(response.statusCode, response.body).toBe(201);
  expect(await t.app.mediaJobs.runUntilIdle()).toBe(1);
  video = (
    await t.app.inject({ method: 'GET', url: `/api/videos/${response.json<Video>().id}` })
  ).json<Video>();
  expect(video.transcodingStatus).toBe('ready');
});
afterAll(async () => {
  await t?.close();
});

describe('where the files are', () => {
  it('keeps every file of a video in the configured store, and nothing of it elsewhere', async () => {
    expect(t.app.storage.kind).toBe(inBucket() ? 's3' : 'local');
    const keys = await storedKeys(t, `videos/${video.id}/`);
    expect(keys).toEqual(
      expect.arrayContaining([
        `videos/${video.id}/original.mov`,
        `videos/${video.id}/video.mp4`,
        `videos/${video.id}/thumb.jpg`,
        `videos/${video.id}/hls/index.m3u8`,
        `videos/${video.id}/hls/segment0000.ts`,
      ]),
    );
    expect(
      (await storedBytes(t, `videos/${video.id}/original.mov`))!.equals(
        readFileSync(mediaFixture('h264Mov')),
      ),
    ).toBe(true);
    // In a bucket, the server's disk holds none of it: no media folder, no upload left, no scratch copy.
    expect(existsSync(path.join(t.config.dataDir, 'media', 'videos', String(video.id)))).toBe(!inBucket());
    expect(await incomingLeftovers(t)).toEqual([]);
    expect(readdirSync(path.join(t.config.dataDir, 'work'))).toEqual([]);
  });
});

describe('what /media/ serves', () => {
  it("serves a video's files only: never an upload waiting beside them in the bucket", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': tusMetadata({ ...VALID_FIELDS, filename: 'pick.mov' }),
        cookie: owner.cookie,
      },
    });
    expect(created.statusCode).toBe(201);
    const uploadId = (created.headers.location as string).split('/').pop()!;
    // Its record holds the pick's selections: in a bucket it is an object at the root, <id>.info.
    if (inBucket()) expect(await t.app.storage.stat(`${uploadId}.info`)).not.toBeNull();
    for (const key of [`${uploadId}.info`, uploadId, 'incoming/x.part', 'session-secret']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/media/${key}`,
        headers: { cookie: owner.cookie },
      });
      expect(response.statusCode, key).toBe(404);
    }
  });
});

describe.runIf(inBucket())('a CDN in front of the bucket (S3_PUBLIC_URL)', () => {
  const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });

  it('sends a public file there: for a year when the URL names its version, else for 5 minutes', async () => {
    const thumb = await get(video.thumbnailUrl!);
    expect(thumb.statusCode).toBe(302);
    const object = (await t.app.storage.stat(`videos/${video.id}/thumb.jpg`))!;
    expect(thumb.headers.location).toBe(`${CDN}/videos/${video.id}/thumb.jpg?v=${mediaVersion(object)}`);
    expect(thumb.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The playlist's URL names no version; its segments are relative to it, so they come from the CDN too.
    const playlist = await get(video.hlsUrl!);
    expect(playlist.statusCode).toBe(302);
    expect(playlist.headers.location).toBe(`${CDN}/videos/${video.id}/hls/index.m3u8`);
    expect(playlist.headers['cache-control']).toBe('public, max-age=300');
    expect((await get(`/media/videos/${video.id}/nope.jpg`)).statusCode).toBe(404);
    // HEAD (the player's check that the file exists, a fetch bound to connect-src 'self') is answered here.
    const head = await t.app.inject({ method: 'HEAD', url: video.videoUrl! });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('video/mp4');
    expect(head.headers.location).toBeUndefined();
  });

  it('never sends an original there: it streams from the app to its owner only, ranges included', async () => {
    const url = `/media/videos/${video.id}/original.mov`;
    expect((await get(url)).statusCode).toBe(401);
    const stranger = await registerUser(t.app, {}, '10.16.0.2');
    expect((await get(url, stranger.cookie)).statusCode).toBe(403);
    const original = readFileSync(mediaFixture('h264Mov'));
    const whole = await get(url, owner.cookie);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers.location).toBeUndefined();
    expect(whole.headers['cache-control']).toBe('private, no-cache');
    expect(whole.rawPayload.equals(original)).toBe(true);
    const part = await get(url, owner.cookie, { range: 'bytes=100-1123' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(original.subarray(100, 1124))).toBe(true);
  });
});

describe.runIf(inBucket())('moving an object inside the bucket', () => {
  it('copies one larger than CopyObject takes part by part, bytes unchanged, and removes the source', async () => {
    const MIB = 1024 * 1024;
    // S3's limit is 5 GiB; here 5 MiB parts (the least S3 takes) stand for it.
    const storage = new S3MediaStorage(t.config.s3!, { singleCopyMax: 5 * MIB, copyPartSize: 5 * MIB });
    const content = randomBytes(12 * MIB + 123);
    await storage.putStream('incoming/large.part', Readable.from([content]));
    await storage.move('incoming/large.part', 'videos/999999/original.mov');
    expect(await storage.stat('incoming/large.part')).toBeNull();
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read('videos/999999/original.mov')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
    await storage.removePrefix('videos/999999');
    expect(await storage.list('videos/999999/')).toEqual([]);
    storage.client.destroy();
  });
});
