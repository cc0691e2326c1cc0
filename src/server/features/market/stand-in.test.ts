import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { League } from '#common/schemas/picks.js';
import { OddsApiProvider } from './odds-api-provider.js';
import { DEMO_BOOKS, STAND_IN_KEY_HEADER, startMarketStandIn, type MarketStandIn } from './stand-in.js';

const ANCHOR = new Date('2026-11-28T12:00:00Z');
const MINUTE = 60_000;
const LEAGUES: readonly League[] = ['NBA', 'NFL', 'MLB', 'NHL'];
const ODDS_QUERY = 'regions=us&markets=h2h,spreads,totals&oddsFormat=american&dateFormat=iso';

interface RawGame {
  id: string;
  commence_time: string;
  home_team: string;
  away_team: string;
  completed?: boolean;
  scores?: Array<{ name: string; score: string }> | null;
  last_update?: string | null;
  bookmakers?: Array<{
    key: string;
    title: string;
    last_update: string;
    markets: Array<{ key: string; outcomes: Array<{ name: string; price: number; point?: number }> }>;
  }>;
}

/** A stand-in whose clock the test moves. */
async function demoStandIn(anchor = ANCHOR) {
  const clock = { now: anchor.getTime() + 60 * MINUTE };
  const standIn = await startMarketStandIn({
    demo: { anchor, leagues: LEAGUES, now: () => new Date(clock.now) },
  });
  return { standIn, clock };
}

async function get(standIn: MarketStandIn, path: string, query = '') {
  const response = await fetch(`${standIn.url}${path}?apiKey=${standIn.apiKey}${query ? `&${query}` : ''}`);
  return { response, body: (await response.json()) as RawGame[] & { message?: string; error_code?: string } };
}

function quotaOf(response: Response) {
  return ['remaining', 'used', 'last'].map((name) => response.headers.get(`x-requests-${name}`));
}

