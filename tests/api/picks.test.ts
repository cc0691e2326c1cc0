// Sealed picks without a market (decision 020): sealed at posting, versions before the lock, refused after
// it, graded by the scoreboard, and kept when deleted. With no market every leg is self-reported: shown,
// never counted (decision 025); market-bound picks are market-picks.test.ts's.
import { createHash } from 'node:crypto';
import { eq, sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalBytes } from '#common/pick-seal.js';
import type { PickView } from '#common/schemas/pick-views.js';
import {
  LINE_REQUIRED_MESSAGE,
  ODDS_MESSAGE,
  PARLAY_LEGS_MESSAGE,
  START_IN_FUTURE_MESSAGE,
  TOO_MANY_LEGS_MESSAGE,
} from '#common/schemas/picks.js';
import type { Video } from '#common/schemas/videos.js';
import { rowsOf } from '#server/db/rows.js';
import { events, picks, videos } from '#server/db/schema.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { settleEvent, gradeLegByHand, correctEvent } from '#server/features/picks/grading-service.js';
import { PICK_LOCKED_MESSAGE, NOT_REVEALED_MESSAGE } from '#server/features/picks/picks-service.js';
import { createPurchase } from '../setup/fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, tusMetadata, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
let capper: { cookie: string; id: number; username: string };
let rival: { cookie: string; id: number; username: string };
let buyer: { cookie: string; id: number };
let admin: { cookie: string; id: number };
let ip = 0;
const nextIp = () => `10.14.0.${++ip}`;

const HOUR = 3600_000;
const inHours = (hours: number) =>
  new Date(Date.now() + hours * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
const LATER = new Date(Date.now() + 1000 * HOUR); // past every leg's start: the clock the grading tests use
let game = 0;

function leg(overrides: Record<string, unknown> = {}) {
  return {
    league: 'NBA',
    home: 'Lakers',
    away: 'Celtics',
    startsAt: inHours(24),
    market: 'spread',
    side: 'Lakers',
    line: -3.5,
    odds: -110,
    units: 1,
    ...overrides,
  };
}

/** A new game of its own, so tests never share an event unless they mean to. */
function newGame(overrides: Record<string, unknown> = {}) {
  game += 1;
  return leg({ home: `Home ${game}`, away: `Away ${game}`, side: `Home ${game}`, ...overrides });
}

const external = (fields: Record<string, string>) => ({
  ...VALID_FIELDS,
  isExternalVideo: 'true',
  externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  duration: '',
  ...fields,
});

async function post(legs: unknown[], fields: Record<string, string> = {}, cookie = capper.cookie) {
  return postVideo(t.app, cookie, external({ legs: JSON.stringify(legs), ...fields }));
}

async function postOk(legs: unknown[], fields: Record<string, string> = {}, cookie = capper.cookie) {
  const response = await post(legs, fields, cookie);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}

const pickOf = async (videoId: number) => t.app.inject({ method: 'GET', url: `/api/picks/${videoId}` });
const revealOf = async (videoId: number) =>
  t.app.inject({ method: 'GET', url: `/api/picks/${videoId}/reveal` });
const patch = (videoId: number, payload: Record<string, unknown>, cookie = capper.cookie) =>
  t.app.inject({ method: 'PATCH', url: `/api/videos/${videoId}`, payload, headers: { cookie } });

async function videoRow(id: number) {
  const [row] = await t.database.db.select().from(videos).where(eq(videos.id, id));
  return row!;
}

async function eventIdOf(videoId: number): Promise<number> {
  const rows = rowsOf<{ event_id: number }>(
    await t.database.db.execute(
      sql`select event_id from pick_legs where video_id = ${videoId} order by position`,
    ),
  );
  return rows[0]!.event_id;
}

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, nextIp());
  rival = await registerUser(t.app, {}, nextIp());
  buyer = await registerUser(t.app, {}, nextIp());
  admin = await registerUser(t.app, {}, nextIp());
  await setAdmin(t.database.db, admin.id, true);
});

