// The demo content: put in through a running app's own API, as SEED_DEMO does at start and
// `npm run seed:demo` does beside a running server. Its clips go through the real upload route and media job
// runner, so each is a ready video with its own thumbnail, MP4, HLS and duration; its YouTube links carry
// YouTube's thumbnail; its bettors' purchases go through the sandbox checkout; its cappers' verified picks
// are sealed and the past ones graded; a second run adds nothing.
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq, inArray, sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summariseRecord, type LegResult } from '#common/pick-grading.js';
import { canonicalBytes } from '#common/pick-seal.js';
import { PickRevealSchema, PickViewSchema } from '#common/schemas/pick-views.js';
import { rowsOf } from '#server/db/rows.js';
import {
  events,
  jobs,
  paymentIntents,
  pickLegs,
  picks,
  pickVersions,
  purchases,
  sales,
  users,
  videos,
} from '#server/db/schema.js';
import {
  DEMO_BETTORS,
  DEMO_CAPPERS,
  DEMO_PASSWORD,
  DEMO_USERNAMES,
  demoPurchases,
  demoVideos,
} from '#server/demo/demo-content.js';
import { EMPTY_CATALOG_HINT, offerDemoContent } from '#server/demo/demo-on-start.js';
import { seedDemoPicks } from '#server/demo/demo-picks-seed.js';
import { demoPickPlan } from '#server/demo/demo-picks.js';
import { DEMO_TOKEN_HEADER, seedDemo } from '#server/demo/demo-seed.js';
import { readDemoToken } from '#server/demo/demo-token.js';
import { correctEvent, type EventOutcome } from '#server/features/picks/grading-service.js';
import { CLIP_SECONDS } from '#server/demo/demo-clips.js';
import { PROCESS_VIDEO, REMOVE_MEDIA } from '#server/media/media-jobs.js';
import { mediaTools, run } from '#server/media/ffmpeg.js';
import { videoMediaKeys } from '#server/media/storage.js';
import { storedBytes } from '../setup/stored-media.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { multipart, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
let url: string;
const stop = new AbortController();
const options = () => ({
  db: t.database.db,
  seedDemo: true,
  host: '127.0.0.1',
  market: false,
  dataDir: t.config.dataDir,
});
const hints = () => t.logs().split(EMPTY_CATALOG_HINT).length - 1;

const list = demoVideos();
const fileTitles = list.map((video) => video.title);
/** What the server refuses in a pick's title or description: a side with its line or market. */
const GIVEAWAY = [
  /\b(ML|moneyline)\b/i,
  /\b(over|under)\s*\d/i,
  /\b[ou]\s?\d+(\.\d)?\b/,
  /[A-Za-z]\s+[+-]\d+(\.\d+)?\b/,
  /\b(run ?line|puck ?line)\b/i,
];

