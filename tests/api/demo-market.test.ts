// The demo's market picks (docs/decisions/025, 013): the demo cappers post picks through the app's own API on
// the market's games starting soon, at its prices; the app closes, grades and measures them as any pick.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapperProfile } from '#common/schemas/cappers.js';
import { DEMO_CAPPERS } from '#server/demo/index.js';
import { postDemoMarketPicks } from '#server/demo/demo-market-picks.js';
import { forgetRecords } from '#server/features/cappers/index.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { marketGame, type TestGame } from '../setup/market.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

let t: TestApp;
let url: string;
const games: TestGame[] = [];
const inMinutes = (minutes: number) =>
  new Date(Math.round((Date.now() + minutes * 60_000) / 1000) * 1000).toISOString().replace('.000Z', 'Z');

beforeAll(async () => {
  t = await createTestApp({ market: true });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (const league of ['NBA', 'NHL', 'NFL', 'MLB'] as const)
    for (const minutes of [15, 30, 45])
      games.push(await marketGame(t, { league, startsAt: inMinutes(minutes) }));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('the demo market picks', () => {
  it('are posted by every demo capper on games starting soon, bound to the market, and not twice', async () => {
    const lines: string[] = [];
    const posted = await postDemoMarketPicks(url, { log: (line) => lines.push(line) });
    expect(posted).toBeGreaterThanOrEqual(DEMO_CAPPERS.length * 2);
    expect(lines.filter((line) => line.includes('not posted'))).toEqual([]);
    for (const { username } of DEMO_CAPPERS) {
      forgetRecords(t.database.db);
      const profile = (
        await t.app.inject({ method: 'GET', url: `/api/cappers/${username}` })
      ).json<CapperProfile>();
      expect(profile.open.length, username).toBeGreaterThan(0);
      expect(
        profile.open.every((pick) => !pick.selfReported),
        username,
      ).toBe(true);
    }
    const [legs] = rowsOf<{ n: number; priced: number }>(
      await t.database.db.execute(
        sql`select count(*)::int as n, count(book)::int as priced from pick_legs where not self_reported`,
      ),
    );
    expect(legs!.priced).toBe(legs!.n);
    expect(await postDemoMarketPicks(url, { log: () => {} })).toBe(0);
  }, 180_000); // every demo capper posts, and each pick uploads a clip of its own game

  it('are closed, graded from the final scores and given their CLV', async () => {
    const later = new Date(Date.now() + 2 * 3600_000);
    for (const game of games) {
      t.standIn!.setScore(game.game.id, {
        home: 5 + (game.eventId % 7),
        away: 4 + (game.eventId % 5),
        completed: true,
      });
      await t.app.market!.refreshNow(game.game.league, { scoresDays: 1 }, later);
    }
    const [picks] = rowsOf<{ graded: number; all: number }>(
      await t.database.db.execute(
        sql`select count(result)::int as graded, count(*)::int as all from picks where not self_reported`,
      ),
    );
    expect(picks!.graded).toBe(picks!.all);
    const { username } = DEMO_CAPPERS[0];
    forgetRecords(t.database.db);
    const profile = (
      await t.app.inject({ method: 'GET', url: `/api/cappers/${username}` })
    ).json<CapperProfile>();
    expect(profile.records.all.graded).toBeGreaterThan(0);
    expect(profile.records.all.clv).not.toBeNull();
    const revealed = profile.graded[0]!;
    expect(revealed.legs[0]!.price).toBeDefined();
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/picks/${revealed.videoId}/reveal` })).statusCode,
    ).toBe(200);
    expect(revealed.states.every((state) => state.clv !== null)).toBe(true);
  });
});
