// Final scores from ESPN's public scoreboard (MARKET_SCORES=espn, docs/decisions/025): free, no key, and
// matched to the market's games by their teams and start, however each provider spells the city.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PickView } from '#common/schemas/pick-views.js';
import type { Video } from '#common/schemas/videos.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { marketGame, marketLeg } from '../setup/market.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
let espn: Server;
let events: unknown[] = [];
const paths: string[] = [];

/** An ESPN scoreboard event as its JSON writes one: competitors with homeAway, scores as text. */
function espnEvent(id: string, date: string, home: string, away: string, score: [number, number] | null) {
  const status = score
    ? { type: { name: 'STATUS_FINAL', state: 'post', completed: true } }
    : { type: { name: 'STATUS_SCHEDULED', state: 'pre', completed: false } };
  return {
    id,
    date,
    status,
    competitions: [
      {
        date,
        status,
        competitors: [
          { homeAway: 'home', team: { displayName: home }, ...(score && { score: String(score[0]) }) },
          { homeAway: 'away', team: { displayName: away }, ...(score && { score: String(score[1]) }) },
        ],
      },
    ],
  };
}

beforeAll(async () => {
  espn = createServer((request, response) => {
    paths.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ events }));
  });
  await new Promise<void>((resolve) => espn.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(espn.address() as AddressInfo).port}`;
  t = await createTestApp({ market: { leagues: 'NBA' }, env: { MARKET_SCORES: 'espn', ESPN_URL: url } });
});

afterAll(async () => {
  await t?.close();
  espn?.close();
});

describe('scores from ESPN', () => {
  it('grade the market game ESPN names by its teams, without spending the provider’s credits', async () => {
    const capper = await registerUser(t.app, {}, '10.35.0.1');
    const game = await marketGame(t, { home: 'Los Angeles Foxes', away: 'St. Louis Owls' });
    const response = await postVideo(t.app, capper.cookie, {
      ...VALID_FIELDS,
      isExternalVideo: 'true',
      externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      duration: '',
      legs: JSON.stringify([marketLeg(game, { market: 'moneyline', line: null })]),
    });
    expect(response.statusCode, response.body).toBe(201);
    const video = response.json<Video>();
    const start = game.game.startsAt.replace(/:00Z$/, 'Z');
    events = [
      // The same game as ESPN writes it; and another game of the same night that is not ours.
      espnEvent('401', start, 'LA Foxes', 'St Louis Owls', [99, 104]),
      espnEvent('402', start, 'Denver Foxes', 'Boston Owls', [120, 80]),
    ];
    const scoresBefore = t.standIn!.requests().counts.scores;
    const later = new Date(Date.parse(game.game.startsAt) + 4 * 3600_000);
    const { settled } = await t.app.market!.refreshNow('NBA', { scoresDays: 1 }, later);
    expect(settled).toBe(1);
    expect(t.standIn!.requests().counts.scores).toBe(scoresBefore);
    expect(paths.at(-1)).toMatch(/^\/apis\/site\/v2\/sports\/basketball\/nba\/scoreboard\?dates=\d{8}-\d{8}/);
    const [event] = rowsOf<{ status: string; home_score: number; away_score: number; source: string }>(
      await t.database.db.execute(
        sql`select status, home_score, away_score, source from events where id = ${game.eventId}`,
      ),
    );
    expect(event).toEqual({ status: 'final', home_score: 99, away_score: 104, source: 'espn' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/picks/${video.id}` })).json<PickView>(),
    ).toMatchObject({
      status: 'graded',
      result: 'loss',
    });
  });

  it('is refused at start for a league ESPN has no scoreboard of', async () => {
    await expect(
      createTestApp({
        market: { leagues: 'NBA,UFC/MMA=mma_mixed_martial_arts' },
        env: { MARKET_SCORES: 'espn' },
      }),
    ).rejects.toThrow(/MARKET_SCORES: ESPN's scoreboard has no UFC\/MMA/);
  });
});