async function counts() {
  const db = t.database.db;
  return {
    users: (await db.select({ id: users.id }).from(users)).length,
    videos: (await db.select({ id: videos.id }).from(videos)).length,
    // The media's jobs: a grading's alerts (a job the outbox queues in its own time) are not a post.
    jobs: (
      await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(inArray(jobs.kind, [PROCESS_VIDEO.kind, REMOVE_MEDIA.kind]))
    ).length,
    intents: (await db.select({ id: paymentIntents.id }).from(paymentIntents)).length,
    purchases: (await db.select({ id: purchases.id }).from(purchases)).length,
    sales: (await db.select({ id: sales.id }).from(sales)).length,
    picks: (await db.select({ id: picks.videoId }).from(picks)).length,
    versions: (await db.select({ id: pickVersions.videoId }).from(pickVersions)).length,
    legs: (await db.select({ id: pickLegs.id }).from(pickLegs)).length,
    events: (await db.select({ id: events.id }).from(events)).length,
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
    // The demo's clips and links; the verified picks' videos are looked at below.
    const titles = new Set(list.map((video) => video.title));
    const pickTitles = new Set(demoPickPlan(new Date()).map((p) => p.title));
    expect(
      rows
        .filter((row) => !pickTitles.has(row.video.title))
        .map((row) => row.video.title)
        .sort(),
    ).toEqual([...titles].sort());
    for (const { video, username } of rows.filter((row) => titles.has(row.video.title))) {
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
        duration: CLIP_SECONDS,
        hlsUrl: `/media/${keys.hlsPlaylist}`,
      });
      expect(video.thumbnailUrl).toMatch(new RegExp(`^/media/${keys.thumbnail}\\?v=`));
      expect(video.videoUrl).toMatch(new RegExp(`^/media/${keys.mp4}\\?v=`));
      for (const key of [keys.thumbnail, keys.mp4, keys.hlsPlaylist])
        expect(await t.app.storage.stat(key), key).not.toBeNull();
      thumbnailHashes.add(
        createHash('sha256')
          .update((await storedBytes(t, keys.thumbnail))!)
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

    // No links anywhere in the demo: every video, the verified picks' too, is a processed preview clip.
    for (const { video } of rows) {
      expect(video.isExternalVideo, video.title).toBe(false);
      expect(video.externalVideoUrl, video.title).toBeNull();
      expect(video.videoUrl, video.title).toMatch(/^\/media\/videos\/\d+\/video\.mp4\?v=/);
      expect(video.thumbnailUrl, video.title).toMatch(/^\/media\/videos\/\d+\/thumb\.jpg\?v=/);
    }

    // A clip is a playable MP4 of 6 to 10 seconds with a picture and a sound track.
    const probed = JSON.parse(
      await run(mediaTools().ffprobe, [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_type,codec_name:format=duration',
        '-of',
        'json',
        `${url}${files[0]!.videoUrl}`,
      ]),
    ) as { streams: { codec_type: string; codec_name: string }[]; format: { duration: string } };
    expect(probed.streams.map((stream) => `${stream.codec_type}:${stream.codec_name}`).sort()).toEqual([
      'audio:aac',
      'video:h264',
    ]);
    expect(Number(probed.format.duration)).toBeGreaterThanOrEqual(6);
    expect(Number(probed.format.duration)).toBeLessThanOrEqual(10);
  }, 240_000);

  it('titles and descriptions never give a pick away, and the category follows the legs', async () => {
    const rows = rowsOf<{ title: string; description: string; category: string; leagues: string[] | null }>(
      await t.database.db.execute(sql`
        select v.title, v.description, v.category,
          (select array_agg(distinct e.league) from pick_legs l join events e on e.id = l.event_id
            where l.video_id = v.id) as leagues
        from videos v`),
    );
    expect(rows.length).toBeGreaterThan(150);
    for (const row of rows) {
      for (const text of [row.title, row.description])
        for (const rule of GIVEAWAY) expect(text, `${row.title}: ${String(rule)}`).not.toMatch(rule);
      const leagues = row.leagues ?? [];
      expect(row.category, row.title).toBe(
        leagues.length === 0 ? 'General' : leagues.length === 1 ? leagues[0] : 'Parlays',
      );
    }
  });

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

  it("posts each demo capper's verified picks: 20+ graded in 90 days, some open, some unverified videos", async () => {
    const now = Date.now();
    for (const { username } of DEMO_CAPPERS) {
      const rows = rowsOf<{
        video_id: number | null;
        result: string | null;
        graded_at: Date | string | null;
        locks_at: Date | string | null;
        legs: number;
      }>(
        await t.database.db.execute(sql`
          select p.video_id, p.result, p.graded_at, p.locks_at,
            (select count(*)::int from pick_legs l where l.video_id = p.video_id) as legs
          from videos v join users u on u.id = v.user_id left join picks p on p.video_id = v.id
          where u.username = ${username}`),
      );
      const graded = rows.filter((row) => row.result !== null);
      const open = rows.filter((row) => row.video_id !== null && row.result === null);
      const unverified = rows.filter((row) => row.video_id === null);
      const inDays = (days: number) =>
        graded.filter((row) => row.result !== 'void' && now - +new Date(row.graded_at!) <= days * 86_400_000);
      expect(graded.length, username).toBeGreaterThanOrEqual(38);
      expect(inDays(90).length, username).toBeGreaterThanOrEqual(20);
      expect(inDays(30).length, username).toBeGreaterThan(0);
      // Graded in the past, over the last 120 days; open picks on games to come, each with its legs.
      expect(
        graded.every((row) => +new Date(row.graded_at!) < now),
        username,
      ).toBe(true);
      expect(
        graded.some((row) => now - +new Date(row.graded_at!) > 100 * 86_400_000),
        username,
      ).toBe(true);
      expect(open.length, username).toBeGreaterThanOrEqual(2);
      expect(open.length, username).toBeLessThanOrEqual(4);
      expect(
        open.every((row) => +new Date(row.locks_at!) > now),
        username,
      ).toBe(true);
      expect(
        rows.every((row) => row.video_id === null || row.legs > 0),
        username,
      ).toBe(true);
      expect(unverified.length, username).toBeGreaterThan(0);
    }
    // A postponed game voids its legs; props are graded by hand, with a reason.
    const [voided] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`
        select count(*)::int as n from pick_legs l join events e on e.id = l.event_id
        where e.status = 'postponed' and l.result = 'void'`),
    );
    expect(voided!.n).toBeGreaterThan(0);
    const [props] = rowsOf<{ n: number; reasons: number }>(
      await t.database.db.execute(sql`
        select count(*)::int as n, count(grade_reason)::int as reasons from pick_legs
        where market = 'prop' and result is not null`),
    );
    expect(props!.n).toBeGreaterThan(0);
    expect(props!.reasons).toBe(props!.n);
  });

  it('gives the cappers different records: one clearly winning, one losing, one near even', async () => {
    const records = new Map<string, ReturnType<typeof summariseRecord>>();
    for (const { username } of DEMO_CAPPERS) {
      const rows = await t.database.db
        .select({
          result: picks.result,
          unitsWon: picks.unitsWon,
          unitsRisked: picks.unitsRisked,
          win: picks.betsWon,
          loss: picks.betsLost,
          push: picks.betsPushed,
          void: picks.betsVoid,
        })
        .from(picks)
        .innerJoin(users, eq(users.id, picks.userId))
        .where(sql`${users.username} = ${username} and ${picks.result} is not null`);
      records.set(
        username,
        summariseRecord(
          rows.map((row) => ({
            result: row.result as LegResult,
            unitsWon: row.unitsWon!,
            unitsRisked: row.unitsRisked!,
            bets: { win: row.win, loss: row.loss, push: row.push, void: row.void },
          })),
        ),
      );
    }
    const units = [...records.values()].map((record) => record.unitsWon);
    expect(new Set(units).size).toBe(DEMO_CAPPERS.length);
    expect(Math.max(...units)).toBeGreaterThan(10);
    expect(Math.min(...units)).toBeLessThan(-5);
    expect(units.some((u) => Math.abs(u) < 5)).toBe(true);
    expect(new Set([...records.values()].map((record) => record.winPct)).size).toBe(DEMO_CAPPERS.length);
  });

  it('answers GET /api/picks/:id, and a graded pick reveals the sealed pick that its commitment hashes', async () => {
    const [graded] = await t.database.db
      .select({ videoId: picks.videoId, parlay: picks.parlay })
      .from(picks)
      .where(sql`${picks.result} is not null and ${picks.parlay}`)
      .limit(1);
    const [open] = await t.database.db
      .select({ videoId: picks.videoId })
      .from(picks)
      .where(sql`${picks.result} is null`)
      .limit(1);
    const view = await t.app.inject({ method: 'GET', url: `/api/picks/${graded!.videoId}` });
    expect(view.statusCode).toBe(200);
    const pick = PickViewSchema.parse(view.json());
    expect(pick).toMatchObject({ videoId: graded!.videoId, status: 'graded', parlay: true });
    expect(pick.result).toBeDefined();
    expect(pick.versions).toHaveLength(1);

    const openView = await t.app.inject({ method: 'GET', url: `/api/picks/${open!.videoId}` });
    expect(openView.statusCode).toBe(200);
    expect(openView.json()).toMatchObject({ status: 'open' });
    expect(openView.json()).not.toHaveProperty('result');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/picks/${open!.videoId}/reveal` })).statusCode,
    ).toBe(403);

    const reveal = await t.app.inject({ method: 'GET', url: `/api/picks/${graded!.videoId}/reveal` });
    expect(reveal.statusCode).toBe(200);
    const { sealed, commitment } = PickRevealSchema.parse(reveal.json());
    expect(commitment).toBe(pick.commitment);
    expect(createHash('sha256').update(canonicalBytes(sealed)).digest('hex')).toBe(commitment);
    expect(sealed.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(sealed.videoId).toBe(graded!.videoId);
    expect(DEMO_CAPPERS.map((c) => c.username)).toContain(sealed.capper);
    // Sealed before the games began, as a pick must be.
    expect(sealed.postedAt).toBe(pick.postedAt);
    expect(sealed.legs.length).toBeGreaterThanOrEqual(2);
    for (const leg of sealed.legs)
      expect(Date.parse(leg.startsAt)).toBeGreaterThan(Date.parse(sealed.postedAt));
  });

  it('grades exactly as the grading service does: regrading every demo game by rule changes no result', async () => {
    const snapshot = async () => ({
      legs: await t.database.db
        .select({ id: pickLegs.id, result: pickLegs.result })
        .from(pickLegs)
        .orderBy(pickLegs.id),
      picks: await t.database.db
        .select({
          id: picks.videoId,
          result: picks.result,
          won: picks.unitsWon,
          risked: picks.unitsRisked,
          at: picks.gradedAt,
        })
        .from(picks)
        .orderBy(picks.videoId),
    });
    const before = await snapshot();
    const admin = await registerUser(t.app, {}, '10.12.0.3');
    await t.database.db.update(users).set({ isAdmin: true }).where(eq(users.id, admin.id));
    const settled = await t.database.db
      .select()
      .from(events)
      .where(sql`${events.status} <> 'scheduled'`);
    expect(settled.length).toBeGreaterThan(100);
    for (const event of settled) {
      const outcome: EventOutcome =
        event.status === 'final'
          ? { status: 'final', homeScore: event.homeScore!, awayScore: event.awayScore! }
          : { status: event.status as 'postponed' | 'cancelled' };
      await correctEvent(t.database.db, event.id, outcome, admin, 'Check of the demo grades');
    }
    expect(await snapshot()).toEqual(before);
    expect(before.picks.filter((p) => p.result !== null).length).toBeGreaterThan(150);
  }, 120_000);

  it('a later run settles the open demo picks whose games have been played, and posts nothing twice', async () => {
    const before = await counts();
    const again = await seedDemoPicks(t.database.db, { log: () => undefined });
    expect(again).toEqual({ posted: 0, settled: 0, graded: 0 });
    const weekLater = new Date(Date.now() + 8 * 86_400_000);
    const later = await seedDemoPicks(t.database.db, { log: () => undefined, now: weekLater });
    expect(later.posted).toBe(0);
    expect(later.graded).toBeGreaterThanOrEqual(2 * DEMO_CAPPERS.length);
    expect(await counts()).toEqual(before);
    const [left] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from picks where result is null`),
    );
    expect(left!.n).toBe(0);
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
    const result = await seedDemo(url, {
      log: (line) => lines.push(line),
      signal: stop.signal,
      token: readDemoToken(t.config.dataDir),
    });
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
    // The history route too: not for other accounts, and not on a catalog with others' videos.
    const asOther = await t.app.inject({
      method: 'POST',
      url: '/api/demo/history',
      headers: { cookie: capper.cookie },
    });
    expect(asOther.statusCode).toBe(403);
    const demoCapper = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: DEMO_CAPPERS[0].username, password: DEMO_PASSWORD },
      remoteAddress: '10.12.0.4',
    });
    const cookie = demoCapper.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    // A demo capper without the token in the server's DATA_DIR: anyone could register a demo name.
    const withoutToken = await t.app.inject({
      method: 'POST',
      url: '/api/demo/history',
      headers: { cookie },
    });
    expect(withoutToken.statusCode).toBe(403);
    expect(withoutToken.json().message).toMatch(/server's own machine/);
    const wrongToken = await t.app.inject({
      method: 'POST',
      url: '/api/demo/history',
      headers: { cookie, [DEMO_TOKEN_HEADER]: 'f'.repeat(64) },
    });
    expect(wrongToken.statusCode).toBe(403);
    const asDemo = await t.app.inject({
      method: 'POST',
      url: '/api/demo/history',
      headers: { cookie, [DEMO_TOKEN_HEADER]: readDemoToken(t.config.dataDir)! },
    });
    expect(asDemo.statusCode).toBe(409);
    expect(await counts()).toEqual(before);
  });
});
