import { and, eq, sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Video } from '#common/schemas/videos.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import type { VideoRow } from '#server/features/videos/videos-repository.js';
import { jobs } from '#server/db/schema.js';
import { REMOVE_MEDIA } from '#server/media/media-jobs.js';
import { createPurchase, createVideo } from '../setup/fixtures.js';
import { storedKeys, storeObject } from '../setup/stored-media.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

let t: TestApp;
type Person = { cookie: string; id: number; username: string };
let owner: Person, buyer: Person, stranger: Person, admin: Person;
let bought: VideoRow, notBought: VideoRow, processing: VideoRow;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t.app, { phoneNumber: '5550001111' }, '10.2.0.1');
  buyer = await registerUser(t.app, {}, '10.2.0.2');
  stranger = await registerUser(t.app, {}, '10.2.0.3');
  admin = await registerUser(t.app, {}, '10.2.0.4');
  await setAdmin(t.database.db, admin.id, true);
  bought = await createVideo(t, owner.id, {
    title: 'Bought pick',
    priceCents: 2599,
    originalFileKey: 'videos/900001/original.mov',
  });
  notBought = await createVideo(t, owner.id, {
    title: 'Other pick',
    category: 'NFL',
    priceCents: 999,
  });
  processing = await createVideo(t, owner.id, {
    title: 'Still processing',
    transcodingStatus: 'processing',
  });
  await createPurchase(t, buyer.id, bought);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('winning selections visibility', () => {
  const viewers = () =>
    ({
      visitor: { cookie: undefined, sees: { bought: false, notBought: false } },
      stranger: { cookie: stranger.cookie, sees: { bought: false, notBought: false } },
      buyer: { cookie: buyer.cookie, sees: { bought: true, notBought: false } },
      owner: { cookie: owner.cookie, sees: { bought: true, notBought: true } },
      admin: { cookie: admin.cookie, sees: { bought: true, notBought: true } },
    }) as const;

  const endpoints = () => [
    { name: 'GET /api/videos', list: (c?: string) => get('/api/videos', c) },
    { name: 'GET /api/videos?q=pick', list: (c?: string) => get('/api/videos?q=pick', c) },
    { name: 'GET /api/videos/featured', list: (c?: string) => get('/api/videos/featured', c) },
    {
      name: 'GET /api/videos/{id}',
      list: async (c?: string) => {
        const a = await get(`/api/videos/${bought.id}`, c);
        const b = await get(`/api/videos/${notBought.id}`, c);
        return { statusCode: 200, json: () => [a.json(), b.json()], body: a.body + b.body };
      },
    },
  ];

  for (const viewerName of ['visitor', 'stranger', 'buyer', 'owner', 'admin'] as const) {
    for (const index of [0, 1, 2, 3]) {
      it(`${viewerName} × endpoint #${index}`, async () => {
        const viewer = viewers()[viewerName];
        const endpoint = endpoints()[index]!;
        const response = await endpoint.list(viewer.cookie);
        expect(response.statusCode, endpoint.name).toBe(200);
        const videos = response.json() as Video[];
        const byId = new Map(videos.map((v) => [v.id, v]));
        for (const [key, row] of [
          ['bought', bought],
          ['notBought', notBought],
        ] as const) {
          const video = byId.get(row.id);
          expect(video, `${endpoint.name} lists ${key}`).toBeDefined();
          if (viewer.sees[key]) {
            expect(video!.emailInformation, `${viewerName} sees ${key} via ${endpoint.name}`).toBe(
              row.emailInformation,
            );
            // The uploaded original ("direct download after purchase"); a video without one says null.
            expect(video!.originalUrl).toBe(row.originalFileKey ? `/media/${row.originalFileKey}` : null);
          } else {
            expect(
              'emailInformation' in video!,
              `${viewerName} must not see ${key} via ${endpoint.name}`,
            ).toBe(false);
            expect(response.body).not.toContain(row.emailInformation!);
            expect('originalUrl' in video!, `${viewerName} must not get ${key}'s original`).toBe(false);
          }
          expect(video!.isOwner).toBe(viewerName === 'owner');
          expect(video!.isPurchased).toBe(viewerName === 'buyer' && key === 'bought');
        }
        // Nothing private about the capper ever leaves the server.
        expect(response.body).not.toMatch(/password|argon2|5550001111/i);
        expect(videos[0]!.capper).toEqual({
          id: owner.id,
          username: owner.username,
          displayName: null,
          avatarUrl: null,
        });
      });
    }
  }

  it('GET /api/user/videos shows the owner their own videos with selections, pending ones included', async () => {
    const response = await get('/api/user/videos', owner.cookie);
    const videos = response.json() as Video[];
    expect(videos.map((v) => v.id).sort()).toEqual([bought.id, notBought.id, processing.id].sort());
    expect(videos.every((v) => v.isOwner && typeof v.emailInformation === 'string')).toBe(true);
    const others = (await get('/api/user/videos', stranger.cookie)).json() as Video[];
    expect(others).toEqual([]);
    expect((await get('/api/user/videos')).statusCode).toBe(401);
  });
});

