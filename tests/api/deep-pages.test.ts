// Deep catalog pages start from in-memory checkpoints (deep-pages.ts): every page must be the one
// OFFSET gives, for every order, before and after the catalog changes.
import { sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_SORTS, type Video, type VideoListQuery } from '#common/schemas/videos.js';
import { DeepPages } from '#server/features/videos/deep-pages.js';
import { listPublicVideos } from '#server/features/videos/videos-repository.js';
import { toPublicVideo } from '#server/features/videos/videos-service.js';
import { multipart, VALID_FIELDS } from '../setup/upload-requests.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

let t: TestApp;
let capper: { cookie: string; id: number };
let other: { cookie: string; id: number };
const VIDEOS = 2_400;
/** Around checkpoints (every 100), below where a page may scan them (1,000), and past the end. */
const OFFSETS = [1_000, 1_001, 1_099, 1_100, 1_234, 1_999, 2_000, 2_288, 2_300, 2_330, 2_399, 2_400, 3_000];
const SHALLOW = [0, 99, 100, 550, 999];

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, '10.11.0.1');
  other = await registerUser(t.app, {}, '10.11.0.2');
  // Ties in every order (three videos a minute, four prices, fifty view counts), so the id decides; some
  // not ready, so the catalog's filter counts.
  await t.database.db.execute(sql`
    insert into videos (user_id, title, description, price_cents, category, transcoding_status,
                        transcoding_progress, is_transcoded, views, created_at)
    select case when g % 3 = 0 then ${other.id}::int else ${capper.id}::int end,
           'Deep pick #' || g, 'A video for deep pages, number ' || g,
           (array[99, 500, 999, 1999])[1 + g % 4], (array['NBA', 'NFL', 'General'])[1 + g % 3],
           case when g % 50 = 0 then 'processing' when g % 97 = 0 then 'failed' else 'ready' end,
           100, true, (g * 37) % 50, now() - ((g / 3) || ' minutes')::interval
    from generate_series(1, ${VIDEOS}::int) as g`);
  t.app.catalog.clear(); // written behind the API's back, as tests/setup/fixtures.ts does
});
afterAll(async () => {
  await t?.close();
});

const deep = () => t.app.catalog.deepPages;

function query(sort: VideoListQuery['sort'], offset: number, limit = 24): VideoListQuery {
  return { sort, offset, limit };
}

/** The page as plain OFFSET gives it, as a visitor receives it. */
async function offsetPage(q: VideoListQuery): Promise<Video[]> {
  const rows = await listPublicVideos(t.database.db, q, null);
  return JSON.parse(JSON.stringify(rows.map((row) => toPublicVideo(row, null)))) as Video[];
}