afterAll(async () => {
  await t?.close();
});

describe('posting a pick with legs', () => {
  it('seals it: the commitment is public, the legs and selections are not', async () => {
    const video = await postOk([
      newGame(),
      newGame({ market: 'total', side: 'Over', line: 220.5, odds: 150 }),
    ]);
    const response = await pickOf(video.id);
    expect(response.statusCode, response.body).toBe(200);
    const pick = response.json<PickView>();
    expect(pick).toMatchObject({
      videoId: video.id,
      status: 'open',
      legCount: 2,
      parlay: false,
      removed: null,
    });
    expect(pick.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(pick.versions).toEqual([{ version: 1, commitment: pick.commitment, postedAt: pick.postedAt }]);
    expect(pick.result).toBeUndefined();
    // The card and the video page show the commitment to everyone, signed out included.
    const card = (await t.app.inject({ method: 'GET', url: `/api/videos/${video.id}` })).json<Video>();
    expect(card.pick).toEqual({
      commitment: pick.commitment,
      postedAt: pick.postedAt,
      legCount: 2,
      status: 'open',
      result: null,
      unitsWon: null,
      selfReported: true,
    });
    const unverified = await postOk([]);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/videos/${unverified.id}` })).json<Video>().pick,
    ).toBeNull();
    // Nothing of the legs or selections in the public answers.
    for (const url of [`/api/picks/${video.id}`, `/api/videos/${video.id}`]) {
      const body = (await t.app.inject({ method: 'GET', url })).body;
      expect(body).not.toContain('Home ');
      expect(body).not.toContain(VALID_FIELDS.emailInformation);
    }
    const reveal = await revealOf(video.id);
    expect(reveal.statusCode).toBe(403);
    expect(reveal.json().message).toBe(NOT_REVEALED_MESSAGE);
  });

  it('commits to the RFC 8785 bytes of the sealed pick, salt included', async () => {
    const start = new Date(Date.now() + 48 * HOUR);
    start.setUTCSeconds(5, 0);
    // The start as a capper in UTC+2 writes it: sealed in UTC.
    const local = new Date(start.getTime() + 2 * HOUR).toISOString().replace('.000Z', '+02:00');
    const video = await postOk([newGame({ startsAt: local })]);
    const [row] = await t.database.db.select().from(picks).where(eq(picks.videoId, video.id));
    const sealed = JSON.parse(row!.sealed);
    expect(sealed).toMatchObject({
      v: 2,
      capper: capper.username,
      videoId: video.id,
      selections: VALID_FIELDS.emailInformation,
      parlay: false,
    });
    expect(sealed.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(sealed.legs[0]).toMatchObject({
      startsAt: start.toISOString().replace('.000Z', 'Z'),
      side: `Home ${game}`,
      line: -3.5,
    });
    // A self-reported leg: no market game and no price evidence sealed with it.
    expect(sealed.legs[0].game).toBeUndefined();
    expect(sealed.legs[0].price).toBeUndefined();
    expect(row!.selfReported).toBe(true);
    expect(new TextDecoder().decode(canonicalBytes(sealed))).toBe(row!.sealed);
    expect(createHash('sha256').update(row!.sealed).digest('hex')).toBe(row!.commitment);
  });

  it('leaves a video without legs unverified', async () => {
    const video = await postOk([]);
    expect((await pickOf(video.id)).statusCode).toBe(404);
  });

  it('refuses bad legs with a clear message', async () => {
    const cases: [unknown, string][] = [
      [[newGame({ odds: 50 })], ODDS_MESSAGE],
      [[newGame({ startsAt: inHours(-1) })], START_IN_FUTURE_MESSAGE],
      [[newGame({ line: null })], LINE_REQUIRED_MESSAGE],
      [Array.from({ length: 13 }, () => newGame()), TOO_MANY_LEGS_MESSAGE],
    ];
    for (const [legs, message] of cases) {
      const response = await post(legs as unknown[]);
      expect(response.statusCode, JSON.stringify(legs)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const parlay = await post([newGame()], { parlay: 'true' });
    expect(parlay.statusCode).toBe(400);
    expect(parlay.json().message).toBe(PARLAY_LEGS_MESSAGE);
    const notJson = await postVideo(t.app, capper.cookie, external({ legs: '[{' }));
    expect(notJson.statusCode).toBe(400);
  });

  it('makes one event of one game, whoever posts on it, and lists it to no one but its cappers', async () => {
    const startsAt = inHours(30);
    const shared = { home: 'Knicks', away: 'Nets', startsAt, side: 'Knicks' };
    const first = await postOk([leg(shared)]);
    const second = await postOk(
      [leg({ ...shared, home: 'KNICKS', away: 'nets', side: 'nets' })],
      {},
      rival.cookie,
    );
    expect(await eventIdOf(second.id)).toBe(await eventIdOf(first.id));
    const gamesFor = async (cookie?: string) => {
      const list = await t.app.inject({
        method: 'GET',
        url: '/api/events?league=NBA',
        ...(cookie && { headers: { cookie } }),
      });
      expect(list.statusCode).toBe(200);
      return list
        .json<{ home: string; away: string; startsAt: string }[]>()
        .filter((e) => e.startsAt === startsAt);
    };
    expect(await gamesFor(capper.cookie)).toHaveLength(1);
    expect(await gamesFor(rival.cookie)).toHaveLength(1);
    // An open pick's game is not told to anyone else, signed in or not.
    expect(await gamesFor(buyer.cookie)).toEqual([]);
    expect(await gamesFor()).toEqual([]);
    const refused = await t.app.inject({ method: 'GET', url: '/api/events?league=Chess' });
    expect(refused.statusCode).toBe(400);
  });

  it('refuses, over tus, legs that have started, before any byte is sent', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': tusMetadata({
          ...VALID_FIELDS,
          legs: JSON.stringify([newGame({ startsAt: inHours(-2) })]),
        }),
        cookie: capper.cookie,
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(START_IN_FUTURE_MESSAGE);
  });
});

describe('the legs before the reveal', () => {
  it('shows them to the owner, a buyer and an admin, and to no one else', async () => {
    const g = newGame({ odds: 125 });
    const video = await postOk([g]);
    const url = `/api/picks/${video.id}/legs`;
    const as = (cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    expect((await as()).statusCode).toBe(401);
    const stranger = await as(rival.cookie);
    expect(stranger.statusCode).toBe(403);
    const own = await as(capper.cookie);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({
      version: 1,
      parlay: false,
      legs: [{ home: g.home, odds: 125, line: -3.5 }],
    });
    expect((await as(admin.cookie)).statusCode).toBe(200);
    await createPurchase(t, buyer.id, await videoRow(video.id));
    expect((await as(buyer.cookie)).statusCode).toBe(200);
  });
});

describe('revisions and the lock', () => {
  it('seals a new version before the first sale, and lists every earlier one', async () => {
    const video = await postOk([newGame()]);
    const first = (await pickOf(video.id)).json<PickView>();
    const titleOnly = await patch(video.id, { title: 'A new title' });
    expect(titleOnly.statusCode, titleOnly.body).toBe(200);
    expect((await pickOf(video.id)).json<PickView>().versions).toHaveLength(1);
    const revised = await patch(video.id, { legs: [newGame({ odds: 120 })] });
    expect(revised.statusCode, revised.body).toBe(200);
    const second = (await pickOf(video.id)).json<PickView>();
    expect(second.versions.map((v) => v.commitment)).toEqual([first.commitment, second.commitment]);
    expect(second.commitment).not.toBe(first.commitment);
    const selections = await patch(video.id, { emailInformation: 'Home team, 2 units' });
    expect(selections.statusCode).toBe(200);
    expect((await pickOf(video.id)).json<PickView>().versions).toHaveLength(3);
  });

  it('refuses a change of selections or legs once sold (409); title and price stay editable', async () => {
    const video = await postOk([newGame()]);
    await createPurchase(t, buyer.id, await videoRow(video.id));
    for (const change of [
      { legs: [newGame()] },
      { emailInformation: 'Changed after the sale' },
      { parlay: true },
    ]) {
      const refused = await patch(video.id, change);
      expect(refused.statusCode, JSON.stringify(change)).toBe(409);
      expect(refused.json().message).toBe(PICK_LOCKED_MESSAGE);
    }
    expect((await patch(video.id, { title: 'Still editable', price: 30 })).statusCode).toBe(200);
  });

  it('refuses a change once the first leg has started', async () => {
    const video = await postOk([newGame()]);
    await t.database.db.execute(
      sql`update picks set locks_at = now() - interval '1 minute' where video_id = ${video.id}`,
    );
    const refused = await patch(video.id, { legs: [newGame()] });
    expect(refused.statusCode).toBe(409);
    expect((await pickOf(video.id)).json<PickView>().status).toBe('started');
  });
});

describe('grading by the scoreboard', () => {
  it('grades every pick on an event from its final score, then reveals them', async () => {
    const g = newGame();
    const mine = await postOk([g]); // Home -3.5 at -110
    const theirs = await postOk([{ ...g, side: g.away, line: 3.5, odds: 105, units: 2 }], {}, rival.cookie);
    const eventId = await eventIdOf(mine.id);
    expect(await eventIdOf(theirs.id)).toBe(eventId);
    // The profile is cached: read it before grading, so the grade must clear it to show. Self-reported
    // picks are listed in their own table, never in the record.
    const record = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/cappers/${rival.username}` })).json<{
        records: { all: { graded: number } };
        selfReportedTotal: number;
      }>().selfReportedTotal;
    const before = await record();
    const graded = await settleEvent(
      t.database.db,
      eventId,
      { status: 'final', homeScore: 110, awayScore: 100 },
      { adminId: admin.id, source: 'admin' },
      LATER,
    );
    expect(graded).toEqual({ legs: 2, picks: 2 });
    expect((await pickOf(mine.id)).json<PickView>()).toMatchObject({
      status: 'graded',
      result: 'win',
      unitsWon: 0.91,
    });
    expect((await pickOf(theirs.id)).json<PickView>()).toMatchObject({ result: 'loss', unitsWon: -2 });
    expect(await record()).toBe(before + 1);
    const reveal = await revealOf(mine.id);
    expect(reveal.statusCode, reveal.body).toBe(200);
    const { sealed, commitment } = reveal.json();
    expect(createHash('sha256').update(canonicalBytes(sealed)).digest('hex')).toBe(commitment);
    expect(sealed.legs[0]).toMatchObject({ side: g.home, line: -3.5, odds: -110 });
    // Once only: a second result is a correction.
    await expect(
      settleEvent(
        t.database.db,
        eventId,
        { status: 'cancelled' },
        { adminId: admin.id, source: 'admin' },
        LATER,
      ),
    ).rejects.toMatchObject({ statusCode: 409 });
  });

  it('pays a parlay the product of its odds, and a correction regrades it with before and after logged', async () => {
    const a = newGame({ odds: -110 });
    const b = newGame({ market: 'moneyline', line: null, odds: -110 });
    const video = await postOk([a, b], { parlay: 'true' });
    const [eventA, eventB] = rowsOf<{ event_id: number }>(
      await t.database.db.execute(
        sql`select event_id from pick_legs where video_id = ${video.id} order by position`,
      ),
    ).map((r) => r.event_id);
    const by = { adminId: admin.id, source: 'admin' };
    await settleEvent(t.database.db, eventA!, { status: 'final', homeScore: 100, awayScore: 90 }, by, LATER);
    expect((await pickOf(video.id)).json<PickView>().result).toBeUndefined();
    await settleEvent(t.database.db, eventB!, { status: 'final', homeScore: 99, awayScore: 98 }, by, LATER);
    expect((await pickOf(video.id)).json<PickView>()).toMatchObject({ result: 'win', unitsWon: 2.64 });
    await correctEvent(
      t.database.db,
      eventB!,
      { status: 'final', homeScore: 97, awayScore: 98 },
      admin,
      'Box score fixed',
      LATER,
    );
    expect((await pickOf(video.id)).json<PickView>()).toMatchObject({ result: 'loss', unitsWon: -1 });
    const audit = rowsOf<{ before: unknown; after: unknown }>(
      await t.database.db.execute(
        sql`select before, after from audit_log where action = 'event.correct' and target_id = ${eventB!}`,
      ),
    );
    expect(audit).toEqual([
      {
        before: { status: 'final', homeScore: 99, awayScore: 98, reason: null },
        after: { status: 'final', homeScore: 97, awayScore: 98, reason: 'Box score fixed' },
      },
    ]);
  });

  it('voids the legs of a postponed event, and leaves props to an admin', async () => {
    const postponed = newGame();
    const prop = newGame({ market: 'prop', side: 'LeBron over 25.5 points', line: null, odds: 120 });
    const video = await postOk([postponed, prop]);
    const [eventA, eventB] = rowsOf<{ event_id: number }>(
      await t.database.db.execute(
        sql`select event_id from pick_legs where video_id = ${video.id} order by position`,
      ),
    ).map((r) => r.event_id);
    const by = { adminId: null, source: 'feed' };
    await settleEvent(t.database.db, eventA!, { status: 'postponed' }, by, LATER);
    await settleEvent(t.database.db, eventB!, { status: 'final', homeScore: 1, awayScore: 0 }, by, LATER);
    expect((await pickOf(video.id)).json<PickView>().result).toBeUndefined();
    const [propLeg] = rowsOf<{ id: number }>(
      await t.database.db.execute(
        sql`select id from pick_legs where video_id = ${video.id} and market = 'prop'`,
      ),
    );
    await gradeLegByHand(t.database.db, propLeg!.id, 'win', 'He scored 31', admin);
    expect((await pickOf(video.id)).json<PickView>()).toMatchObject({ result: 'win', unitsWon: 1.2 });
    const [event] = await t.database.db.select().from(events).where(eq(events.id, eventA!));
    expect(event!.status).toBe('postponed');
  });
});

