// The market's ticks (docs/decisions/025): what each reads from the provider and when, the closing snapshot
// before a start, grading from the provider's scores, and staying up when the provider is down or its quota
// runs low or out: the last snapshot stays on, the logs say why, nothing throws.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PickView } from '#common/schemas/pick-views.js';
import type { Video } from '#common/schemas/videos.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { inHours, marketGame, marketLeg } from '../setup/market.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
let capper: { cookie: string; id: number; username: string };
const MINUTE = 60_000;

async function postOk(legs: unknown[]): Promise<Video> {
  const response = await postVideo(t.app, capper.cookie, {
    ...VALID_FIELDS,
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    legs: JSON.stringify(legs),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}

const counts = () => ({ ...t.standIn!.requests().counts });

beforeAll(async () => {
  t = await createTestApp({ market: { leagues: 'NBA' } });
  capper = await registerUser(t.app, {}, '10.34.0.1');
});

afterAll(async () => {
  await t?.close();
});

describe('a tick', () => {
  it('reads the free schedule, and prices only for a closing snapshot; then scores, which grade', async () => {
    const later = await marketGame(t, { startsAt: inHours(2) });
    await postOk([marketLeg(later)]);
    // Two hours before that start: the schedule only, no prices.
    await t.database.db.execute(sql`update market_leagues set schedule_at = now() - interval '10 minutes'`);
    let before = counts();
    const early = await t.app.market!.tick();
    expect(early.fetched).toEqual([{ league: 'NBA', kind: 'schedule' }]);
    expect(counts().odds).toBe(before.odds);
    // Ninety seconds before a start (by the real clock: a snapshot's time is the answer's): one closing
    // snapshot, not two.
    const game = await marketGame(t, {
      startsAt: new Date(Date.now() + 90_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    });
    const video = await postOk([marketLeg(game)]);
    const start = new Date(game.game.startsAt);
    await t.database.db.execute(sql`update market_leagues set odds_at = now() - interval '10 minutes'`);
    before = counts();
    const closing = await t.app.market!.tick();
    expect(closing.fetched).toContainEqual({ league: 'NBA', kind: 'odds' });
    expect(counts().odds).toBe(before.odds + 1);
    expect((await t.app.market!.tick()).fetched).not.toContainEqual({ league: 'NBA', kind: 'odds' });
    // After the start: the close is kept; the scores are read once the game is over, and grade it.
    const after = new Date(start.getTime() + 10 * MINUTE);
    const started = await t.app.market!.tick(after);
    expect(started.closed).toBeGreaterThanOrEqual(1);
    t.standIn!.setScore(game.game.id, { home: 101, away: 99, completed: true });
    const graded = await t.app.market!.tick(new Date(after.getTime() + 6 * MINUTE));
    expect(graded.fetched).toContainEqual({ league: 'NBA', kind: 'scores' });
    expect(graded.settled).toBe(1);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/picks/${video.id}` })).json<PickView>(),
    ).toMatchObject({
      status: 'graded',
      result: 'loss', // home −3.5 at 101-99
    });
    expect(t.standIn!.requests().last?.search).toContain('daysFrom=1');
  });

  it('keeps the last snapshot and logs (without the key) while the provider is down; never throws', async () => {
    const game = await marketGame(t, { startsAt: inHours(3) });
    await postOk([marketLeg(game)]);
    t.standIn!.setDown(503);
    try {
      const start = new Date(game.game.startsAt);
      const summary = await t.app.market!.tick(new Date(start.getTime() - MINUTE));
      expect(summary.fetched).toEqual([]);
      expect(t.logs()).toContain('market: a fetch failed; the last snapshot stays on');
      expect(t.logs()).not.toContain(t.standIn!.apiKey);
      const prices = rowsOf<{ n: number }>(
        await t.database.db.execute(
          sql`select count(*)::int as n from event_prices where event_id = ${game.eventId}`,
        ),
      );
      expect(prices[0]!.n).toBe(1);
    } finally {
      t.standIn!.setDown(false);
    }
  });

  it('says when the quota is low, and stops paid fetches for an hour when it is spent', async () => {
    t.standIn!.setCredits(20);
    const game = await marketGame(t, { startsAt: inHours(4) });
    expect(t.logs()).toContain('quota is low');
    await postOk([marketLeg(game)]);
    t.standIn!.setCredits(0);
    // The next paid fetch is refused for want of credits: said once, then no paid call for an hour.
    await expect(t.app.market!.refreshNow('NBA', { odds: true })).rejects.toMatchObject({
      quotaExhausted: true,
    });
    const fresh = await marketGame(t, { startsAt: inHours(5) }).catch((error: unknown) => error);
    expect(fresh).toMatchObject({ quotaExhausted: true });
    const before = counts();
    const start = new Date(game.game.startsAt);
    await t.app.market!.tick(new Date(start.getTime() - MINUTE));
    expect(t.logs()).toContain('usage quota is spent');
    await t.app.market!.tick(new Date(start.getTime() - 30_000));
    expect(counts().odds - before.odds).toBeLessThanOrEqual(1);
    t.standIn!.setCredits(1_000_000);
  });
});

describe('an admin’s refresh', () => {
  it('fetches a followed league now, and says when the market does not answer', async () => {
    const admin = await registerUser(t.app, {}, '10.34.0.2');
    await setAdmin(t.database.db, admin.id, true);
    const refresh = (payload: object, cookie = admin.cookie) =>
      t.app.inject({ method: 'POST', url: '/api/admin/market/refresh', payload, headers: { cookie } });
    await marketGame(t);
    const done = await refresh({ league: 'NBA', schedule: true });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ games: expect.any(Number), closed: 0, settled: 0 });
    expect(done.json().games).toBeGreaterThan(0);
    expect((await refresh({ league: 'NBA' }, capper.cookie)).statusCode).toBe(403);
    expect((await refresh({ league: 'MLB' })).statusCode).toBe(404);
    t.standIn!.setDown(503);
    try {
      const down = await refresh({ league: 'NBA' });
      expect(down.statusCode).toBe(502);
      expect(down.json().message).toMatch(/^The market did not answer: /);
      expect(down.body).not.toContain(t.standIn!.apiKey);
    } finally {
      t.standIn!.setDown(false);
    }
  });
});
