// The tus endpoint /api/uploads (decisions.md 'Media'): sign-in, ids, limits, metadata, finishing into a video.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResult } from '../../src/common/schemas/uploads.js';
import type { Video } from '../../src/common/schemas/videos.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { tusMetadata, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
let capper: { cookie: string; id: number };
let other: { cookie: string; id: number };

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, '10.6.0.1');
  other = await registerUser(t.app, {}, '10.6.0.2');
});
afterAll(async () => {
  await t?.close();
});

const TUS = { 'tus-resumable': '1.0.0' };

function create(
  length: number,
  fields: Record<string, string> = { ...VALID_FIELDS, filename: 'pick.mov' },
  cookie: string | null = capper.cookie,
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: {
      ...TUS,
      'upload-length': String(length),
      'upload-metadata': tusMetadata(fields),
      ...(cookie ? { cookie } : {}),
    },
  });
}

function patch(location: string, offset: number, body: Buffer, cookie = capper.cookie) {
  return t.app.inject({
    method: 'PATCH',
    url: location,
    headers: {
      ...TUS,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      cookie,
    },
    payload: body,
  });
}

const head = (location: string, cookie = capper.cookie) =>
  t.app.inject({ method: 'HEAD', url: location, headers: { ...TUS, cookie } });

const tusFiles = () => {
  const dir = path.join(t.config.dataDir, 'uploads', 'tus');
  return existsSync(dir) ? readdirSync(dir) : [];
};

/** Sends a file in chunks, as tus-js-client does; returns the last response. */
async function sendInChunks(location: string, content: Buffer, chunk: number) {
  let response;
  for (let offset = 0; offset < content.length; offset += chunk) {
    response = await patch(location, offset, content.subarray(offset, offset + chunk));
    if (response.statusCode >= 300) return response;
  }
  return response!;
}

describe('tus: creating an upload', () => {
  it('needs a session', async () => {
    expect((await create(100, undefined, null)).statusCode).toBe(401);
  });

  it('refuses more than 15 GB', async () => {
    const response = await create(15 * 1024 ** 3 + 1);
    expect(response.statusCode).toBe(413);
  });

  it('checks the metadata with the same rules as the form', async () => {
    const response = await create(100, { ...VALID_FIELDS, title: '' });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ message: 'Title is required' });
    expect(tusFiles()).toEqual([]);
  });

  it('answers 404 to ids it did not make, and to other people', async () => {
    const created = await create(1000);
    expect(created.statusCode).toBe(201);
    const location = created.headers.location as string;
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
    expect((await head(location, other.cookie)).statusCode).toBe(404);
    expect((await patch(location, 0, Buffer.alloc(10), other.cookie)).statusCode).toBe(404);
    expect((await head('/api/uploads/..%2F..%2Fsession-secret')).statusCode).toBe(404);
    expect((await head('/api/uploads/abc')).statusCode).toBe(404);
    const mine = await head(location);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['upload-offset']).toBe('0');
  });
});

describe('tus: sending chunks', () => {
  it('refuses a wrong offset, a wrong type and bytes past the declared length', async () => {
    const created = await create(100);
    const location = created.headers.location as string;
    const wrongOffset = await patch(location, 10, Buffer.alloc(10));
    expect(wrongOffset.statusCode).toBe(409);
    expect(wrongOffset.headers['upload-offset']).toBe('0');
    const wrongType = await t.app.inject({
      method: 'PATCH',
      url: location,
      headers: {
        ...TUS,
        'upload-offset': '0',
        'content-type': 'application/octet-stream',
        cookie: capper.cookie,
      },
      payload: Buffer.alloc(10),
    });
    expect(wrongType.statusCode).toBe(415);
    expect((await patch(location, 0, Buffer.alloc(101))).statusCode).toBe(413);
    const first = await patch(location, 0, Buffer.alloc(60));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe('60');
    expect(first.headers['tus-resumable']).toBe('1.0.0');
    expect((await head(location)).headers['upload-offset']).toBe('60');
  });
});

describe('tus: finishing an upload', () => {
  it('turns a finished MOV into a video owned by the session user, and says which', async () => {
    const content = readFileSync(mediaFixture('h264Mov'));
    const created = await create(content.length, {
      ...VALID_FIELDS,
      filename: 'pick.mov',
      userId: String(other.id),
    });
    const location = created.headers.location as string;
    const uploadId = location.split('/').pop()!;

    const half = Math.floor(content.length / 2);
    expect((await patch(location, 0, content.subarray(0, half))).statusCode).toBe(204);
    const resumed = await head(location);
    expect(resumed.headers['upload-offset']).toBe(String(half));
    const last = await patch(location, half, content.subarray(half));
    expect(last.statusCode, last.body).toBe(200);
    const result = JSON.parse(last.body) as UploadResult;
    expect(result.success).toBe(true);
    expect(last.headers['upload-video-id']).toBe(String(result.videoId));

    // Asked again (the answer was lost): the same video, not a second one.
    const asked = await t.app.inject({
      method: 'GET',
      url: `${location}/video`,
      headers: { cookie: capper.cookie },
    });
    expect(asked.json<UploadResult>()).toEqual({ success: true, videoId: result.videoId });
    expect(
      (await t.app.inject({ method: 'GET', url: `${location}/video`, headers: { cookie: other.cookie } }))
        .statusCode,
    ).toBe(404);
    // A client resuming the finished upload learns it is complete.
    const done = await head(location);
    expect(done.statusCode).toBe(200);
    expect(done.headers['upload-offset']).toBe(String(content.length));
    expect(done.headers['upload-video-id']).toBe(String(result.videoId));

    const video = (
      await t.app.inject({
        method: 'GET',
        url: `/api/videos/${result.videoId}`,
        headers: { cookie: capper.cookie },
      })
    ).json<Video>();
    expect(video.userId).toBe(capper.id);
    expect(video.title).toBe(VALID_FIELDS.title);
    expect(tusFiles().filter((name) => name.startsWith(uploadId))).toEqual([]);
    const stored = path.join(t.config.dataDir, 'media', 'videos', String(result.videoId), 'original.mov');
    expect(readFileSync(stored).equals(content)).toBe(true);

    await t.app.mediaJobs.runUntilIdle();
    const ready = (await t.app.inject({ method: 'GET', url: `/api/videos/${result.videoId}` })).json<Video>();
    expect(ready.transcodingStatus).toBe('ready');
  });

  it('refuses a finished upload that is not a MOV with 415, and keeps nothing of it', async () => {
    const content = readFileSync(mediaFixture('mp4AsMov'));
    const created = await create(content.length);
    const location = created.headers.location as string;
    const uploadId = location.split('/').pop()!;
    const last = await sendInChunks(location, content, 16 * 1024);
    expect(last.statusCode).toBe(415);
    expect(JSON.parse(last.body)).toEqual({
      message: 'Invalid file format. Please upload a supported video format (MOV, WebM, etc.).',
    });
    expect(tusFiles().filter((name) => name.startsWith(uploadId))).toEqual([]);
    expect((await head(location)).statusCode).toBe(404);
  });

  it('answers 409 when asked for the video of an unfinished upload', async () => {
    const created = await create(1000);
    const location = created.headers.location as string;
    const asked = await t.app.inject({
      method: 'GET',
      url: `${location}/video`,
      headers: { cookie: capper.cookie },
    });
    expect(asked.statusCode).toBe(409);
  });
});
