// A capper's record ("The record"): the profile's figures by period and league, the chart, the
// revealed graded picks, open picks, unverified and moderated counts, the leaderboard and the badges.
import { brotliDecompressSync } from 'node:zlib';
import { sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapperProfile, Leaderboard, Records } from '#common/schemas/cappers.js';
import type { PickView } from '#common/schemas/pick-views.js';
import type { Video } from '#common/schemas/videos.js';
import { rowsOf } from '#server/db/rows.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { forgetRecords, keepRecord } from '#server/features/cappers/index.js';
import { settleEvent } from '#server/features/picks/grading-service.js';
import { marketLegFor } from '../setup/market.js';
import { expectBandsKept } from '../setup/record-bands.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let capper: User;
let moderated: User;
let admin: User;
let ip = 0;
const nextIp = () => `10.15.0.${++ip}`;

const HOUR = 3600_000;
const inHours = (hours: number) =>
  new Date(Math.round((Date.now() + hours * HOUR) / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const LATER = new Date(Date.now() + 1000 * HOUR); // past every leg's start
let game = 0;

/**
 * A leg on a market game of its own (or on the game its overrides name, to share one event), priced by the
 * stand-in exactly at its odds: a market-bound leg, counted on the record.
 */
function leg(overrides: Record<string, unknown> = {}) {
  game += 1;
  return marketLegFor(t, {
    league: 'NBA',
    home: `Home ${game}`,
    away: `Away ${game}`,
    startsAt: inHours(24),
    market: 'spread',
    side: `Home ${game}`,
    line: -3.5,
    odds: -110,
    units: 1,
    ...overrides,
  } as Parameters<typeof marketLegFor>[1]);
}

async function postOk(user: User, legs: unknown[], fields: Record<string, string> = {}) {
  const response = await postVideo(t.app, user.cookie, {
    ...VALID_FIELDS,
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    legs: JSON.stringify(legs),
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}

async function eventOf(videoId: number): Promise<number> {
  const rows = rowsOf<{ event_id: number }>(
    await t.database.db.execute(
      sql`select event_id from pick_legs where video_id = ${videoId} order by position`,
    ),
  );
  return rows[0]!.event_id;
}

/** The event's final score, graded as the admin's Results tab would; the cached records are dropped. */
async function settle(videoId: number, homeScore: number, awayScore: number, now = LATER) {
  await settleEvent(
    t.database.db,
    await eventOf(videoId),
    { status: 'final', homeScore, awayScore },
    { adminId: admin.id, source: 'admin' },
    now,
  );
  forgetRecords(t.database.db);
}

/** Picks' grading times moved back, as a writer of picks moves them: through the record (keepRecord). */
async function backdate(ids: readonly number[], days: number) {
  await t.database.db.transaction((tx) =>
    keepRecord(tx, ids, () =>
      tx.execute(sql`update picks set graded_at = now() - make_interval(days => ${days})
        where video_id = any(${sql.param([...ids])}::int[])`),
    ),
  );
  forgetRecords(t.database.db);
}

async function gradedDaysAgo(videoId: number, days: number) {
  await backdate([videoId], days);
}

const get = (url: string) => t.app.inject({ method: 'GET', url });
async function profileOf(username: string, query = ''): Promise<CapperProfile> {
  const response = await get(`/api/cappers/${encodeURIComponent(username)}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CapperProfile>();
}
async function board(query: string): Promise<Leaderboard> {
  const response = await get(`/api/leaderboard${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Leaderboard>();
}

// Every pick here is one bet (a straight one-leg pick) unless said: `picks` is `graded` by default.
const record = (figures: Partial<CapperProfile['records']['all']>) => ({
  wins: 0,
  losses: 0,
  pushes: 0,
  voids: 0,
  graded: 0,
  picks: figures.graded ?? 0,
  winPct: null,
  unitsWon: 0,
  unitsRisked: 0,
  roi: null,
  clv: null,
  ...figures,
});

// The main capper's picks (see 'a capper's record'): two NBA, two NFL, graded at known times.
let p1: Video; // NBA spread -3.5 at -110, 1u: 110-100 → win +0.91
let p2: Video; // NBA moneyline at +150, 2u: 90-100 → loss -2 (graded 45 days ago)
let p3: Video; // NFL spread -3 at -110, 1u: 20-17 → push (graded after p1)
let p4: Video; // NFL total over 40.5 at +120, 1u: 30-20 → win +1.2 (graded 120 days ago)
let openPick: Video;
let openStartsAt: string;
let startedPick: Video;

beforeAll(async () => {
  t = await createTestApp({ market: true });
  capper = await registerUser(t.app, {}, nextIp());
  moderated = await registerUser(t.app, {}, nextIp());
  admin = await registerUser(t.app, {}, nextIp());
  await setAdmin(t.database.db, admin.id, true);

  p1 = await postOk(capper, [await leg()], { title: 'Pick one' });
  p2 = await postOk(capper, [await leg({ market: 'moneyline', line: null, odds: 150, units: 2 })], {
    title: 'Pick two',
  });
  p3 = await postOk(capper, [await leg({ league: 'NFL', line: -3 })], { title: 'Pick three' });
  p4 = await postOk(
    capper,
    [await leg({ league: 'NFL', market: 'total', side: 'over', line: 40.5, odds: 120 })],
    {
      title: 'Pick four',
    },
  );
  const openLegs = [await leg(), await leg()];
  openStartsAt = openLegs.map((one) => String(one.startsAt)).sort()[0]!;
  openPick = await postOk(capper, openLegs, { title: 'Still open' });
  startedPick = await postOk(capper, [await leg()], { title: 'Under way' });
  await t.database.db.execute(
    sql`update picks set locks_at = now() - interval '1 minute' where video_id = ${startedPick.id}`,
  );
  await postOk(capper, [], { title: 'No legs one' });
  await postOk(capper, [], { title: 'No legs two' });
  await settle(p1.id, 110, 100, LATER);
  await settle(p2.id, 90, 100, LATER);
  await settle(p3.id, 20, 17, new Date(LATER.getTime() + 60_000));
  await settle(p4.id, 30, 20, LATER);
  await gradedDaysAgo(p2.id, 45);
  await gradedDaysAgo(p4.id, 120);
});

afterAll(async () => {
  await t?.close();
});

describe("a capper's record", () => {
  it('answers 404 for a name nobody has', async () => {
    const response = await get('/api/cappers/nobody-by-this-name');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Capper not found' });
  });

  it('counts W-L-P, win %, units and ROI for 30 days, 90 days and all time, by grading time', async () => {
    const profile = await profileOf(capper.username.toUpperCase());
    expect(profile.capper).toEqual({
      username: capper.username,
      displayName: null,
      bio: null,
      avatarUrl: null,
    });
    expect(profile.records.last30).toEqual(
      record({ wins: 1, pushes: 1, graded: 2, winPct: 100, unitsWon: 0.91, unitsRisked: 1, roi: 91 }),
    );
    expect(profile.records.last90).toEqual(
      record({
        wins: 1,
        losses: 1,
        pushes: 1,
        graded: 3,
        winPct: 50,
        unitsWon: -1.09,
        unitsRisked: 3,
        roi: -36.3,
      }),
    );
    expect(profile.records.all).toEqual(
      record({
        wins: 2,
        losses: 1,
        pushes: 1,
        graded: 4,
        winPct: 66.7,
        unitsWon: 0.11,
        unitsRisked: 4,
        roi: 2.8,
      }),
    );
  });

  it('splits the record by league', async () => {
    const profile = await profileOf(capper.username);
    expect(profile.byLeague).toEqual([
      {
        league: 'NBA',
        record: record({
          wins: 1,
          losses: 1,
          graded: 2,
          winPct: 50,
          unitsWon: -1.09,
          unitsRisked: 3,
          roi: -36.3,
        }),
      },
      {
        league: 'NFL',
        record: record({
          wins: 1,
          pushes: 1,
          graded: 2,
          winPct: 100,
          unitsWon: 1.2,
          unitsRisked: 1,
          roi: 120,
        }),
      },
    ]);
  });

  it('charts the cumulative units in grading order', async () => {
    const { chart } = await profileOf(capper.username);
    expect(chart.map((point) => point.units)).toEqual([1.2, -0.8, 0.11, 0.11]);
    const times = chart.map((point) => Date.parse(point.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('lists the graded picks newest first with their revealed legs, paged', async () => {
    const profile = await profileOf(capper.username);
    expect(profile.gradedTotal).toBe(4);
    expect(profile.graded.map((pick) => pick.videoId)).toEqual([p3.id, p1.id, p2.id, p4.id]);
    const first = profile.graded[1]!;
    const view = (await get(`/api/picks/${p1.id}`)).json<PickView>();
    expect(first).toMatchObject({
      videoId: p1.id,
      title: 'Pick one',
      result: 'win',
      unitsWon: 0.91,
      commitment: view.commitment,
      postedAt: view.postedAt,
      parlay: false,
    });
    expect(first.legs).toEqual([
      expect.objectContaining({ league: 'NBA', market: 'spread', line: -3.5, odds: -110, units: 1 }),
    ]);
    expect(profile.graded.find((pick) => pick.videoId === p2.id)).toMatchObject({
      result: 'loss',
      unitsWon: -2,
    });
    expect(profile.graded.find((pick) => pick.videoId === p3.id)).toMatchObject({
      result: 'push',
      unitsWon: 0,
    });
    const page = await profileOf(capper.username, '?limit=2&offset=1');
    expect(page.graded.map((pick) => pick.videoId)).toEqual([p1.id, p2.id]);
    // Every page carries the same record, read once for the capper, and its own picks' leg states.
    const { graded: _pageGraded, ...pageRecord } = page;
    const { graded: _firstGraded, ...firstRecord } = profile;
    expect(pageRecord).toEqual(firstRecord);
    expect(page.graded[0]!.states).toEqual(first.states);
    expect(first.states).toHaveLength(1);
    expect((await get(`/api/cappers/${capper.username}?limit=101`)).statusCode).toBe(400);
  });

  it('shows open picks sealed (commitment and post time, no legs) and counts unverified videos', async () => {
    const profile = await profileOf(capper.username);
    expect(profile.open.map((pick) => pick.videoId)).toEqual([startedPick.id, openPick.id]);
    const open = profile.open.find((pick) => pick.videoId === openPick.id)!;
    expect(open).toEqual({
      videoId: openPick.id,
      title: 'Still open',
      commitment: openPick.pick!.commitment,
      postedAt: openPick.pick!.postedAt,
      legCount: 2,
      status: 'open',
      selfReported: false,
      // The storefront sells it: the price as charged, its league, and when sales close.
      price: openPick.price,
      league: 'NBA',
      startsAt: openStartsAt,
      onSale: true,
    });
    expect(profile.open.find((pick) => pick.videoId === startedPick.id)!.status).toBe('started');
    expect(profile.graded.map((pick) => pick.videoId)).not.toContain(openPick.id);
    expect(profile.unverified).toBe(2);
    expect(profile.removedByModeration).toBe(0);
  });

  it('never counts a pick removed by moderation, and still counts one the capper removed', async () => {
    const kept = await postOk(moderated, [await leg({ units: 3 })]);
    const gone = await postOk(moderated, [await leg()]);
    await t.database.db.execute(
      sql`update picks set locks_at = now() - interval '1 minute' where video_id = ${kept.id}`,
    );
    const byCapper = await t.app.inject({
      method: 'DELETE',
      url: `/api/videos/${kept.id}`,
      headers: { cookie: moderated.cookie },
    });
    expect(byCapper.statusCode).toBe(200);
    await settle(kept.id, 90, 100); // loss, 3u
    await settle(gone.id, 120, 100); // a win, then removed by moderation
    // Read (and cached) with the win counted: the moderation must show at once, not after the cache's seconds.
    expect((await profileOf(moderated.username)).records.all.graded).toBe(2);
    const byAdmin = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${gone.id}`,
      headers: { cookie: admin.cookie },
    });
    expect(byAdmin.statusCode).toBe(200);
    const profile = await profileOf(moderated.username);
    expect(profile.records.all).toEqual(
      record({ losses: 1, graded: 1, winPct: 0, unitsWon: -3, unitsRisked: 3, roi: -100 }),
    );
    expect(profile.graded.map((pick) => pick.videoId)).toEqual([kept.id]);
    expect(profile.chart.map((point) => point.units)).toEqual([-3]);
    expect(profile.open).toEqual([]);
    expect(profile.removedByModeration).toBe(1);
    const body = JSON.stringify(profile);
    expect(body).not.toContain(`"videoId":${gone.id}`);
    // The deletes kept the bands in their transactions.
    expect(await expectBandsKept(t.database.db)).toBeGreaterThan(0);
  });

  it('serves a cached answer within its TTL until the records change', async () => {
    const before = await profileOf(capper.username);
    await postOk(capper, [], { title: 'No legs three' });
    expect((await profileOf(capper.username)).unverified).toBe(before.unverified);
    forgetRecords(t.database.db);
    expect((await profileOf(capper.username)).unverified).toBe(before.unverified + 1);
  });

  it('shows a revised open pick at once: its new commitment, not the cached one', async () => {
    const video = await postOk(capper, [await leg()], { title: 'Revised at once' });
    forgetRecords(t.database.db); // a new post shows within the cache's seconds (the test above); read it now
    const before = (await profileOf(capper.username)).open.find((pick) => pick.videoId === video.id)!;
    expect(before.commitment).toBe(video.pick!.commitment);
    const revised = await t.app.inject({
      method: 'PATCH',
      url: `/api/videos/${video.id}`,
      payload: { legs: [await leg({ odds: 125 })] },
      headers: { cookie: capper.cookie },
    });
    expect(revised.statusCode, revised.body).toBe(200);
    const after = (await profileOf(capper.username)).open.find((pick) => pick.videoId === video.id)!;
    expect(after.commitment).toBe(revised.json<Video>().pick!.commitment);
    expect(after.commitment).not.toBe(before.commitment);
  });

  it('sends the profile as ready-made bytes: an ETag, 304 on a match, compressed when accepted', async () => {
    const url = `/api/cappers/${capper.username}`;
    const get = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
    const plain = await get();
    expect(plain.statusCode).toBe(200);
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"/);
    expect((await get({ 'if-none-match': etag })).statusCode).toBe(304);
    const br = await get({ 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const board = await t.app.inject({ method: 'GET', url: '/api/leaderboard' });
    expect(board.statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/leaderboard',
          headers: { 'if-none-match': String(board.headers.etag) },
        })
      ).statusCode,
    ).toBe(304);
  });
});

describe('the leaderboard', () => {
  let units: User; // 21 wins at -110, 5u each: +95.55u, ROI 91 %, NBA, graded now
  let roi: User; // 20 wins at +100, 1u each: +20u, ROI 100 %, NFL, graded 45 days ago
  let short: User; // 19 wins: below the threshold

  async function postMany(user: User, count: number, onGame: Record<string, unknown>) {
    const first = await postOk(user, [await leg(onGame)]);
    for (let i = 1; i < count; i += 1) await postOk(user, [await leg(onGame)]);
    return first;
  }

  beforeAll(async () => {
    units = await registerUser(t.app, {}, nextIp());
    roi = await registerUser(t.app, {}, nextIp());
    short = await registerUser(t.app, {}, nextIp());
    // Every pick of one capper on one game: one score grades them all.
    const gameOf = (name: string, league: string, odds: number, stake: number) => ({
      league,
      home: `${name} Home`,
      away: `${name} Away`,
      side: `${name} Home`,
      market: 'moneyline',
      line: null,
      odds,
      units: stake,
      startsAt: inHours(30),
    });
    const a = await postMany(units, 21, gameOf('Units', 'NBA', -110, 5));
    const b = await postMany(roi, 20, gameOf('Roi', 'NFL', 100, 1));
    const c = await postMany(short, 19, gameOf('Short', 'NBA', 100, 1));
    await settle(a.id, 100, 90);
    await settle(b.id, 100, 90);
    await settle(c.id, 100, 90);
    const ofRoi = rowsOf<{ id: number }>(
      await t.database.db.execute(sql`select video_id as id from picks where user_id = ${roi.id}`),
    );
    await backdate(
      ofRoi.map((row) => row.id),
      45,
    );
    await expectBandsKept(t.database.db);
  }, 120_000);

  it('ranks by units by default, only cappers with at least 20 graded picks, the pick count shown', async () => {
    const result = await board('');
    expect(result.minPicks).toBe(20);
    expect(result.total).toBe(2);
    expect(result.entries.map((entry) => [entry.rank, entry.username])).toEqual([
      [1, units.username],
      [2, roi.username],
    ]);
    expect(result.entries[0]).toEqual({
      rank: 1,
      username: units.username,
      displayName: null,
      avatarUrl: null,
      record: record({ wins: 21, graded: 21, winPct: 100, unitsWon: 95.55, unitsRisked: 105, roi: 91 }),
    });
    expect(result.entries[1]!.record).toEqual(
      record({ wins: 20, graded: 20, winPct: 100, unitsWon: 20, unitsRisked: 20, roi: 100 }),
    );
  });

  it('ranks by ROI when asked', async () => {
    const result = await board('?sort=roi');
    expect(result.entries.map((entry) => entry.username)).toEqual([roi.username, units.username]);
  });

  it('filters by period and league', async () => {
    expect((await board('?period=30')).entries.map((entry) => entry.username)).toEqual([units.username]);
    expect((await board('?period=90')).entries.map((entry) => entry.username)).toEqual([
      units.username,
      roi.username,
    ]);
    expect((await board('?league=NFL')).entries.map((entry) => entry.username)).toEqual([roi.username]);
    expect((await board('?league=NFL&period=30')).entries).toEqual([]);
    expect((await board('?league=MLB')).total).toBe(0);
  });

  it('pages, and refuses a period, league or sort it does not know', async () => {
    const second = await board('?limit=1&offset=1');
    expect(second.entries.map((entry) => [entry.rank, entry.username])).toEqual([[2, roi.username]]);
    expect(second.total).toBe(2);
    expect((await board('?offset=5')).total).toBe(2);
    for (const query of ['?period=7', '?league=Cricket', '?sort=wins']) {
      const response = await get(`/api/leaderboard${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ message: string }>().message).toBeTruthy();
    }
  });
});

describe('record badges', () => {
  it("answers each known capper's all-time record by username, in one request", async () => {
    const response = await get(
      `/api/records?usernames=${capper.username.toUpperCase()},${moderated.username},nobody-here,${admin.username}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const records = response.json<Records>();
    expect(Object.keys(records).sort()).toEqual([admin.username, capper.username, moderated.username].sort());
    // The profile's all-time record, and its latest counted results, oldest first, for the card's dots.
    const profile = await profileOf(capper.username);
    const { lastResults, ...summary } = records[capper.username]!;
    expect(summary).toEqual(profile.records.all);
    expect(lastResults).toEqual(
      profile.graded
        .slice(0, 10)
        .map((pick) => pick.result)
        .reverse(),
    );
    expect(lastResults.length).toBeGreaterThan(0);
    expect(records[moderated.username]).toMatchObject({ losses: 1, graded: 1, unitsWon: -3 });
    expect(records[admin.username]).toEqual({ ...record({}), lastResults: [] });
  });

  it('refuses more than 60 names, or none', async () => {
    const names = Array.from({ length: 61 }, (_, i) => `name${i}`).join(',');
    expect((await get(`/api/records?usernames=${names}`)).statusCode).toBe(400);
    expect((await get('/api/records?usernames=,')).statusCode).toBe(400);
    expect((await get('/api/records')).statusCode).toBe(400);
  });
});