async function apiPage(q: VideoListQuery, cookie?: string): Promise<Video[]> {
  const params = new URLSearchParams({ sort: q.sort, offset: String(q.offset), limit: String(q.limit) });
  if (q.category) params.set('category', q.category);
  if (q.q) params.set('q', q.q);
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/videos?${params}`,
    headers: cookie ? { cookie } : {},
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Video[]>();
}

let round = 0;
/** Every order at every offset: the API's page is OFFSET's, and each page from 1,000 on came from a checkpoint. */
async function expectEveryDeepPageAsOffset(label: string) {
  // Another page size each round: no page comes from the 2 s page cache of an earlier round.
  round += 1;
  const pages = [...OFFSETS.map((o) => [o, 20 + round]), [1_500, 60 - round], [2_101, round]] as const;
  for (const sort of VIDEO_SORTS) {
    for (const [offset, limit] of pages) {
      const before = deep().counts.fromCheckpoint;
      const page = await apiPage(query(sort, offset, limit));
      expect(page, `${label}: ${sort} at ${offset}, limit ${limit}`).toEqual(
        await offsetPage(query(sort, offset, limit)),
      );
      expect(deep().counts.fromCheckpoint, `${label}: ${sort} at ${offset} from a checkpoint`).toBe(
        before + 1,
      );
    }
  }
}

describe('deep catalog pages', () => {
  it('are the pages OFFSET gives, for every order, from checkpoints', async () => {
    const ready = await offsetPage(query('newest', 2_300, 60));
    expect(ready.length).toBeGreaterThan(0); // the catalog is deep enough for the offsets above
    await expectEveryDeepPageAsOffset('first');
    // Shallow pages, filtered pages and searches are OFFSET's own.
    for (const sort of VIDEO_SORTS) {
      for (const offset of SHALLOW) {
        expect(await apiPage(query(sort, offset))).toEqual(await offsetPage(query(sort, offset)));
      }
      for (const filter of [{ category: 'NFL' as const }, { q: 'deep pick #1' }]) {
        const plainBefore = deep().counts.plainOffset;
        const q = { ...query(sort, 1_100), ...filter };
        expect(await apiPage(q)).toEqual(await offsetPage(q));
        expect(deep().counts.plainOffset).toBe(plainBefore + 1);
      }
    }
  });

  it('a signed-in viewer gets the same videos', async () => {
    const page = await apiPage(query('popular', 1_777), capper.cookie);
    const expected = await offsetPage(query('popular', 1_777));
    expect(page.map((v) => v.id)).toEqual(expected.map((v) => v.id));
    expect(page.length).toBe(24);
  });

  it('stay OFFSET’s pages after a new video, a price change, a removal and a video becoming ready', async () => {
    // Checkpoints exist for every order before each change (the previous round built them).
    await expectEveryDeepPageAsOffset('before the changes');

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/videos',
      ...(() => {
        const { payload, headers } = multipart({
          ...VALID_FIELDS,
          price: '7.5',
          isExternalVideo: 'true',
          externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
          duration: '',
        });
        return { payload, headers: { ...headers, cookie: capper.cookie } };
      })(),
    });
    expect(created.statusCode, created.body).toBe(201);
    await expectEveryDeepPageAsOffset('after a new video');

    // A video deep in every order moves: its price becomes the dearest.
    const [moved] = await offsetPage(query('price_asc', 1_150, 1));
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/videos/${moved!.id}`,
      payload: { price: 99 },
      headers: { cookie: moved!.userId === capper.id ? capper.cookie : other.cookie },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await expectEveryDeepPageAsOffset('after a price change');

    const [removed] = await offsetPage(query('newest', 1_050, 1));
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/videos/${removed!.id}`,
      headers: { cookie: removed!.userId === capper.id ? capper.cookie : other.cookie },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await expectEveryDeepPageAsOffset('after a removal');

    // What the media job does when a transcode finishes: the row, then the cache cleared (video.changed).
    await t.database.db.execute(sql`
      update videos set transcoding_status = 'ready'
      where id = (select id from videos where transcoding_status = 'processing' order by id limit 1)`);
    t.app.catalog.clear();
    await expectEveryDeepPageAsOffset('after a video became ready');
  }, 120_000); // five rounds of every deep page in every order, each checked against OFFSET
});

describe('deep-page checkpoints', () => {
  /** Another instance's change (no clear() here): a new newest video, written straight to the database. */
  async function insertNewest(): Promise<number> {
    const result = await t.database.db.execute(sql`
      insert into videos (user_id, title, description, price_cents, category, transcoding_status, views)
      values (${capper.id}::int, 'Elsewhere', 'Written by another instance', 9999, 'NBA', 'ready', 0)
      returning id`);
    return Number((result as unknown as { rows: { id: number }[] }).rows[0]!.id);
  }

  it('are used for at most MAX_AGE_MS when this process does not see the change', async () => {
    let now = 0;
    const pages = new DeepPages({ now: () => now });
    const db = t.database.db;
    const q = query('newest', 1_510);
    expect(await pages.page(db, q)).toEqual(await listPublicVideos(db, q, null));
    expect(pages.counts).toMatchObject({ scans: 1, fromCheckpoint: 1 });

    const id = await insertNewest();
    try {
      // Within the bound the checkpoints are still used: one video before them all moves the page by one.
      now = DeepPages.MAX_AGE_MS / 2; // not older than half: no scan in the background either
      expect(await pages.page(db, q)).toEqual(
        await listPublicVideos(db, { ...q, offset: q.offset + 1 }, null),
      );
      expect(pages.counts).toMatchObject({ scans: 1, fromCheckpoint: 2 });
      // Past it, never: a new scan first.
      now = DeepPages.MAX_AGE_MS + 1;
      expect(await pages.page(db, q)).toEqual(await listPublicVideos(db, q, null));
      expect(pages.counts).toMatchObject({ scans: 2, fromCheckpoint: 3 });
    } finally {
      await db.execute(sql`delete from videos where id = ${id}::int`);
    }
  });

  it('are never used after clear(), however young', async () => {
    const now = 0;
    const pages = new DeepPages({ now: () => now });
    const db = t.database.db;
    const q = query('price_desc', 1_320);
    expect(await pages.page(db, q)).toEqual(await listPublicVideos(db, q, null));
    const id = await insertNewest();
    try {
      pages.clear(); // what the catalog cache's clear() does after a change in this process
      expect(await pages.page(db, q)).toEqual(await listPublicVideos(db, q, null));
      expect(pages.counts).toMatchObject({ scans: 2, fromCheckpoint: 2 });
    } finally {
      await db.execute(sql`delete from videos where id = ${id}::int`);
    }
  });

  it('popular: views counted since the scan move a page by the videos they carried past its checkpoint', async () => {
    let now = 0;
    const pages = new DeepPages({ now: () => now });
    const db = t.database.db;
    const q = query('popular', 1_234);
    expect(await pages.page(db, q)).toEqual(await listPublicVideos(db, q, null));
    // Views are counted without clearing the cache: the last video of the order becomes the first.
    const counted = await db.execute(
      sql`select count(*)::int as n from videos where transcoding_status = 'ready'`,
    );
    const ready = (counted as unknown as { rows: { n: number }[] }).rows[0]!.n;
    const [last] = await listPublicVideos(db, { sort: 'popular', offset: ready - 1, limit: 1 }, null);
    const video = last!.video;
    await db.execute(sql`update videos set views = views + 1000 where id = ${video.id}::int`);
    try {
      now = DeepPages.MAX_AGE_MS / 2; // not older than half: no scan in the background either
      expect(await pages.page(db, q)).toEqual(
        await listPublicVideos(db, { ...q, offset: q.offset + 1 }, null),
      );
      now = DeepPages.MAX_AGE_MS + 1;
      expect(await pages.page(db, q)).toEqual(await listPublicVideos(db, q, null));
      expect(pages.counts).toMatchObject({ scans: 2, fromCheckpoint: 3 });
    } finally {
      await db.execute(sql`update videos set views = views - 1000 where id = ${video.id}::int`);
    }
  });

  it('on the embedded database (one writer) they live until a change, popular ones MAX_AGE_MS once views move', async () => {
    let now = 0;
    const pages = new DeepPages({ soleWriter: true, now: () => now });
    const db = t.database.db;
    const expectAsOffset = async (q: VideoListQuery) =>
      expect(await pages.page(db, q)).toEqual(await listPublicVideos(db, q, null));
    for (const sort of VIDEO_SORTS) await expectAsOffset(query(sort, 1_400));
    expect(pages.counts).toMatchObject({ scans: 4, fromCheckpoint: 4 });
    now = DeepPages.MAX_AGE_MS + 1;
    for (const sort of VIDEO_SORTS) await expectAsOffset(query(sort, 1_700));
    expect(pages.counts).toMatchObject({ scans: 4, fromCheckpoint: 8 });
    pages.countersMoved(); // views counted: popular's checkpoints are now past their limit
    for (const sort of VIDEO_SORTS) await expectAsOffset(query(sort, 1_600));
    expect(pages.counts).toMatchObject({ scans: 5, fromCheckpoint: 12 });
    now = DeepPages.SOLE_WRITER_MAX_AGE_MS + 1;
    await expectAsOffset(query('newest', 1_800));
    expect(pages.counts).toMatchObject({ scans: 6, fromCheckpoint: 13 });
  });

  it('the app knows which database has one writer, and views shorten popular checkpoints’ life', async () => {
    const pages = t.app.catalog.deepPages;
    const soleWriter = t.database.kind === 'pglite';
    const long = soleWriter ? DeepPages.SOLE_WRITER_MAX_AGE_MS : DeepPages.MAX_AGE_MS;
    const [video] = await apiPage(query('popular', 2_222, 1)); // popular checkpoints exist now
    expect(pages.currentAgeLimitMs('newest')).toBe(long);
    expect(pages.currentAgeLimitMs('popular')).toBe(long);
    const viewed = await t.app.inject({ method: 'POST', url: `/api/videos/${video!.id}/view` });
    expect(viewed.json()).toEqual({ counted: true });
    expect(pages.currentAgeLimitMs('popular')).toBe(DeepPages.MAX_AGE_MS);
    expect(pages.currentAgeLimitMs('newest')).toBe(long);
  });

  it('a scan that was running when the catalog changed is thrown away; the page is OFFSET’s', async () => {
    const pages = new DeepPages();
    const db = t.database.db;
    const q = query('price_desc', 1_900);
    const first = pages.page(db, q);
    pages.clear(); // the change landed while the scan ran
    const second = pages.page(db, q); // does not wait for the scan thrown away: scans again
    const expected = await listPublicVideos(db, q, null);
    expect(await first).toEqual(expected);
    expect(await second).toEqual(expected);
    expect(pages.counts).toMatchObject({ scans: 1, discarded: 1, fromCheckpoint: 1, plainOffset: 1 });
  });

  it('a page read while the catalog changed is read again with OFFSET', async () => {
    const pages = new DeepPages();
    const db = t.database.db;
    const q = query('price_asc', 2_050);
    await pages.page(db, q); // checkpoints scanned
    const page = pages.page(db, q);
    pages.clear(); // before its read came back
    expect(await page).toEqual(await listPublicVideos(db, q, null));
    expect(pages.counts).toMatchObject({ scans: 1, fromCheckpoint: 1, plainOffset: 1 });
  });

  it('pages shallower than BUILD_FROM never scan', async () => {
    const pages = new DeepPages();
    const db = t.database.db;
    const q = query('newest', DeepPages.BUILD_FROM - 1);
    expect(await pages.page(db, q)).toEqual(await listPublicVideos(db, q, null));
    expect(pages.counts).toMatchObject({ scans: 0, plainOffset: 1 });
  });
});
