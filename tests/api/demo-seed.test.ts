// The demo content (issue 12): put in through a running app's own API, as SEED_DEMO does at start and
// `npm run seed:demo` does beside a running server. Its clips go through the real upload route and media job
// runner, so each is a ready video with its own thumbnail, MP4, HLS and duration; its YouTube links carry
// YouTube's thumbnail; its bettors' purchases go through the sandbox checkout; a second run adds nothing.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, paymentIntents, purchases, sales, users, videos } from '#server/db/schema.js';
import {
  DEMO_BETTORS,
  DEMO_CAPPERS,
  DEMO_PASSWORD,
  DEMO_USERNAMES,
  demoPurchases,
  demoVideos,
} from '#server/features/demo/demo-content.js';
import { EMPTY_CATALOG_HINT, offerDemoContent } from '#server/features/demo/demo-on-start.js';
import { seedDemo } from '#server/features/demo/demo-seed.js';
import { videoMediaKeys } from '#server/media/storage.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { multipart, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
let url: string;
const stop = new AbortController();
const options = () => ({ db: t.database.db, seedDemo: true, host: '127.0.0.1' });
const hints = () => t.logs().split(EMPTY_CATALOG_HINT).length - 1;

const list = demoVideos();
const fileTitles = list.filter((video) => !video.link).map((video) => video.title);
const linkTitles = list.filter((video) => video.link).map((video) => video.title);

async function counts() {
  const db = t.database.db;
  return {
    users: (await db.select({ id: users.id }).from(users)).length,
    videos: (await db.select({ id: videos.id }).from(videos)).length,
    jobs: (await db.select({ id: jobs.id }).from(jobs)).length,
    intents: (await db.select({ id: paymentIntents.id }).from(paymentIntents)).length,
    purchases: (await db.select({ id: purchases.id }).from(purchases)).length,
    sales: (await db.select({ id: sales.id }).from(sales)).length,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.app.mediaJobs.start();
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  stop.abort();
  await t?.close();
});

