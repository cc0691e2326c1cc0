// Picks bound to the market (docs/decisions/025): the game, its start and the price come from the market's
// provider (here its local stand-in, speaking The Odds API v4), never from the capper. Each attack a tout
// tried from outside is reproduced first, then every rule: binding, prices and their evidence, the start,
// contradictions, locks, sales, self-reported legs, admins, counting bets, and closing line value.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fairProbability } from '#common/clv.js';
import { canonicalBytes, type SealedPick } from '#common/pick-seal.js';
import type { CapperProfile, Leaderboard } from '#common/schemas/cappers.js';
import type { EventPrices, EventView, PickLegsView, PickView } from '#common/schemas/pick-views.js';
import {
  ODDS_MESSAGE,
  ONE_LEG_PER_GAME_MESSAGE,
  START_IN_FUTURE_MESSAGE,
  START_TIME_MESSAGE,
  START_WITHIN_MESSAGE,
} from '#common/schemas/picks.js';
import type { Video } from '#common/schemas/videos.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { forgetRecords } from '#server/features/cappers/index.js';
import { cancelIntentsOfClosedPicks } from '#server/features/payments/index.js';
import { correctEvent, settleEvent } from '#server/features/picks/grading-service.js';
import { LEG_GRADED_LOCK_MESSAGE, SALES_CLOSED_MESSAGE } from '#server/features/picks/picks-service.js';
import { ADMIN_NO_AUTHOR_MESSAGE } from '#server/features/videos/videos-service.js';
import { SandboxProvider } from '#server/payments/sandbox-provider.js';
import { defaultBooks, finishGame, inHours, marketGame, marketLeg, type TestGame } from '../setup/market.js';
import { expectBandsKept } from '../setup/record-bands.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let capper: User;
let tout: User;
let buyer: User;
let admin: User;
let ip = 0;
const nextIp = () => `10.33.${Math.floor(++ip / 250)}.${ip % 250}`;
const HOUR = 3600_000;
const LATER = new Date(Date.now() + 1000 * HOUR);
const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2099, cvc: '123' };

const external = (fields: Record<string, string>) => ({
  ...VALID_FIELDS,
  title: 'Friday card',
  description: 'Why the line is wrong',
  isExternalVideo: 'true',
  externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  duration: '',
  ...fields,
});
const post = (legs: unknown[], fields: Record<string, string> = {}, user = capper) =>
  postVideo(t.app, user.cookie, external({ legs: JSON.stringify(legs), ...fields }));
async function postOk(legs: unknown[], fields: Record<string, string> = {}, user = capper) {
  const response = await post(legs, fields, user);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}
async function refused(legs: unknown[], status = 400, user = capper): Promise<string> {
  const response = await post(legs, {}, user);
  expect(response.statusCode, response.body).toBe(status);
  return response.json<{ message: string }>().message;
}
const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, ...(cookie && { headers: { cookie } }) });
const postJson = (url: string, payload: object, cookie: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: { cookie } });
const patch = (videoId: number, payload: object, cookie = capper.cookie) =>
  t.app.inject({ method: 'PATCH', url: `/api/videos/${videoId}`, payload, headers: { cookie } });
const pickOf = async (videoId: number) => (await get(`/api/picks/${videoId}`)).json<PickView>();
const legsOf = async (videoId: number, cookie = capper.cookie) =>
  (await get(`/api/picks/${videoId}/legs`, cookie)).json<PickLegsView>();
