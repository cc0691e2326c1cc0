// The market in the browser tests (docs/decisions/025): games added to the stand-in the server reads (its
// controls over HTTP), fetched into the app by an admin's refresh, started and finished with a final score
// that the app reads and grades from.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type { EventView } from '#common/schemas/pick-views.js';
import type { League } from '#common/schemas/picks.js';
import type { SettledEventPage } from '#common/schemas/results.js';
import type { Video } from '#common/schemas/videos.js';
import { E2E_ADMIN, E2E_MARKET } from '../setup/e2e-env';
import { expect, test as base } from './catalog-helpers';

/** The catalog's fixtures, and `adminApi`: the e2e admin signed in through the API, apart from the page. */
export const test = base.extend<{ adminApi: APIRequestContext }>({
  adminApi: async ({ playwright, baseURL, extraHTTPHeaders }, use) => {
    // The test's own X-Forwarded-For: the sign-in rate limit counts this test on its own.
    const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders });
    const login = await admin.post('/api/login', { data: E2E_ADMIN });
    expect(login.status(), await login.text()).toBe(200);
    await use(admin);
    await admin.dispose();
  },
});

export { expect };

const standInUrl = () => `http://127.0.0.1:${process.env.E2E_STAND_IN_PORT}`;

async function control(api: APIRequestContext, name: string, body: object): Promise<unknown> {
  const res = await api.post(`${standInUrl()}/__stand-in/${name}`, {
    data: body,
    headers: { 'x-stand-in-key': E2E_MARKET.key },
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

async function refresh(
  admin: APIRequestContext,
  league: League,
  what: { schedule?: boolean; odds?: boolean; scores?: boolean },
) {
  const res = await admin.post('/api/admin/market/refresh', {
    data: { league, schedule: false, odds: false, scores: false, ...what },
  });
  expect(res.status(), await res.text()).toBe(200);
}

export interface MarketTestGame {
  gameId: string;
  eventId: number;
  league: League;
  home: string;
  away: string;
  /** The official start: the one a leg gives (startMarketGame moves it). */
  startsAt: string;
}

/** One book's prices, as the stand-in takes them (American odds; the spread is the home team's point). */
export interface TestBook {
  book: string;
  title: string;
  moneyline: { home: number; away: number };
  spread?: { home: number; homePrice: number; awayPrice: number };
  total?: { point: number; over: number; under: number };
}

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A league's main lines in the default books: the home spread and the total. */
export const mainLines = (league: 'NFL' | 'MLB') =>
  league === 'MLB' ? { spread: -1.5, total: 8.5 } : { spread: -3.5, total: 44.5 };

/** A price 5 cents worse for the bettor: −145 → −150, +150 → +145, and +100 → −105 (no odds lie between). */
const worse = (odds: number) => (odds < 0 ? odds - 5 : odds >= 105 ? odds - 5 : -105);

/**
 * The two books a game is priced by unless told: FanDuel has the best home prices (moneyline, spread, under),
 * DraftKings the best away ones (and the over's). With `moneyline`, FanDuel prices it so and DraftKings
 * 5 cents worse on the home side.
 */
export function defaultBooks(league: 'NFL' | 'MLB', moneyline?: { home: number; away: number }): TestBook[] {
  const { spread, total } = mainLines(league);
  return [
    {
      book: 'draftkings',
      title: 'DraftKings',
      moneyline: moneyline ? { ...moneyline, home: worse(moneyline.home) } : { home: -150, away: 130 },
      spread: { home: spread, homePrice: -110, awayPrice: -108 },
      total: { point: total, over: -110, under: -110 },
    },
    {
      book: 'fanduel',
      title: 'FanDuel',
      moneyline: moneyline ?? { home: -145, away: 125 },
      spread: { home: spread, homePrice: -105, awayPrice: -115 },
      total: { point: total, over: -112, under: -108 },
    },
  ];
}

/** The game's prices on the stand-in are now these books', and the app has read them. */
export async function setMarketPrices(admin: APIRequestContext, game: MarketTestGame, books: TestBook[]) {
  await control(admin, 'set-odds', { id: game.gameId, books });
  await refresh(admin, game.league, { odds: true });
}

/**
 * A game on the market, starting at `startsAt`, priced by `defaultBooks` (or `books`); `admin` is an admin's
 * signed-in context (the refresh is an admin's). Its teams are named after a tag no other test uses.
 */
export async function marketGame(
  admin: APIRequestContext,
  startsAt: Date,
  options: {
    league?: 'NFL' | 'MLB';
    moneyline?: { home: number; away: number };
    books?: TestBook[];
  } = {},
): Promise<MarketTestGame> {
  const league = options.league ?? 'NFL';
  const tag = randomBytes(3).toString('hex');
  const home = `Home ${tag}`;
  const away = `Away ${tag}`;
  const added = (await control(admin, 'add-game', { league, home, away, startsAt: iso(startsAt) })) as {
    id: string;
  };
  const game: MarketTestGame = { gameId: added.id, eventId: 0, league, home, away, startsAt: iso(startsAt) };
  await setMarketPrices(admin, game, options.books ?? defaultBooks(league, options.moneyline));
  const list = await admin.get(`/api/events?league=${league}`);
  expect(list.status(), await list.text()).toBe(200);
  const event = ((await list.json()) as EventView[]).find((e) => e.home === home && e.away === away);
  expect(event, `${away} at ${home} on the market`).toBeDefined();
  expect(event!.market).toBe(true);
  return { ...game, eventId: event!.id };
}

/** A leg on a market game, as the form sends it: the game by id, odds left to the market unless given. */
export function marketLeg(game: MarketTestGame, overrides: Record<string, unknown> = {}) {
  return {
    league: game.league,
    home: game.home,
    away: game.away,
    startsAt: game.startsAt,
    eventId: game.eventId,
    market: 'moneyline',
    side: game.home,
    line: null as number | null,
    units: 1,
    ...overrides,
  };
}

/**
 * The game starts now: the provider moves its official start to the next whole second and the app reads
 * the schedule once that second has passed, which locks the picks on it, closes their sales and keeps the
 * game's last prices as its closing prices. A test cannot wait hours for a start, and the server's clock is
 * the real one. The new start is after every posting made so far, so their legs stand (a start moved
 * before a posting would void it, docs/decisions/025).
 */
export async function startMarketGame(admin: APIRequestContext, game: MarketTestGame): Promise<void> {
  const start = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000);
  await control(admin, 'move-start', { id: game.gameId, startsAt: iso(start) });
  // Until the start has passed by this machine's clock, which is also the server's.
  await new Promise((resolve) => setTimeout(resolve, start.getTime() - Date.now() + 50));
  await refresh(admin, game.league, { schedule: true });
  game.startsAt = iso(start);
  // Started: no longer among the market's upcoming games.
  const list = (await (await admin.get(`/api/events?league=${game.league}`)).json()) as EventView[];
  expect(list.map((event) => event.id)).not.toContain(game.eventId);
}

/**
 * Waits until the catalog's row of this video (GET /api/videos/{id}, which cards, the video page and the edit
 * page read) gives its pick this status. The catalog keeps its rows for a couple of seconds and works the
 * status out from the lock they hold, so a start the feed moved earlier shows there once a row is read again.
 */
export async function untilCatalogSays(
  api: APIRequestContext,
  videoId: number,
  status: NonNullable<Video['pick']>['status'],
): Promise<void> {
  await expect
    .poll(async () => ((await (await api.get(`/api/videos/${videoId}`)).json()) as Video).pick?.status, {
      timeout: 15_000,
    })
    .toBe(status);
}

/**
 * The game is over: started first if it has not, then its final score on the stand-in, read by the app at
 * an admin's refresh, which settles the game from the provider's score and grades every leg on it.
 */
export async function finishMarketGame(
  admin: APIRequestContext,
  game: MarketTestGame,
  score: { home: number; away: number },
): Promise<void> {
  // The app takes a final score only for a game that has started by its clock.
  if (Date.parse(game.startsAt) > Date.now()) await startMarketGame(admin, game);
  await control(admin, 'set-score', { id: game.gameId, home: score.home, away: score.away, completed: true });
  await refresh(admin, game.league, { scores: true });
  // Settled from the provider's score (by this refresh, or by the app's own look at the scores meanwhile).
  const settled = await admin.get('/api/admin/results/settled?limit=100');
  expect(settled.status(), await settled.text()).toBe(200);
  const event = ((await settled.json()) as SettledEventPage).events.find((e) => e.id === game.eventId);
  expect(event, `${game.away} at ${game.home} settled`).toMatchObject({
    status: 'final',
    homeScore: score.home,
    awayScore: score.away,
    source: 'the-odds-api',
  });
}