describe('demo content through the app', () => {
  it('says at start how to get demo content while the catalog is empty', async () => {
    await offerDemoContent(t.app, { ...options(), seedDemo: false }, stop.signal);
    expect(hints()).toBe(1);
    expect(await counts()).toMatchObject({ videos: 0 });
  });

  it('with SEED_DEMO, makes each clip a ready video with its own thumbnail, MP4, HLS and duration', async () => {
    await offerDemoContent(t.app, options(), stop.signal);
    expect(t.logs()).toContain('Demo content ready');
    expect(t.logs()).not.toContain('demo seed failed');

    const rows = await t.database.db
      .select({ video: videos, username: users.username })
      .from(videos)
      .innerJoin(users, eq(users.id, videos.userId));
    expect(rows.map((row) => row.video.title).sort()).toEqual(list.map((video) => video.title).sort());
    for (const { video, username } of rows) {
      expect(username).toBe(list.find((demo) => demo.title === video.title)!.capper);
    }

    const files = rows.filter((row) => fileTitles.includes(row.video.title)).map((row) => row.video);
    expect(files).toHaveLength(fileTitles.length);
    const thumbnailHashes = new Set<string>();
    for (const video of files) {
      const keys = videoMediaKeys(video.id);
      expect(video).toMatchObject({
        isExternalVideo: false,
        transcodingStatus: 'ready',
        isTranscoded: true,
        duration: 4,
        hlsUrl: `/media/${keys.hlsPlaylist}`,
      });
      expect(video.thumbnailUrl).toMatch(new RegExp(`^/media/${keys.thumbnail}\\?v=`));
      expect(video.videoUrl).toMatch(new RegExp(`^/media/${keys.mp4}\\?v=`));
      for (const key of [keys.thumbnail, keys.mp4, keys.hlsPlaylist]) {
        const file = path.join(t.config.dataDir, 'media', key);
        expect(existsSync(file), key).toBe(true);
      }
      thumbnailHashes.add(
        createHash('sha256')
          .update(readFileSync(path.join(t.config.dataDir, 'media', keys.thumbnail)))
          .digest('hex'),
      );
      // Served as the player asks for them.
      const mp4 = await fetch(`${url}${video.videoUrl}`, { headers: { range: 'bytes=0-99' } });
      expect(mp4.status).toBe(206);
      expect(mp4.headers.get('content-type')).toBe('video/mp4');
      const thumb = await fetch(`${url}${video.thumbnailUrl}`);
      expect(thumb.headers.get('content-type')).toBe('image/jpeg');
      expect((await fetch(`${url}${video.hlsUrl}`)).status).toBe(200);
    }
    // Its own picture each: the matchup is drawn on every clip (or, without drawtext, a different colour).
    expect(thumbnailHashes.size).toBe(files.length);

    const links = rows.filter((row) => linkTitles.includes(row.video.title)).map((row) => row.video);
    expect(links).toHaveLength(linkTitles.length);
    for (const video of links) {
      const id = /(?:v=|youtu\.be\/|shorts\/)([\w-]{11})/.exec(video.externalVideoUrl ?? '')?.[1];
      expect(id, video.externalVideoUrl ?? '').toBeDefined();
      expect(video).toMatchObject({
        isExternalVideo: true,
        transcodingStatus: 'ready',
        thumbnailUrl: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
      });
    }
  }, 240_000);

  it('buys through the sandbox checkout: succeeded intents, purchases and sales for the demo bettors', async () => {
    const bettors = await t.database.db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(inArray(users.username, [...DEMO_BETTORS]));
    expect(bettors).toHaveLength(DEMO_BETTORS.length);
    const bought = await t.database.db
      .select({ buyer: purchases.userId, title: purchases.videoTitle, intent: paymentIntents.status })
      .from(purchases)
      .innerJoin(paymentIntents, eq(paymentIntents.id, purchases.paymentIntentId));
    const expected = demoPurchases(list).map(
      ({ bettor, video }) => `${bettors.find((b) => b.username === bettor)!.id} ${video.title}`,
    );
    expect(bought.map((row) => `${row.buyer} ${row.title}`).sort()).toEqual(expected.sort());
    expect(new Set(bought.map((row) => row.intent))).toEqual(new Set(['succeeded']));
    expect((await counts()).sales).toBe(expected.length);
  });

  it('signs every demo account in with the demo password', async () => {
    for (const username of DEMO_USERNAMES) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username, password: DEMO_PASSWORD },
        remoteAddress: '10.12.0.1',
      });
      expect(response.statusCode, username).toBe(200);
    }
    const capper = await t.database.db
      .select()
      .from(users)
      .where(eq(users.username, DEMO_CAPPERS[0].username));
    expect(capper[0]).toMatchObject({ displayName: DEMO_CAPPERS[0].displayName, bio: DEMO_CAPPERS[0].bio });
  });

  it('adds nothing when run again against the running server, and no hint once there is content', async () => {
    const before = await counts();
    const lines: string[] = [];
    const result = await seedDemo(url, { log: (line) => lines.push(line), signal: stop.signal });
    expect(result).toMatchObject({ videos: list.length, added: 0, purchases: 0, ready: fileTitles.length });
    expect(await counts()).toEqual(before);
    expect(lines.join('\n')).toContain(`all ${list.length} demo videos are in the catalog already`);

    await offerDemoContent(t.app, options(), stop.signal);
    await offerDemoContent(t.app, { ...options(), seedDemo: false }, stop.signal);
    expect(await counts()).toEqual(before);
    expect(hints()).toBe(1);
  }, 60_000);

  it('with SEED_DEMO, leaves a catalog with videos of other accounts alone', async () => {
    const capper = await registerUser(t.app, {}, '10.12.0.2');
    const { payload, headers } = multipart({
      ...VALID_FIELDS,
      isExternalVideo: 'true',
      externalVideoUrl: 'https://youtu.be/dQw4w9WgXcQ',
    });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/videos',
      payload,
      headers: { ...headers, cookie: capper.cookie },
    });
    expect(created.statusCode).toBe(201);
    const before = await counts();
    await offerDemoContent(t.app, options(), stop.signal);
    expect(t.logs()).toContain('the catalog has videos of other accounts; demo content not added');
    expect(await counts()).toEqual(before);
  });
});