async function sealedOf(videoId: number): Promise<SealedPick> {
  const rows = rowsOf<{ sealed: string }>(
    await t.database.db.execute(sql`select sealed from picks where video_id = ${videoId}`),
  );
  return JSON.parse(rows[0]!.sealed) as SealedPick;
}
async function profileOf(username: string): Promise<CapperProfile> {
  forgetRecords(t.database.db);
  const response = await get(`/api/cappers/${username}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CapperProfile>();
}
async function board(query = ''): Promise<Leaderboard> {
  forgetRecords(t.database.db);
  return (await get(`/api/leaderboard${query}`)).json<Leaderboard>();
}
/**
 * The game is about to start: the feed moves it to two seconds from now, and the test waits them out, so
 * that the picks on it were posted before its real start (as picks are) and the app's clock has passed it.
 */
async function startNow(game: TestGame) {
  const start = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000);
  t.standIn!.moveStart(game.game.id, start.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  await t.app.market!.refreshNow(game.game.league, { schedule: true });
  await new Promise((resolve) => setTimeout(resolve, start.getTime() - Date.now() + 100));
}

beforeAll(async () => {
  t = await createTestApp({ market: { leagues: 'NBA,NFL,NHL' } });
  capper = await registerUser(t.app, {}, nextIp());
  tout = await registerUser(t.app, {}, nextIp());
  buyer = await registerUser(t.app, {}, nextIp());
  admin = await registerUser(t.app, {}, nextIp());
  await setAdmin(t.database.db, admin.id, true);
});

afterAll(async () => {
  await t?.close();
});

describe('the attacks a tout tried, reproduced', () => {
  it('both sides of one game in one pick at +100000, 10 units each: refused, whatever the odds', async () => {
    const game = await marketGame(t);
    const home = marketLeg(game, { market: 'moneyline', line: null, side: game.game.home, units: 10 });
    const away = marketLeg(game, { market: 'moneyline', line: null, side: game.game.away, units: 10 });
    expect(
      await refused([
        { ...home, odds: 100000 },
        { ...away, odds: 100000 },
      ]),
    ).toBe(ODDS_MESSAGE);
    expect(await refused([home, away])).toBe("A pick cannot take both sides of one game's moneyline");
    // The same by teams and start rather than by id, and over and under of one total.
    const byTeams = { ...away, eventId: undefined };
    expect(await refused([home, byTeams])).toBe("A pick cannot take both sides of one game's moneyline");
    const over = marketLeg(game, { market: 'total', side: 'over', line: 220.5 });
    expect(await refused([over, { ...over, side: 'under' }])).toBe(
      "A pick cannot take both the over and the under of one game's total",
    );
    expect(await refused([over, over])).toBe(ONE_LEG_PER_GAME_MESSAGE);
    // And a price no book offers: the market's best for the home moneyline is −145.
    const { takenAt } = (await get(`/api/events/${game.eventId}/prices`)).json<EventPrices>();
    expect(await refused([{ ...home, odds: 5000 }])).toBe(
      `+5000 beats the market's best price for ${game.game.home} moneyline: −145 at FanDuel (prices of ${takenAt}).`,
    );
  });

  it('a real game at a later start, posted after the final score: refused, naming the official start', async () => {
    const game = await marketGame(t, { startsAt: inHours(2) });
    const later = new Date(Date.parse(game.game.startsAt) + 3 * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const leg = { ...marketLeg(game), eventId: undefined, startsAt: later };
    expect(await refused([leg])).toBe(
      `${game.game.away} at ${game.game.home} starts at ${game.game.startsAt} (the market's official start), not ${later}.`,
    );
    // The same matchup 40 seconds later is not a second game either.
    const forty = new Date(Date.parse(game.game.startsAt) + 40_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(await refused([{ ...leg, startsAt: forty }])).toContain("the market's official start");
    // After the real start, the game is closed to new picks whatever start is claimed.
    await startNow(game);
    expect(await refused([marketLeg(game)])).toBe(START_IN_FUTURE_MESSAGE);
    expect(await refused([{ ...leg, startsAt: later }])).toContain("the market's official start");
  });

  it('a game in the year 9999: no such market game, and a self-reported one must start within 14 days', async () => {
    const leg = {
      league: 'NBA',
      home: 'Lakers',
      away: 'Celtics',
      startsAt: '9999-01-01T00:00:00Z',
      market: 'spread',
      side: 'Lakers',
      line: -3.5,
      odds: -110,
      units: 1,
    };
    expect(await refused([leg])).toMatch(
      /^No NBA game between Celtics and Lakers on the market within 24 hours of 9999-01-01T00:00:00Z/,
    );
    // MLB is not followed here: a self-reported game, which may not be months away.
    expect(await refused([{ ...leg, league: 'MLB', line: -1.5 }])).toBe(START_WITHIN_MESSAGE);
    expect(
      await refused([{ ...leg, league: 'NBA', market: 'prop', side: 'LeBron over 25.5', line: null }]),
    ).toBe(START_WITHIN_MESSAGE);
  });

  it('a graded, fully revealed pick is not for sale: 409, and it is free to read', async () => {
    const game = await marketGame(t);
    const video = await postOk([marketLeg(game)]);
    await finishGame(t, game, { home: 110, away: 100 }, LATER);
    expect((await pickOf(video.id)).status).toBe('graded');
    const intent = await postJson('/api/create-payment-intent', { videoId: video.id }, buyer.cookie);
    expect(intent.statusCode).toBe(409);
    expect(intent.json().message).toMatch(/graded: it is free to read/);
    expect((await get(`/api/picks/${video.id}/reveal`)).statusCode).toBe(200);
    // Its card says so: graded, its result, bound to the market.
    expect((await get(`/api/videos/${video.id}`)).json<Video>().pick).toMatchObject({
      status: 'graded',
      result: 'win',
      unitsWon: 0.93,
      selfReported: false,
    });
  });

  it('a postponed pick (graded void, revealed) cannot be revised', async () => {
    const game = await marketGame(t);
    const video = await postOk([marketLeg(game)]);
    await settleEvent(
      t.database.db,
      game.eventId,
      { status: 'postponed' },
      { adminId: admin.id, source: 'admin' },
    );
    expect((await pickOf(video.id)).result).toBe('void');
    const other = await marketGame(t);
    const revised = await patch(video.id, { legs: [marketLeg(other)] });
    expect(revised.statusCode, revised.body).toBe(409);
    expect(revised.json().message).toBe(LEG_GRADED_LOCK_MESSAGE);
    const selections = await patch(video.id, { emailInformation: 'Something else entirely' });
    expect(selections.statusCode).toBe(409);
  });

  it("an admin cannot rewrite a capper's open sealed pick (or its selections): 403, nothing logged", async () => {
    const game = await marketGame(t);
    const video = await postOk([marketLeg(game)]);
    const before = await pickOf(video.id);
    const other = await marketGame(t);
    for (const payload of [
      { legs: [marketLeg(other)] },
      { emailInformation: 'Admin words' },
      { parlay: true },
    ]) {
      const response = await patch(video.id, payload, admin.cookie);
      expect(response.statusCode, JSON.stringify(payload)).toBe(403);
      expect(response.json().message).toBe(ADMIN_NO_AUTHOR_MESSAGE);
    }
    const after = await pickOf(video.id);
    expect(after.versions).toEqual(before.versions);
    expect(after.log).toEqual(before.log);
    // Moderation is still the admin's: a title edit, and a removal that stays on the record.
    expect((await patch(video.id, { title: 'Retitled by an admin' }, admin.cookie)).statusCode).toBe(200);
  });

  it('twenty voids do not qualify a capper for the leaderboard; a straight 1-1 pick is a win and a loss', async () => {
    const voider = await registerUser(t.app, {}, nextIp());
    const game = await marketGame(t);
    for (let i = 0; i < 20; i++) await postOk([marketLeg(game)], {}, voider);
    await settleEvent(
      t.database.db,
      game.eventId,
      { status: 'cancelled' },
      { adminId: admin.id, source: 'admin' },
    );
    const profile = await profileOf(voider.username);
    expect(profile.records.all).toMatchObject({ voids: 20, graded: 20, picks: 20, wins: 0, losses: 0 });
    expect((await board()).entries.map((entry) => entry.username)).not.toContain(voider.username);

    const split = await registerUser(t.app, {}, nextIp());
    const a = await marketGame(t);
    const b = await marketGame(t);
    await postOk([marketLeg(a), marketLeg(b)], {}, split);
    await finishGame(t, a, { home: 110, away: 100 }, LATER); // home −3.5 covers
    await finishGame(t, b, { home: 100, away: 110 }, LATER); // home −3.5 loses
    expect((await profileOf(split.username)).records.all).toMatchObject({
      wins: 1,
      losses: 1,
      graded: 2,
      picks: 1,
      winPct: 50,
    });
  });

  it("GET /api/events never names an open pick's game: it lists the market's schedule, picked or not", async () => {
    const picked = await marketGame(t, { league: 'NFL' });
    const unpicked = await marketGame(t, { league: 'NFL' });
    await postOk([marketLeg(picked, { line: -3.5 })]);
    const list = (await get('/api/events?league=NFL')).json<EventView[]>();
    const ids = list.map((event) => event.id);
    expect(ids).toContain(picked.eventId);
    expect(ids).toContain(unpicked.eventId);
    expect(list.every((event) => event.market)).toBe(true);
    // A league the market does not follow: a self-reported game is listed to its capper alone.
    await postOk([
      {
        league: 'MLB',
        home: 'Mets',
        away: 'Braves',
        startsAt: inHours(20),
        market: 'moneyline',
        side: 'Mets',
        line: null,
        odds: 120,
        units: 1,
      },
    ]);
    expect((await get('/api/events?league=MLB', capper.cookie)).json<EventView[]>()).toHaveLength(1);
    expect((await get('/api/events?league=MLB', tout.cookie)).json<EventView[]>()).toEqual([]);
    expect((await get('/api/events?league=MLB')).json<EventView[]>()).toEqual([]);
  });
});