describe('deleting a pick', () => {
  it('lets an untouched pick go with its video', async () => {
    const video = await postOk([newGame()]);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/videos/${video.id}`,
      headers: { cookie: capper.cookie },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await pickOf(video.id)).statusCode).toBe(404);
  });

  it("keeps a started pick on the capper's record when the capper deletes it", async () => {
    const video = await postOk([newGame()]);
    await t.database.db.execute(
      sql`update picks set locks_at = now() - interval '1 minute' where video_id = ${video.id}`,
    );
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/videos/${video.id}`,
      headers: { cookie: capper.cookie },
    });
    expect(deleted.statusCode).toBe(200);
    const pick = await pickOf(video.id);
    expect(pick.statusCode).toBe(200);
    expect(pick.json<PickView>().removed).toBe('capper');
    expect((await t.app.inject({ method: 'GET', url: `/api/videos/${video.id}` })).statusCode).toBe(404);
  });

  it('marks a pick removed by moderation, without its result', async () => {
    const video = await postOk([newGame()]);
    await settleEvent(
      t.database.db,
      await eventIdOf(video.id),
      { status: 'final', homeScore: 1, awayScore: 50 },
      { adminId: admin.id, source: 'admin' },
      LATER,
    );
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${video.id}`,
      headers: { cookie: admin.cookie },
    });
    expect(deleted.statusCode).toBe(200);
    const pick = (await pickOf(video.id)).json<PickView>();
    expect(pick.removed).toBe('moderation');
    expect(pick.result).toBeUndefined();
    expect((await revealOf(video.id)).statusCode).toBe(403);
  });
});