describe('catalog', () => {
  it('hides videos that are not ready from everyone but their owner and admins', async () => {
    const list = (await get('/api/videos')).json() as Video[];
    expect(list.find((v) => v.id === processing.id)).toBeUndefined();
    expect((await get(`/api/videos/${processing.id}`, stranger.cookie)).statusCode).toBe(404);
    expect((await get(`/api/videos/${processing.id}`, owner.cookie)).statusCode).toBe(200);
    expect((await get(`/api/videos/${processing.id}`, admin.cookie)).statusCode).toBe(200);
  });

  it('searches title, description and category, case-insensitively, with literal wildcards', async () => {
    const titles = async (q: string) =>
      ((await get(`/api/videos?q=${encodeURIComponent(q)}`)).json() as Video[]).map((v) => v.title);
    expect(await titles('BOUGHT')).toEqual(['Bought pick']);
    expect(await titles('nfl')).toEqual(['Other pick']);
    expect(await titles('breakdown')).toHaveLength(2);
    expect(await titles('%')).toEqual([]);
    expect(await titles('nothing like this')).toEqual([]);
  });

  it('filters by category and sorts by price', async () => {
    const nfl = (await get('/api/videos?category=NFL')).json() as Video[];
    expect(nfl.map((v) => v.id)).toEqual([notBought.id]);
    const asc = (await get('/api/videos?sort=price_asc')).json() as Video[];
    expect(asc.map((v) => v.price)).toEqual([9.99, 25.99]);
    const desc = (await get('/api/videos?sort=price_desc')).json() as Video[];
    expect(desc.map((v) => v.price)).toEqual([25.99, 9.99]);
  });

  it('bounds every list and refuses silly queries with a message', async () => {
    expect((await get('/api/videos?limit=1')).json()).toHaveLength(1);
    expect((await get('/api/videos?limit=1&offset=1')).json()).toHaveLength(1);
    for (const query of ['limit=1000', 'limit=0', 'offset=-1', 'category=Chess', 'sort=random']) {
      const response = await get(`/api/videos?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toEqual({ message: expect.any(String) });
    }
  });

  it("sends a visitor's page as ready-made bytes with an ETag, and 304 when the browser has them", async () => {
    const first = await get('/api/videos');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/videos',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A signed-in viewer's page has their own flags: never answered from the visitor's validator.
    const signedIn = await t.app.inject({
      method: 'GET',
      url: '/api/videos',
      headers: { cookie: buyer.cookie, 'if-none-match': etag },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers.etag).toBeUndefined();
    // A change to a video makes a new page with a new validator.
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/videos/${notBought.id}`,
      headers: { cookie: owner.cookie },
      payload: { description: 'Edited for the ETag test' },
    });
    expect(edited.statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'GET',
      url: '/api/videos',
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('Edited for the ETag test');
  });

  it('answers a missing or malformed id clearly', async () => {
    expect((await get('/api/videos/999999')).statusCode).toBe(404);
    expect((await get('/api/videos/999999')).json()).toEqual({ message: 'Video not found' });
    expect((await get('/api/videos/abc')).statusCode).toBe(400);
    expect((await get('/api/videos/99999999999')).statusCode).toBe(400);
  });

  it('tells whether the viewer bought a video', async () => {
    expect((await get(`/api/videos/${bought.id}/purchased`, buyer.cookie)).json()).toEqual({
      purchased: true,
    });
    expect((await get(`/api/videos/${bought.id}/purchased`, stranger.cookie)).json()).toEqual({
      purchased: false,
    });
    expect((await get(`/api/videos/${bought.id}/purchased`)).json()).toEqual({ purchased: false });
  });
});

describe('editing', () => {
  const patch = (id: number, payload: unknown, cookie?: string) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/videos/${id}`,
      payload: payload as object,
      headers: cookie ? { cookie } : {},
    });

  it('lets the owner edit with the upload rules', async () => {
    const response = await patch(
      notBought.id,
      { title: 'Edited title', price: 15, category: 'MLB', emailInformation: 'New picks' },
      owner.cookie,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      title: 'Edited title',
      price: 15,
      category: 'MLB',
      emailInformation: 'New picks',
    });
    expect((await patch(notBought.id, { price: 0.5 }, owner.cookie)).json()).toEqual({
      message: 'Price must be at least $0.99',
    });
    expect((await patch(notBought.id, { title: '   ' }, owner.cookie)).json()).toEqual({
      message: 'Title is required',
    });
    expect((await patch(notBought.id, { category: 'Chess' }, owner.cookie)).statusCode).toBe(400);
    expect((await patch(notBought.id, {}, owner.cookie)).json()).toEqual({ message: 'Nothing to update' });
  });

  it('lets an admin edit, and refuses strangers, buyers and visitors', async () => {
    expect((await patch(notBought.id, { title: 'Admin fixed' }, admin.cookie)).statusCode).toBe(200);
    expect((await patch(bought.id, { title: 'Hijack' }, stranger.cookie)).statusCode).toBe(403);
    expect((await patch(bought.id, { title: 'Hijack' }, buyer.cookie)).statusCode).toBe(403);
    expect((await patch(bought.id, { title: 'Hijack' })).statusCode).toBe(401);
    expect((await get(`/api/videos/${bought.id}`)).json().title).toBe('Bought pick');
  });
});

describe('views and shares', () => {
  it('counts a view at most once per viewer per hour', async () => {
    const view = (cookie?: string, ip = '10.3.0.1') =>
      t.app.inject({
        method: 'POST',
        url: `/api/videos/${bought.id}/view`,
        headers: cookie ? { cookie } : {},
        remoteAddress: ip,
      });
    const before = ((await get(`/api/videos/${bought.id}`)).json() as Video).views;
    expect((await view(stranger.cookie)).json()).toEqual({ counted: true });
    expect((await view(stranger.cookie)).json()).toEqual({ counted: false });
    expect((await view(undefined, '10.3.0.9')).json()).toEqual({ counted: true });
    expect((await view(undefined, '10.3.0.9')).json()).toEqual({ counted: false });
    expect(((await get(`/api/videos/${bought.id}`)).json() as Video).views).toBe(before + 2);
  });

  it('records a share and bumps the count', async () => {
    const share = (platform: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/videos/${bought.id}/share`,
        payload: { platform },
        headers: { cookie: stranger.cookie, referer: 'http://localhost/video/1' },
      });
    expect((await share('whatsapp')).json()).toEqual({ shareCount: 1 });
    expect((await share('x')).json()).toEqual({ shareCount: 2 });
    expect((await share('myspace')).statusCode).toBe(400);
    const rows = await t.database.db.execute(
      sql`select platform, user_id, referrer from video_shares order by id`,
    );
    expect((rows as unknown as { rows: unknown[] }).rows).toEqual([
      { platform: 'whatsapp', user_id: stranger.id, referrer: 'http://localhost/video/1' },
      { platform: 'x', user_id: stranger.id, referrer: 'http://localhost/video/1' },
    ]);
    // The same viewer on the same channel again counts once.
    expect((await share('x')).json()).toEqual({ shareCount: 2 });
    expect(((await get(`/api/videos/${bought.id}`)).json() as Video).shareCount).toBe(2);
  });

  it('counts a flood of anonymous shares from one address once per channel, and then refuses it', async () => {
    const share = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/videos/${notBought.id}/share`,
        payload: { platform: 'copy' },
        remoteAddress: '10.3.7.7',
      });
    const answers = await Promise.all(Array.from({ length: 30 }, share));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((code) => code === 200)).toHaveLength(20);
    expect(statuses.filter((code) => code === 429)).toHaveLength(10);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json().message).toMatch(/^Too many shares\. Please wait \d+ seconds and try again\.$/);
    expect(refused.headers['retry-after']).toBeTruthy();
    const rows = await t.database.db.execute(
      sql`select count(*)::int as n from video_shares where video_id = ${notBought.id}`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    expect(((await get(`/api/videos/${notBought.id}`)).json() as Video).shareCount).toBe(1);
  });

  it('answers views given at once each from the database, and counts a viewer once', async () => {
    const view = (ip: string) =>
      t.app.inject({ method: 'POST', url: `/api/videos/${notBought.id}/view`, remoteAddress: ip });
    const before = ((await get(`/api/videos/${notBought.id}`)).json() as Video).views;
    // 40 page views at once from 20 visitors, each twice: one group, 20 counted.
    const ips = Array.from({ length: 20 }, (_, i) => `10.3.8.${i + 1}`);
    const answers = await Promise.all([...ips, ...ips].map(view));
    const counted = answers.map((a) => a.json<{ counted: boolean }>().counted);
    expect(counted.filter(Boolean)).toHaveLength(20);
    expect(((await get(`/api/videos/${notBought.id}`)).json() as Video).views).toBe(before + 20);
  });
});

describe('deleting', () => {
  const del = (id: number, cookie?: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/videos/${id}`, headers: cookie ? { cookie } : {} });

  it('refuses strangers and visitors', async () => {
    expect((await del(bought.id, stranger.cookie)).statusCode).toBe(403);
    expect((await del(bought.id)).statusCode).toBe(401);
  });

  it('removes the video, what refers to it and its media files', async () => {
    const video = await createVideo(t, owner.id);
    await createPurchase(t, buyer.id, video);
    await storeObject(t, `videos/${video.id}/video.mp4`, 'bytes');
    await storeObject(t, `videos/${video.id}/hls/index.m3u8`, '#EXTM3U');
    // Another video's folder whose name starts the same ('videos/12' and 'videos/120') stays.
    await storeObject(t, `videos/${video.id}0/video.mp4`, 'not this one');

    const response = await del(video.id, owner.cookie);
    expect(response.statusCode).toBe(200);
    expect((await get(`/api/videos/${video.id}`, owner.cookie)).statusCode).toBe(404);
    expect(await storedKeys(t, `videos/${video.id}/`)).toEqual([]);
    expect(await storedKeys(t, `videos/${video.id}0/`)).toEqual([`videos/${video.id}0/video.mp4`]);
    const count = async (table: string) => {
      const result = await t.database.db.execute(
        sql.raw(`select count(*)::int as n from ${table} where video_id = ${video.id}`),
      );
      return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
    };
    expect(await count('purchases')).toBe(0);
    // The buyer keeps the record of what they bought, no longer pointing at a video.
    const kept = await t.database.db.execute(
      sql`select video_title, selections_snapshot from purchases where user_id = ${buyer.id} and video_id is null`,
    );
    expect((kept as unknown as { rows: unknown[] }).rows).toEqual([
      { video_title: video.title, selections_snapshot: video.emailInformation },
    ]);
    expect(await count('video_views')).toBe(0);
    // The capper's sale stays (they were paid), no longer pointing at a video.
    const sales = await t.database.db.execute(
      sql`select count(*)::int as n from sales where seller_id = ${owner.id} and video_id is null`,
    );
    expect((sales as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    expect((await del(video.id, owner.cookie)).statusCode).toBe(404);
  });

  it('lets an admin delete any video', async () => {
    const video = await createVideo(t, owner.id);
    expect((await del(video.id, admin.cookie)).statusCode).toBe(200);
  });

  it('removes the files later, retried until the store takes it, when it fails after the commit', async () => {
    const video = await createVideo(t, owner.id);
    await storeObject(t, `videos/${video.id}/video.mp4`, 'bytes');
    const removePrefix = vi
      .spyOn(t.app.storage, 'removePrefix')
      .mockRejectedValueOnce(new Error('the store is away'))
      .mockRejectedValueOnce(new Error('still away'));
    try {
      // The rows are gone and the answer says so; the files wait for the job runner.
      expect((await del(video.id, owner.cookie)).statusCode).toBe(200);
      expect(await storedKeys(t, `videos/${video.id}/`)).toEqual([`videos/${video.id}/video.mp4`]);
      const job = async () =>
        (
          await t.database.db
            .select()
            .from(jobs)
            .where(
              and(
                eq(jobs.kind, REMOVE_MEDIA.kind),
                sql`${jobs.payload}->>'prefix' = ${`videos/${video.id}`}`,
              ),
            )
        )[0]!;
      expect((await job()).status).toBe('queued');
      expect(t.logs()).toContain('could not remove media now');
      // Not before it is due (the request's own attempt comes first); then it fails again, and is queued again.
      expect(await t.app.mediaJobs.runUntilIdle()).toBe(0);
      const makeDue = async () =>
        t.database.db
          .update(jobs)
          .set({ runAt: sql`now() - interval '1 second'` })
          .where(eq(jobs.id, (await job()).id));
      await makeDue();
      expect(await t.app.mediaJobs.runUntilIdle()).toBe(1);
      expect((await job()).status).toBe('queued');
      expect(await storedKeys(t, `videos/${video.id}/`)).toEqual([`videos/${video.id}/video.mp4`]);
      await makeDue();
      expect(await t.app.mediaJobs.runUntilIdle()).toBe(1);
      expect((await job()).status).toBe('done');
      expect(await storedKeys(t, `videos/${video.id}/`)).toEqual([]);
      expect(removePrefix).toHaveBeenCalledTimes(3);
    } finally {
      removePrefix.mockRestore();
    }
  });
});