describe('binding a leg to the market', () => {
  it('takes the best price among books when no odds are given, and seals its evidence', async () => {
    const game = await marketGame(t);
    const video = await postOk([marketLeg(game)]);
    const sealed = await sealedOf(video.id);
    expect(sealed.v).toBe(2);
    const prices = (await get(`/api/events/${game.eventId}/prices`)).json<EventPrices>();
    // Home −3.5: −110 at DraftKings, −108 at FanDuel: the best is FanDuel's.
    expect(sealed.legs[0]).toMatchObject({
      home: game.game.home,
      away: game.game.away,
      startsAt: game.game.startsAt,
      side: game.game.home,
      line: -3.5,
      odds: -108,
      game: `the-odds-api:${game.game.id}`,
      price: { book: 'fanduel', odds: -108, line: -3.5, at: prices.takenAt },
    });
    // The commitment covers the evidence: the sealed bytes hash to it.
    const [row] = rowsOf<{ sealed: string; commitment: string; self_reported: boolean }>(
      await t.database.db.execute(
        sql`select sealed, commitment, self_reported from picks where video_id = ${video.id}`,
      ),
    );
    expect(
      createHash('sha256')
        .update(canonicalBytes(JSON.parse(row!.sealed)))
        .digest('hex'),
    ).toBe(row!.commitment);
    expect(row!.self_reported).toBe(false);
    expect((await pickOf(video.id)).selfReported).toBe(false);
    const [leg] = rowsOf<{ book: string; market_odds: number; self_reported: boolean }>(
      await t.database.db.execute(
        sql`select book, market_odds, self_reported from pick_legs where video_id = ${video.id}`,
      ),
    );
    expect(leg).toEqual({ book: 'fanduel', market_odds: -108, self_reported: false });
  });

  it('matches a game by its teams in any case and either order, and writes them as the market does', async () => {
    const game = await marketGame(t);
    const leg = {
      ...marketLeg(game, { market: 'moneyline', line: null }),
      eventId: undefined,
      home: game.game.away.toUpperCase(),
      away: game.game.home.toLowerCase(),
      side: game.game.home.toLowerCase(),
    };
    const video = await postOk([leg]);
    expect((await sealedOf(video.id)).legs[0]).toMatchObject({
      home: game.game.home,
      away: game.game.away,
      side: game.game.home,
      odds: -145,
    });
  });

  it('refuses odds that beat the best price, keeps worse ones, and names the offered lines', async () => {
    const game = await marketGame(t);
    const prices = (await get(`/api/events/${game.eventId}/prices`)).json<EventPrices>();
    expect(prices.spread).toEqual([
      { side: game.game.away, line: 3.5, odds: -110, book: 'DraftKings' },
      { side: game.game.home, line: -3.5, odds: -108, book: 'FanDuel' },
    ]);
    expect(await refused([marketLeg(game, { odds: -105 })])).toBe(
      `−105 beats the market's best price for ${game.game.home} −3.5: −108 at FanDuel (prices of ${prices.takenAt}).`,
    );
    const worse = await postOk([marketLeg(game, { odds: -115 })]);
    expect((await sealedOf(worse.id)).legs[0]).toMatchObject({ odds: -115, price: { odds: -108 } });
    expect(await refused([marketLeg(game, { line: -2.5 })])).toBe(
      `No book offers ${game.game.home} −2.5: the market offers −3.5 (−108 at FanDuel).`,
    );
    expect(await refused([marketLeg(game, { eventId: 99999999 })])).toBe(
      'No NBA game 99999999 on the market: choose a game from the list.',
    );
    expect(await refused([marketLeg(game, { side: 'Somebody Else' })])).toBe(
      'The pick must be one of the two teams',
    );
  });

  it('fetches the league’s prices again when the snapshot is older than five minutes', async () => {
    const game = await marketGame(t);
    await t.database.db.execute(
      sql`update market_leagues set odds_at = now() - interval '10 minutes' where league = 'NBA'`,
    );
    await t.database.db.execute(
      sql`update event_prices set taken_at = now() - interval '10 minutes' where event_id = ${game.eventId}`,
    );
    const before = t.standIn!.requests().counts.odds;
    await postOk([marketLeg(game)]);
    expect(t.standIn!.requests().counts.odds).toBe(before + 1);
    expect(t.standIn!.requests().last?.search).toContain('markets=h2h,spreads,totals');
  });

  it('says the market is not answering (503), rather than take a stale price, and posts again once it is', async () => {
    const game = await marketGame(t, {
      league: 'NHL',
      books: [{ book: 'betmgm', title: 'BetMGM', moneyline: { home: -120, away: 100 } }],
    });
    await t.database.db.execute(
      sql`update market_leagues set odds_at = now() - interval '10 minutes' where league = 'NHL'`,
    );
    await t.database.db.execute(
      sql`update event_prices set taken_at = now() - interval '10 minutes' where event_id = ${game.eventId}`,
    );
    t.standIn!.setDown(503);
    try {
      const message = await refused([marketLeg(game, { market: 'moneyline', line: null })], 503);
      expect(message).toMatch(
        /^The NHL prices are from .*, more than 5 minutes ago, and the market is not answering: try again in a minute\.$/,
      );
      // A capper choosing a game is told the same; a visitor gets the last snapshot, and spends no credit.
      expect((await get(`/api/events/${game.eventId}/prices`, capper.cookie)).statusCode).toBe(503);
      const requests = t.standIn!.requests().counts.odds;
      const visitor = await get(`/api/events/${game.eventId}/prices`);
      expect(visitor.statusCode).toBe(200);
      expect(visitor.json<EventPrices>().moneyline).toEqual([
        { side: game.game.away, line: null, odds: 100, book: 'BetMGM' },
        { side: game.game.home, line: null, odds: -120, book: 'BetMGM' },
      ]);
      expect(t.standIn!.requests().counts.odds).toBe(requests);
      expect(t.logs()).not.toContain(t.standIn!.apiKey);
    } finally {
      t.standIn!.setDown(false);
    }
  });
});

