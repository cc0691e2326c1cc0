// Uploads that show what is happening: a capper's new upload is on the catalog's newest page for
// them at once, while it is processed (and only for them), and its progress is never read from the cache.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Video } from '#common/schemas/videos.js';
import { videos } from '#server/db/schema.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { createVideo } from '../setup/fixtures.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
type Person = { cookie: string; id: number };
let capper: Person, stranger: Person, admin: Person;

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, '10.12.1.1');
  stranger = await registerUser(t.app, {}, '10.12.1.2');
  admin = await registerUser(t.app, {}, '10.12.1.3');
  await setAdmin(t.database.db, admin.id, true);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

const ids = async (url: string, cookie?: string) => {
  const response = await get(url, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as Video[]).map((video) => video.id);
};

describe('the newest page shows its owner the uploads still being processed', () => {
  let pending: number, processing: number, failed: number, yesterday: number, ready: number;

  beforeAll(async () => {
    ready = (await createVideo(t, capper.id, { title: 'Ready pick' })).id;
    failed = (await createVideo(t, capper.id, { transcodingStatus: 'failed', transcodingError: 'No.' })).id;
    processing = (
      await createVideo(t, capper.id, { transcodingStatus: 'processing', transcodingProgress: 40 })
    ).id;
    pending = (await createVideo(t, capper.id, { transcodingStatus: 'pending' })).id;
    yesterday = (
      await createVideo(t, capper.id, {
        transcodingStatus: 'pending',
        createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000),
      })
    ).id;
  });

  it('at the top of the first page, newest first, with their state, then the catalog', async () => {
    const response = await get('/api/videos', capper.cookie);
    const list = response.json() as Video[];
    expect(list.slice(0, 3).map((video) => video.id)).toEqual([pending, processing, failed]);
    expect(list[1]).toMatchObject({
      transcodingStatus: 'processing',
      transcodingProgress: 40,
      isOwner: true,
    });
    expect(list.map((video) => video.id)).toContain(ready);
    // Each video once; one left unfinished for more than a day is the dashboard's to show, not the catalog's.
    expect(new Set(list.map((video) => video.id)).size).toBe(list.length);
    expect(list.map((video) => video.id)).not.toContain(yesterday);
  });

  it('to nobody else: visitors, other users and admins see the ready catalog', async () => {
    for (const cookie of [undefined, stranger.cookie, admin.cookie]) {
      const list = await ids('/api/videos', cookie);
      expect(list).toContain(ready);
      for (const id of [pending, processing, failed]) expect(list).not.toContain(id);
    }
  });

  it('on no other page: later pages, searches, categories, other orders and the featured list', async () => {
    for (const url of [
      '/api/videos?offset=1',
      '/api/videos?q=pick',
      '/api/videos?category=NBA',
      '/api/videos?sort=price_asc',
      '/api/videos?sort=popular',
      '/api/videos/featured',
    ]) {
      const list = await ids(url, capper.cookie);
      for (const id of [pending, processing, failed]) expect(list, url).not.toContain(id);
    }
  });
});

describe('a real upload, from the request to ready', () => {
  it('is on its owner’s newest page at once, then once in everyone’s when ready', async () => {
    const created = await postVideo(
      t.app,
      capper.cookie,
      { ...VALID_FIELDS, title: 'Fresh upload' },
      { name: 'h264.mov', content: readFileSync(mediaFixture('h264Mov')) },
    );
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<Video>();
    // The visitor's page is cached first: the upload must not hide behind it for its owner.
    expect(await ids('/api/videos')).not.toContain(id);
    const mine = (await get('/api/videos', capper.cookie)).json() as Video[];
    expect(mine[0]).toMatchObject({ id, transcodingStatus: 'pending', isOwner: true });

    expect(await t.app.mediaJobs.runUntilIdle()).toBe(1);
    const after = (await get('/api/videos', capper.cookie)).json() as Video[];
    expect(after.filter((video) => video.id === id)).toMatchObject([{ transcodingStatus: 'ready' }]);
    expect(await ids('/api/videos')).toContain(id);
    expect(path.basename(after[0]!.thumbnailUrl ?? '')).toMatch(/^thumb\.jpg/);
  });
});

describe("a video's own page while it is processed", () => {
  it('shows its owner the progress written since the page was cached', async () => {
    const video = await createVideo(t, capper.id, {
      transcodingStatus: 'processing',
      transcodingProgress: 10,
    });
    expect((await get(`/api/videos/${video.id}`, capper.cookie)).json<Video>().transcodingProgress).toBe(10);
    // The media job writes progress without clearing the cache (only state changes do).
    await t.database.db.update(videos).set({ transcodingProgress: 55 }).where(eq(videos.id, video.id));
    expect((await get(`/api/videos/${video.id}`, capper.cookie)).json<Video>().transcodingProgress).toBe(55);
    expect((await get(`/api/videos/${video.id}`, admin.cookie)).json<Video>().transcodingProgress).toBe(55);
    expect((await get(`/api/videos/${video.id}`, stranger.cookie)).statusCode).toBe(404);
    expect((await get(`/api/videos/${video.id}`)).statusCode).toBe(404);
  });
});