describe('the demo market', () => {
  let first: Awaited<ReturnType<typeof demoStandIn>>;
  let second: Awaited<ReturnType<typeof demoStandIn>>;

  beforeAll(async () => {
    first = await demoStandIn();
    second = await demoStandIn();
  });

  afterAll(async () => {
    await first.standIn.close();
    await second.standIn.close();
  });

  afterEach(() => {
    first.standIn.reset();
    second.standIn.reset();
  });

  it('serves the same games, ids and prices from the same anchor', async () => {
    for (const path of ['/v4/sports/basketball_nba/odds', '/v4/sports/icehockey_nhl/scores']) {
      const query = path.endsWith('odds') ? ODDS_QUERY : 'daysFrom=3';
      const [a, b] = await Promise.all([get(first.standIn, path, query), get(second.standIn, path, query)]);
      expect(a.body.length).toBeGreaterThan(100);
      expect(JSON.stringify(a.body)).toBe(JSON.stringify(b.body));
    }

    const other = await startMarketStandIn({
      demo: {
        anchor: new Date(ANCHOR.getTime() + 1000),
        leagues: LEAGUES,
        now: () => new Date(first.clock.now),
      },
    });
    try {
      const ids = new Set(first.standIn.games('NBA').map(({ id }) => id));
      expect(other.games('NBA').some(({ id }) => ids.has(id))).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('schedules games every slot in every league, each team once a slot, leagues staggered', () => {
    const games = first.standIn.games();
    const now = first.clock.now;
    const starts = games.map(({ startsAt }) => Date.parse(startsAt));
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(now - 72 * 60 * MINUTE);
    expect(Math.max(...starts)).toBeLessThanOrEqual(now + 48 * 60 * MINUTE);

    const leagueStarts = new Map<League, number[]>();
    for (const game of games) {
      expect(game.id).toMatch(/^[0-9a-f]{32}$/);
      expect(game.startsAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
      leagueStarts.set(game.league, [...(leagueStarts.get(game.league) ?? []), Date.parse(game.startsAt)]);
    }
    expect([...leagueStarts.keys()].sort()).toEqual([...LEAGUES].sort());
    // the first slot after the anchor, per league: a start every couple of minutes somewhere
    const firstStarts = LEAGUES.map((league) =>
      Math.min(...(leagueStarts.get(league) ?? []).filter((start) => start >= ANCHOR.getTime())),
    );
    expect(new Set(firstStarts).size).toBe(LEAGUES.length);
    expect(Math.max(...firstStarts) - Math.min(...firstStarts)).toBeLessThan(10 * MINUTE);

    const bySlot = new Map<string, string[]>();
    for (const game of games) {
      const key = `${game.league} ${game.startsAt}`;
      bySlot.set(key, [...(bySlot.get(key) ?? []), game.home, game.away]);
    }
    for (const teams of bySlot.values()) {
      expect(teams).toHaveLength(6);
      expect(new Set(teams).size).toBe(6);
    }
  });

  it('prices every listed game with 6 to 8 books, every price one the adapter takes', async () => {
    const provider = new OddsApiProvider({
      apiKey: first.standIn.apiKey,
      baseUrl: first.standIn.url,
      leagues: LEAGUES,
    });
    const keys = new Set(DEMO_BOOKS.map(({ key }) => key));
    for (const league of LEAGUES) {
      const { data } = await provider.odds(league);
      expect(data.length).toBeGreaterThan(100);
      for (const { game, books } of data) {
        expect(books.length).toBeGreaterThanOrEqual(6);
        expect(books.length).toBeLessThanOrEqual(8);
        for (const book of books) {
          expect(keys.has(book.book)).toBe(true);
          // two sides of each market: nothing the adapter had to drop
          expect(book.prices.map(({ market, side }) => `${market} ${side}`)).toEqual([
            `moneyline ${game.home}`,
            `moneyline ${game.away}`,
            `spread ${game.home}`,
            `spread ${game.away}`,
            'total over',
            'total under',
          ]);
          const [, , homeSpread, awaySpread] = book.prices;
          expect((awaySpread?.point ?? NaN) + (homeSpread?.point ?? NaN)).toBe(0);
          if (league === 'MLB' || league === 'NHL') expect(Math.abs(homeSpread?.point ?? 0)).toBe(1.5);
          expect(Date.parse(book.updatedAt)).toBeLessThanOrEqual(first.clock.now);
        }
      }
    }
  });

  it('moves prices over time until the start, then holds them', async () => {
    const { standIn, clock } = first;
    const start = clock.now;
    try {
      const upcoming = standIn
        .games('NBA')
        .filter(({ startsAt }) => Date.parse(startsAt) > start + 3 * 60 * MINUTE);
      const before = await get(standIn, '/v4/sports/basketball_nba/odds', ODDS_QUERY);
      clock.now += 60 * MINUTE;
      const after = await get(standIn, '/v4/sports/basketball_nba/odds', ODDS_QUERY);
      const booksOf = (body: RawGame[], id: string) =>
        JSON.stringify(body.find((game) => game.id === id)?.bookmakers);
      const moved = upcoming.filter(({ id }) => booksOf(before.body, id) !== booksOf(after.body, id));
      expect(moved.length).toBeGreaterThan(upcoming.length / 2);

      // a game that has started: listed (live), its prices those of its last minutes before the start
      const game = upcoming[0];
      if (!game) throw new Error('no upcoming game');
      clock.now = Date.parse(game.startsAt) + MINUTE;
      const live = await get(standIn, '/v4/sports/basketball_nba/odds', ODDS_QUERY);
      clock.now = Date.parse(game.startsAt) + 5 * MINUTE;
      const later = await get(standIn, '/v4/sports/basketball_nba/odds', ODDS_QUERY);
      expect(booksOf(live.body, game.id)).not.toBe(undefined);
      expect(booksOf(later.body, game.id)).toBe(booksOf(live.body, game.id));
      for (const book of live.body.find(({ id }) => id === game.id)?.bookmakers ?? [])
        expect(Date.parse(book.last_update)).toBeLessThan(Date.parse(game.startsAt));
    } finally {
      clock.now = start;
    }
  });

  it('shows a live score, then the final after the duration, and drops the game from the odds', async () => {
    const { standIn, clock } = first;
    const start = clock.now;
    try {
      const game = standIn.games('NFL').find(({ startsAt }) => Date.parse(startsAt) > start);
      if (!game) throw new Error('no upcoming game');
      const kickoff = Date.parse(game.startsAt);
      const scoreOf = async () => {
        const { body } = await get(
          standIn,
          '/v4/sports/americanfootball_nfl/scores',
          'daysFrom=1&dateFormat=iso',
        );
        return body.find(({ id }) => id === game.id);
      };

      clock.now = kickoff - MINUTE;
      expect(await scoreOf()).toMatchObject({ completed: false, scores: null, last_update: null });

      clock.now = kickoff + 3 * MINUTE;
      const live = await scoreOf();
      expect(live).toMatchObject({ completed: false });
      expect(live?.scores?.map(({ name }) => name)).toEqual([game.home, game.away]);

      clock.now = kickoff + 6 * MINUTE - 1000;
      expect(await scoreOf()).toMatchObject({ completed: false });

      clock.now = kickoff + 6 * MINUTE;
      const final = await scoreOf();
      expect(final).toMatchObject({
        completed: true,
        last_update: new Date(clock.now).toISOString().replace('.000', ''),
      });
      const [home, away] = (final?.scores ?? []).map(({ score }) => score);
      expect(home).toMatch(/^\d+$/);
      expect(away).toMatch(/^\d+$/);
      for (const [i, side] of (live?.scores ?? []).entries())
        expect(Number(side.score)).toBeLessThanOrEqual(Number(final?.scores?.[i]?.score));

      const odds = await get(standIn, '/v4/sports/americanfootball_nfl/odds', ODDS_QUERY);
      expect(odds.body.some(({ id }) => id === game.id)).toBe(false);
      const events = await get(standIn, '/v4/sports/americanfootball_nfl/events');
      expect(events.body.some(({ id }) => id === game.id)).toBe(false);
      // without daysFrom, only live and upcoming games
      const recent = await get(standIn, '/v4/sports/americanfootball_nfl/scores');
      expect(recent.body.some(({ id }) => id === game.id)).toBe(false);
    } finally {
      clock.now = start;
    }
  });

  it('ends games with scores plausible for the sport, no ties', async () => {
    const ranges: Record<string, [number, number]> = {
      NBA: [90, 130],
      NFL: [0, 45],
      MLB: [0, 12],
      NHL: [0, 7],
    };
    const provider = new OddsApiProvider({
      apiKey: first.standIn.apiKey,
      baseUrl: first.standIn.url,
      leagues: LEAGUES,
    });
    for (const league of LEAGUES) {
      const { data } = await provider.scores(league, 3);
      const finals = data.filter(({ completed }) => completed);
      expect(finals.length).toBeGreaterThan(100);
      const [low, high] = ranges[league] ?? [0, 0];
      for (const { homeScore, awayScore } of finals) {
        for (const points of [homeScore, awayScore]) {
          expect(points).toBeGreaterThanOrEqual(low);
          expect(points).toBeLessThanOrEqual(high);
        }
        expect(homeScore).not.toBe(awayScore);
      }
      const homeWins = finals.filter(
        ({ homeScore, awayScore }) => (homeScore ?? 0) > (awayScore ?? 0),
      ).length;
      expect(homeWins).toBeGreaterThan(finals.length * 0.3);
      expect(homeWins).toBeLessThan(finals.length * 0.8);
    }
  });

  it('lets the control API change a demo game', async () => {
    const { standIn, clock } = first;
    const [game, gone] = standIn.games('MLB').filter(({ startsAt }) => Date.parse(startsAt) > clock.now);
    if (!game || !gone) throw new Error('no upcoming games');
    standIn.setOdds(game.id, [{ book: 'fanduel', title: 'FanDuel', moneyline: { home: -120, away: 110 } }]);
    standIn.moveStart(game.id, new Date(clock.now + 10 * 60 * MINUTE));
    standIn.removeGame(gone.id);
    standIn.setScore(game.id, { home: 3, away: 2, completed: false });

    const { body } = await get(standIn, '/v4/sports/baseball_mlb/odds', ODDS_QUERY);
    const listed = body.find(({ id }) => id === game.id);
    expect(listed?.commence_time).toBe(
      new Date(clock.now + 10 * 60 * MINUTE).toISOString().replace('.000', ''),
    );
    expect(listed?.bookmakers).toEqual([
      {
        key: 'fanduel',
        title: 'FanDuel',
        last_update: new Date(clock.now).toISOString().replace('.000', ''),
        markets: [
          {
            key: 'h2h',
            last_update: new Date(clock.now).toISOString().replace('.000', ''),
            outcomes: [
              { name: game.home, price: -120 },
              { name: game.away, price: 110 },
            ],
          },
        ],
      },
    ]);
    expect(body.some(({ id }) => id === gone.id)).toBe(false);

    const added = standIn.addGame({
      league: 'MLB',
      home: 'Chicago Cubs',
      away: 'Chicago White Sox',
      startsAt: new Date(clock.now + 30 * MINUTE),
    });
    const listedNow = standIn.games('MLB');
    expect(listedNow.some(({ id }) => id === added.id)).toBe(true);
    expect(listedNow.length).toBeGreaterThan(100);
    expect(() => standIn.moveStart('0'.repeat(32), new Date())).toThrow(/No game/);
  });
});

describe('the stand-in as a provider', () => {
  let standIn: MarketStandIn;

  beforeAll(async () => {
    standIn = await startMarketStandIn({ credits: 100, now: () => ANCHOR });
  });

  afterAll(async () => {
    await standIn.close();
  });

  afterEach(() => {
    standIn.reset();
  });

  function addPricedGame() {
    const game = standIn.addGame({
      league: 'NBA',
      home: 'Boston Celtics',
      away: 'Miami Heat',
      startsAt: '2026-11-28T19:30:00Z',
    });
    standIn.setOdds(game.id, [
      {
        book: 'draftkings',
        title: 'DraftKings',
        moneyline: { home: -150, away: 130 },
        spread: { home: -3.5, homePrice: -110, awayPrice: -110 },
        total: { point: 221.5, over: -110, under: -110 },
      },
    ]);
    return game;
  }

  it('charges what the provider charges, in its headers', async () => {
    const path = '/v4/sports/basketball_nba/odds';
    const empty = await get(standIn, path, ODDS_QUERY);
    expect(empty.body).toEqual([]);
    expect(quotaOf(empty.response)).toEqual(['100', '0', '0']);

    addPricedGame();
    const odds = await get(standIn, path, ODDS_QUERY);
    expect(odds.body).toHaveLength(1);
    expect(quotaOf(odds.response)).toEqual(['97', '3', '3']);

    const twoRegions = await get(
      standIn,
      path,
      'regions=us,uk&markets=h2h,spreads,totals&oddsFormat=american',
    );
    expect(quotaOf(twoRegions.response)).toEqual(['91', '9', '6']);

    const moneyline = await get(standIn, path, 'regions=us&markets=h2h');
    expect(quotaOf(moneyline.response)).toEqual(['90', '10', '1']);
    // the provider's default format is decimal
    expect(moneyline.body[0]?.bookmakers?.[0]?.markets).toEqual([
      {
        key: 'h2h',
        last_update: '2026-11-28T12:00:00Z',
        outcomes: [
          { name: 'Boston Celtics', price: 1.67 },
          { name: 'Miami Heat', price: 2.3 },
        ],
      },
    ]);

    const scores = await get(standIn, '/v4/sports/basketball_nba/scores', 'daysFrom=3');
    expect(quotaOf(scores.response)).toEqual(['88', '12', '2']);
    const liveScores = await get(standIn, '/v4/sports/basketball_nba/scores');
    expect(quotaOf(liveScores.response)).toEqual(['87', '13', '1']);
    const events = await get(standIn, '/v4/sports/basketball_nba/events');
    expect(quotaOf(events.response)).toEqual(['87', '13', '0']);
    const sports = await get(standIn, '/v4/sports');
    expect(quotaOf(sports.response)).toEqual(['87', '13', '0']);
    expect(sports.body).toContainEqual({
      key: 'basketball_nba',
      group: 'Basketball',
      title: 'NBA',
      description: 'US Basketball',
      active: true,
      has_outrights: false,
    });

    expect(standIn.requests().counts).toEqual({ odds: 4, scores: 2, events: 1, sports: 1 });
  });

  it('refuses paid calls once the credits are gone, as the provider does', async () => {
    addPricedGame();
    standIn.setCredits(0);
    const odds = await get(standIn, '/v4/sports/basketball_nba/odds', ODDS_QUERY);
    expect(odds.response.status).toBe(401);
    expect(odds.body).toMatchObject({ error_code: 'OUT_OF_USAGE_CREDITS' });
    expect(odds.body.message).toMatch(/quota/);
    const scores = await get(standIn, '/v4/sports/basketball_nba/scores', 'daysFrom=1');
    expect(scores.response.status).toBe(401);
    const events = await get(standIn, '/v4/sports/basketball_nba/events');
    expect(events.response.status).toBe(200);
  });

  it('answers 401 without the right key and 404 for an unknown sport', async () => {
    const missing = await fetch(`${standIn.url}/v4/sports/basketball_nba/events`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error_code: 'MISSING_KEY' });
    const wrong = await fetch(`${standIn.url}/v4/sports/basketball_nba/events?apiKey=nope`);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error_code: 'INVALID_KEY' });
    const unknown = await get(standIn, '/v4/sports/curling_world/events');
    expect(unknown.response.status).toBe(404);
    expect(unknown.body.message).toMatch(/^Unknown sport/);
  });

  it('lists scores as strings, and a completed game only in the scores', async () => {
    const game = addPricedGame();
    standIn.setScore(game.id, { home: 113, away: 103, completed: true });
    const scores = await get(standIn, '/v4/sports/basketball_nba/scores', 'daysFrom=1&dateFormat=iso');
    expect(scores.body).toEqual([
      {
        id: game.id,
        sport_key: 'basketball_nba',
        sport_title: 'NBA',
        commence_time: '2026-11-28T19:30:00Z',
        home_team: 'Boston Celtics',
        away_team: 'Miami Heat',
        completed: true,
        scores: [
          { name: 'Boston Celtics', score: '113' },
          { name: 'Miami Heat', score: '103' },
        ],
        last_update: '2026-11-28T12:00:00Z',
      },
    ]);
    expect((await get(standIn, '/v4/sports/basketball_nba/odds', ODDS_QUERY)).body).toEqual([]);
    expect((await get(standIn, '/v4/sports/basketball_nba/events')).body).toEqual([]);
    standIn.clearScore(game.id);
    expect((await get(standIn, '/v4/sports/basketball_nba/events')).body).toHaveLength(1);
  });

  it('goes down and comes back', async () => {
    standIn.setDown(503);
    expect((await fetch(`${standIn.url}/v4/sports?apiKey=${standIn.apiKey}`)).status).toBe(503);
    standIn.setDown(true);
    await expect(fetch(`${standIn.url}/v4/sports?apiKey=${standIn.apiKey}`)).rejects.toThrow();
    standIn.setDown(false);
    expect((await fetch(`${standIn.url}/v4/sports?apiKey=${standIn.apiKey}`)).status).toBe(200);
  });

  it('takes the same controls over HTTP, with its key only', async () => {
    const post = (control: string, body: unknown, key: string | null = standIn.apiKey) =>
      fetch(`${standIn.url}/__stand-in/${control}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(key === null ? {} : { [STAND_IN_KEY_HEADER]: key }),
        },
        body: JSON.stringify(body),
      });

    expect((await post('reset', {}, null)).status).toBe(403);
    expect((await post('reset', {}, 'wrong')).status).toBe(403);
    expect((await post('no-such-control', {}, null)).status).toBe(403);

    const added = await post('add-game', {
      league: 'NHL',
      home: 'Boston Bruins',
      away: 'Toronto Maple Leafs',
      startsAt: '2026-11-28T23:00:00Z',
    });
    expect(added.status).toBe(200);
    const game = (await added.json()) as { id: string; startsAt: string };
    expect(game).toMatchObject({ league: 'NHL', startsAt: '2026-11-28T23:00:00Z' });
    expect(game.id).toMatch(/^[0-9a-f]{32}$/);

    const set = await post('set-odds', {
      id: game.id,
      books: [{ book: 'betmgm', title: 'BetMGM', spread: [{ home: -1.5, homePrice: 160, awayPrice: -190 }] }],
    });
    expect(set.status).toBe(200);
    expect((await post('move-start', { id: game.id, startsAt: '2026-11-29T00:00:00Z' })).status).toBe(200);
    expect((await post('set-score', { id: game.id, home: 1, away: 0, completed: false })).status).toBe(200);
    expect((await post('set-score', { id: game.id, home: 1.5, away: 0, completed: false })).status).toBe(400);
    expect((await post('set-score', { id: 'nope', home: 1, away: 0, completed: false })).status).toBe(404);

    const { body } = await get(standIn, '/v4/sports/icehockey_nhl/odds', ODDS_QUERY);
    expect(body).toMatchObject([
      {
        id: game.id,
        commence_time: '2026-11-29T00:00:00Z',
        bookmakers: [
          {
            key: 'betmgm',
            markets: [
              {
                key: 'spreads',
                outcomes: [
                  { name: 'Boston Bruins', price: 160, point: -1.5 },
                  { name: 'Toronto Maple Leafs', price: -190, point: 1.5 },
                ],
              },
            ],
          },
        ],
      },
    ]);

    const requests = (await (await post('requests', {})).json()) as {
      counts: Record<string, number>;
      last: { query: Record<string, string> };
    };
    expect(requests.counts.odds).toBe(1);
    expect(requests.last.query).toMatchObject({ regions: 'us', markets: 'h2h,spreads,totals' });

    expect((await post('set-down', { down: 503 })).status).toBe(200);
    expect((await get(standIn, '/v4/sports')).response.status).toBe(503);
    expect((await post('reset', {})).status).toBe(200);
    expect((await get(standIn, '/v4/sports/icehockey_nhl/events')).body).toEqual([]);
  });
});