describe('revising a market pick', () => {
  it('keeps an unchanged leg at its sealed price, and binds a new one at the market’s price now', async () => {
    const first = await marketGame(t);
    const video = await postOk([marketLeg(first)]); // −108 at FanDuel
    // The market moves: the first leg's sealed −108 now beats every book's −120.
    t.standIn!.setOdds(first.game.id, [
      { book: 'draftkings', title: 'DraftKings', spread: { home: -3.5, homePrice: -120, awayPrice: 100 } },
    ]);
    await t.app.market!.refreshNow('NBA', { odds: true });
    const second = await marketGame(t);
    const sealed = (await sealedOf(video.id)).legs[0]!;
    const revised = await patch(video.id, {
      legs: [{ ...marketLeg(first), odds: sealed.odds }, marketLeg(second)],
    });
    expect(revised.statusCode, revised.body).toBe(200);
    const legs = (await sealedOf(video.id)).legs;
    expect(legs[0]).toEqual(sealed);
    expect(legs[1]).toMatchObject({ odds: -108, price: { book: 'fanduel' } });
    // A leg changed in any way is a new bet at today's price.
    const moved = await patch(video.id, {
      legs: [{ ...marketLeg(first), units: 2, odds: sealed.odds }, marketLeg(second)],
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toMatch(/^−108 beats the market's best price/);
  });
});

describe('the start is the market’s', () => {
  it('closes posting, revising and buying at the official start; a moved start moves the lock', async () => {
    const game = await marketGame(t);
    const video = await postOk([marketLeg(game)]);
    expect(video.pick!.status).toBe('open');
    await startNow(game);
    expect((await pickOf(video.id)).status).toBe('started');
    const other = await marketGame(t);
    expect((await patch(video.id, { legs: [marketLeg(other)] })).statusCode).toBe(409);
    const intent = await postJson('/api/create-payment-intent', { videoId: video.id }, buyer.cookie);
    expect(intent.statusCode).toBe(409);
    expect(intent.json().message).toBe(SALES_CLOSED_MESSAGE);
  });

  it('voids legs posted after a start the feed moves earlier, never grading them as wins', async () => {
    const game = await marketGame(t, { startsAt: inHours(3) });
    const early = await postOk([marketLeg(game)]);
    // The pick was posted; then the feed says the game really started an hour before that.
    await t.database.db.execute(
      sql`update picks set posted_at = posted_at - interval '2 hours' where video_id = ${early.id}`,
    );
    const late = await postOk([marketLeg(game)]);
    const realStart = new Date(Date.now() - HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    t.standIn!.moveStart(game.game.id, realStart);
    await t.app.market!.refreshNow('NBA', { schedule: true });
    const states = (await legsOf(late.id)).states;
    expect(states[0]).toMatchObject({ result: 'void' });
    expect(states[0]!.voidReason).toContain(`real start (${realStart})`);
    await finishGame(t, game, { home: 120, away: 100 }, LATER);
    expect((await pickOf(late.id)).result).toBe('void');
    expect((await pickOf(early.id)).result).toBe('win');
  });
});

describe('sales close at the start', () => {
  it('refuses the card after the start, cancels open intents, and refunds a payment that gets through', async () => {
    const game = await marketGame(t, { startsAt: inHours(4) });
    const video = await postOk([marketLeg(game)]);
    const first = await registerUser(t.app, {}, nextIp());
    const second = await registerUser(t.app, {}, nextIp());
    const open = (await postJson('/api/create-payment-intent', { videoId: video.id }, first.cookie)).json();
    const racing = (
      await postJson('/api/create-payment-intent', { videoId: video.id }, second.cookie)
    ).json();
    await startNow(game);
    // The card is tried after the start, before the sweep: not charged.
    const card = await postJson(
      '/api/payments/sandbox/confirm',
      { clientSecret: open.clientSecret, card: CARD },
      first.cookie,
    );
    expect(card.statusCode).toBe(409);
    expect(card.json().message).toBe(
      'Sales for this pick closed when its first game started. You have not been charged.',
    );
    // The sweep cancels every other open intent of the pick, at the provider too (the app's own sweep runs
    // every few seconds as well: whichever comes first cancels it).
    await cancelIntentsOfClosedPicks(t.database.db, new SandboxProvider(t.database.db), t.app.log);
    const statusOf = async (id: string) =>
      rowsOf<{ status: string }>(
        await t.database.db.execute(sql`select status from payment_intents where id = ${id}`),
      )[0]!.status;
    expect(await statusOf(racing.paymentIntentId)).toBe('canceled');
    // A payment the provider took after the start anyway (with Stripe the card is confirmed in the browser):
    // fulfilment refunds it.
    await t.database.db.execute(
      sql`update payment_intents set status = 'succeeded', updated_at = now() where id = ${racing.paymentIntentId}`,
    );
    const complete = await postJson(
      '/api/payment-complete',
      { paymentIntentId: racing.paymentIntentId, videoId: video.id },
      second.cookie,
    );
    expect(complete.statusCode, complete.body).toBe(409);
    expect(complete.json().message).toMatch(
      /^Sales for this pick closed when its first game started, before your payment went through\. Your payment of \$25.00 has been refunded\.$/,
    );
    expect(await statusOf(racing.paymentIntentId)).toBe('refunded');
    expect((await get(`/api/videos/${video.id}/purchased`, second.cookie)).json()).toEqual({
      purchased: false,
    });
  });
});

describe('self-reported legs', () => {
  const mlb = (overrides: Record<string, unknown> = {}) => ({
    league: 'MLB',
    home: 'Dodgers',
    away: 'Giants',
    startsAt: inHours(30),
    market: 'moneyline',
    side: 'Dodgers',
    line: null,
    odds: -130,
    units: 1,
    ...overrides,
  });

  it('are taken in leagues the market does not follow, and for props, shown and never counted', async () => {
    const reporter = await registerUser(t.app, {}, nextIp());
    const video = await postOk([mlb()], {}, reporter);
    expect((await pickOf(video.id)).selfReported).toBe(true);
    const game = await marketGame(t);
    const prop = {
      ...marketLeg(game),
      market: 'prop',
      side: 'Player over 25.5 points',
      line: null,
      odds: 110,
      eventId: undefined,
    };
    const mixed = await postOk([marketLeg(game), prop], {}, reporter);
    expect((await pickOf(mixed.id)).selfReported).toBe(true);
    expect((await legsOf(mixed.id, reporter.cookie)).states.map((state) => state.selfReported)).toEqual([
      false,
      true,
    ]);
    // A prop on a market game gives its official start, or its sales would stay open after the game began.
    const later = new Date(Date.parse(game.game.startsAt) + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(await refused([{ ...prop, startsAt: later }], 400, reporter)).toBe(
      `${game.game.away} at ${game.game.home} starts at ${game.game.startsAt} (the market's official start), not ${later}.`,
    );
    const [event] = rowsOf<{ event_id: number }>(
      await t.database.db.execute(sql`select event_id from pick_legs where video_id = ${video.id}`),
    );
    await settleEvent(
      t.database.db,
      event!.event_id,
      { status: 'final', homeScore: 5, awayScore: 3 },
      { adminId: admin.id, source: 'admin' },
      LATER,
    );
    const profile = await profileOf(reporter.username);
    expect(profile.records.all.graded).toBe(0);
    expect(profile.selfReported.map((pick) => pick.videoId)).toEqual([video.id]);
    expect(profile.selfReportedTotal).toBe(1);
    expect(profile.open.find((pick) => pick.videoId === mixed.id)?.selfReported).toBe(true);
  });

  it('must be real dates within 14 days, odds JSON integers from −10000 to +10000, lines plausible', async () => {
    expect(await refused([mlb({ startsAt: '2027-02-30T19:00:00Z' })])).toBe(START_TIME_MESSAGE);
    expect(await refused([mlb({ startsAt: inHours(15 * 24) })])).toBe(START_WITHIN_MESSAGE);
    expect(await refused([mlb({ odds: '0x96' })])).toBe(ODDS_MESSAGE);
    expect(await refused([mlb({ odds: '+150' })])).toBe(ODDS_MESSAGE);
    expect(await refused([mlb({ odds: 10001 })])).toBe(ODDS_MESSAGE);
    expect(await refused([mlb({ odds: 150.5 })])).toBe(ODDS_MESSAGE);
    expect(await refused([mlb({ odds: null })])).toBe('A self-reported leg needs its odds');
    expect(await refused([mlb({ market: 'spread', line: -40.5 })])).toBe(
      'A MLB spread is at most 5 points either way',
    );
    expect(await refused([mlb({ market: 'total', side: 'over', line: 250.5 })])).toBe(
      'A MLB total is between 3 and 25',
    );
    await postOk([mlb({ odds: 10000 })]);
  });
});

describe('admins moderate, they do not author', () => {
  it('takes a correction only for a game that has started, and shows it on the pick page', async () => {
    const game = await marketGame(t, { startsAt: inHours(5) });
    const video = await postOk([marketLeg(game)]);
    await expect(
      correctEvent(
        t.database.db,
        game.eventId,
        { status: 'final', homeScore: 1, awayScore: 0 },
        admin,
        'Too early',
      ),
    ).rejects.toMatchObject({ statusCode: 409 });
    await finishGame(t, game, { home: 110, away: 100 }, LATER);
    await expect(
      correctEvent(
        t.database.db,
        game.eventId,
        { status: 'final', homeScore: 100, awayScore: 110 },
        admin,
        'Too early',
        new Date(),
      ),
    ).rejects.toMatchObject({ statusCode: 400 });
    await correctEvent(
      t.database.db,
      game.eventId,
      { status: 'final', homeScore: 100, awayScore: 102 },
      admin,
      'Scorer’s error fixed',
      LATER,
    );
    const pick = await pickOf(video.id);
    expect(pick.result).toBe('loss');
    expect(pick.corrections).toEqual([
      {
        game: `${game.game.away} at ${game.game.home}`,
        before: 'final 110-100',
        after: 'final 100-102',
        reason: 'Scorer’s error fixed',
        by: admin.username,
        at: expect.any(String),
      },
    ]);
  });
});

describe('graded from the market’s scores, with closing line value', () => {
  it('keeps the closing prices at the start, measures each leg’s CLV, and grades from the final score', async () => {
    const game = await marketGame(t);
    const bettor = await registerUser(t.app, {}, nextIp());
    const video = await postOk([marketLeg(game)], {}, bettor); // home −3.5 at −108 (FanDuel)
    // The line moves: at the close the home side is −125 at both books (the other side +105).
    t.standIn!.setOdds(game.game.id, [
      { book: 'draftkings', title: 'DraftKings', spread: { home: -3.5, homePrice: -125, awayPrice: 105 } },
      { book: 'fanduel', title: 'FanDuel', spread: { home: -3.5, homePrice: -125, awayPrice: 105 } },
    ]);
    await t.app.market!.refreshNow('NBA', { odds: true });
    const settled = await finishGame(t, game, { home: 112, away: 100 }, LATER);
    expect(settled.settled).toBe(1);
    const [event] = rowsOf<{ source: string; status: string }>(
      await t.database.db.execute(sql`select source, status from events where id = ${game.eventId}`),
    );
    expect(event).toEqual({ source: 'the-odds-api', status: 'final' });
    const fair = fairProbability(-125, 105);
    const expected = Math.round(((1 + 100 / 108) * fair - 1) * 100 * 10_000) / 10_000;
    const states = (await legsOf(video.id, bettor.cookie)).states;
    expect(states[0]).toMatchObject({
      result: 'win',
      closingOdds: -125,
      eventStatus: 'final',
      homeScore: 112,
      awayScore: 100,
    });
    expect(states[0]!.clv).toBeCloseTo(expected, 4);
    const profile = await profileOf(bettor.username);
    expect(profile.records.all.clv).toEqual({
      bets: 1,
      average: Math.round(expected * 100) / 100,
      beatPct: 100,
    });
    expect(profile.graded[0]!.states[0]!.clv).toBeCloseTo(expected, 4);
    // Revealed, the leg's close and CLV are public, beside the sealed pick anyone can hash.
    const reveal = await get(`/api/picks/${video.id}/reveal`);
    expect(reveal.json().states[0]).toMatchObject({ result: 'win', closingOdds: -125 });
    expect(reveal.json().states[0].clv).toBeCloseTo(expected, 4);
  });

  it('never rewrites a game’s prices after its start: the close is the last snapshot before it', async () => {
    const game = await marketGame(t, { startsAt: inHours(6) });
    await postOk([marketLeg(game)]);
    await startNow(game);
    t.standIn!.setOdds(
      game.game.id,
      defaultBooks().map((book) => ({ ...book, spread: { home: -9.5, homePrice: -110, awayPrice: -110 } })),
    );
    await t.app.market!.refreshNow('NBA', { odds: true });
    const [closing] = rowsOf<{ prices: unknown }>(
      await t.database.db.execute(sql`select prices from event_closings where event_id = ${game.eventId}`),
    );
    expect(JSON.stringify(closing!.prices)).toContain('-3.5');
    expect(JSON.stringify(closing!.prices)).not.toContain('-9.5');
  });

  it('ranks by CLV when asked, and the record badge says it', async () => {
    const sharp = await registerUser(t.app, {}, nextIp());
    const games = [];
    for (let i = 0; i < 21; i++) games.push(await marketGame(t));
    for (const game of games) await postOk([marketLeg(game)], {}, sharp);
    for (const game of games) await finishGame(t, game, { home: 120, away: 100 }, LATER);
    const result = await board('?sort=clv');
    expect(result.entries.map((entry) => entry.username)).toContain(sharp.username);
    const badge = (await get(`/api/records?usernames=${sharp.username}`)).json<
      Record<string, { clv: unknown }>
    >();
    expect(badge[sharp.username]!.clv).toMatchObject({ bets: 21 });
    // Closes, grades and their CLV regrades kept the bands in their own transactions.
    expect(await expectBandsKept(t.database.db)).toBeGreaterThan(0);
  });
});
