import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, OddsApiProvider, readQuota } from './odds-api-provider.js';
import { MarketProviderError } from './provider.js';
import { startMarketStandIn, type MarketStandIn } from './stand-in.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const CREDITS = 500;

let standIn: MarketStandIn;
let provider: OddsApiProvider;

beforeAll(async () => {
  standIn = await startMarketStandIn({ credits: CREDITS, now: () => new Date(NOW) });
  provider = new OddsApiProvider({
    apiKey: standIn.apiKey,
    baseUrl: standIn.url,
    leagues: ['NBA', 'NFL', 'Soccer'],
  });
});

afterAll(async () => {
  await standIn.close();
});

afterEach(() => {
  standIn.reset();
});

/** A throwaway HTTP server answering as `handle` says, for what the stand-in never serves. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

async function failureOf(promise: Promise<unknown>): Promise<MarketProviderError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MarketProviderError);
  return error as MarketProviderError;
}

describe('OddsApiProvider against the stand-in', () => {
  it('asks for the odds exactly as the provider documents and normalises every market', async () => {
    const game = standIn.addGame({
      league: 'NBA',
      home: 'Boston Celtics',
      away: 'Miami Heat',
      startsAt: '2026-11-28T19:30:00.000Z',
    });
    standIn.setOdds(game.id, [
      {
        book: 'draftkings',
        title: 'DraftKings',
        updatedAt: '2026-11-28T11:59:30.250Z',
        moneyline: { home: -150, away: 130 },
        spread: { home: -3.5, homePrice: -110, awayPrice: -110 },
        total: [
          { point: 221.5, over: -108, under: -112 },
          { point: 222, over: 100, under: -120 },
        ],
      },
      // prices no book quotes: a fraction, inside ±100
      {
        book: 'fanduel',
        title: 'FanDuel',
        moneyline: { home: -150.5, away: 99 },
        spread: { home: 0, homePrice: 100, awayPrice: -100 },
      },
      // nothing usable at all
      { book: 'betmgm', title: 'BetMGM', moneyline: { home: 50, away: -50 } },
    ]);

    const answer = await provider.odds('NBA');

    expect(game.id).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.data).toEqual([
      {
        game: {
          id: game.id,
          league: 'NBA',
          home: 'Boston Celtics',
          away: 'Miami Heat',
          startsAt: '2026-11-28T19:30:00Z',
        },
        books: [
          {
            book: 'draftkings',
            title: 'DraftKings',
            updatedAt: '2026-11-28T11:59:30Z',
            prices: [
              { market: 'moneyline', side: 'Boston Celtics', point: null, price: -150 },
              { market: 'moneyline', side: 'Miami Heat', point: null, price: 130 },
              { market: 'spread', side: 'Boston Celtics', point: -3.5, price: -110 },
              { market: 'spread', side: 'Miami Heat', point: 3.5, price: -110 },
              { market: 'total', side: 'over', point: 221.5, price: -108 },
              { market: 'total', side: 'under', point: 221.5, price: -112 },
              { market: 'total', side: 'over', point: 222, price: 100 },
              { market: 'total', side: 'under', point: 222, price: -120 },
            ],
          },
          {
            book: 'fanduel',
            title: 'FanDuel',
            updatedAt: '2026-11-28T12:00:00Z',
            prices: [
              { market: 'spread', side: 'Boston Celtics', point: 0, price: 100 },
              { market: 'spread', side: 'Miami Heat', point: 0, price: -100 },
            ],
          },
        ],
      },
    ]);
    const asked = standIn.requests().last;
    expect(asked?.path).toBe('/v4/sports/basketball_nba/odds');
    expect(asked?.search).toBe(
      `?apiKey=${standIn.apiKey}&regions=us&markets=h2h,spreads,totals&oddsFormat=american&dateFormat=iso`,
    );
    // three markets, one region
    expect(answer.quota).toEqual({ remaining: CREDITS - 3, used: 3, last: 3 });
  });

  it("ignores a soccer moneyline's Draw", async () => {
    const game = standIn.addGame({
      league: 'Soccer',
      home: 'LA Galaxy',
      away: 'Seattle Sounders FC',
      startsAt: '2026-11-28T20:00:00Z',
    });
    standIn.setOdds(game.id, [
      { book: 'bovada', title: 'Bovada', moneyline: { home: 140, away: 190, draw: 230 } },
    ]);

    const { data } = await provider.odds('Soccer');

    expect(standIn.requests().last?.path).toBe('/v4/sports/soccer_usa_mls/odds');
    expect(data[0]?.books[0]?.prices).toEqual([
      { market: 'moneyline', side: 'LA Galaxy', point: null, price: 140 },
      { market: 'moneyline', side: 'Seattle Sounders FC', point: null, price: 190 },
    ]);
  });

  it('reads the schedule from the free events endpoint', async () => {
    const later = standIn.addGame({
      league: 'NFL',
      home: 'Buffalo Bills',
      away: 'Miami Dolphins',
      startsAt: '2026-11-29T18:00:00Z',
    });
    const sooner = standIn.addGame({
      league: 'NFL',
      home: 'Dallas Cowboys',
      away: 'New York Giants',
      startsAt: '2026-11-28T21:25:00Z',
    });
    const done = standIn.addGame({
      league: 'NFL',
      home: 'Detroit Lions',
      away: 'Chicago Bears',
      startsAt: '2026-11-27T17:30:00Z',
    });
    standIn.setScore(done.id, { home: 24, away: 20, completed: true });
    standIn.addGame({
      league: 'NBA',
      home: 'Utah Jazz',
      away: 'Denver Nuggets',
      startsAt: '2026-11-28T22:00:00Z',
    });

    const answer = await provider.schedule('NFL');

    expect(answer.data).toEqual([
      {
        id: sooner.id,
        league: 'NFL',
        home: 'Dallas Cowboys',
        away: 'New York Giants',
        startsAt: '2026-11-28T21:25:00Z',
      },
      {
        id: later.id,
        league: 'NFL',
        home: 'Buffalo Bills',
        away: 'Miami Dolphins',
        startsAt: '2026-11-29T18:00:00Z',
      },
    ]);
    const asked = standIn.requests().last;
    expect(asked?.path).toBe('/v4/sports/americanfootball_nfl/events');
    expect(asked?.search).toBe(`?apiKey=${standIn.apiKey}&dateFormat=iso`);
    expect(answer.quota).toEqual({ remaining: CREDITS, used: 0, last: 0 });
  });

  it('parses string scores: live, final, not started', async () => {
    const final = standIn.addGame({
      league: 'NBA',
      home: 'Sacramento Kings',
      away: 'Oklahoma City Thunder',
      startsAt: '2026-11-27T03:10:00Z',
    });
    const live = standIn.addGame({
      league: 'NBA',
      home: 'Phoenix Suns',
      away: 'Utah Jazz',
      startsAt: '2026-11-28T11:00:00Z',
    });
    const upcoming = standIn.addGame({
      league: 'NBA',
      home: 'Chicago Bulls',
      away: 'Orlando Magic',
      startsAt: '2026-11-28T23:00:00Z',
    });
    const old = standIn.addGame({
      league: 'NBA',
      home: 'Boston Celtics',
      away: 'New York Knicks',
      startsAt: '2026-11-24T23:00:00Z',
    });
    standIn.setScore(final.id, { home: 113, away: 103, completed: true });
    standIn.setScore(live.id, { home: 56, away: 61, completed: false });
    standIn.setScore(old.id, { home: 99, away: 101, completed: true });

    const answer = await provider.scores('NBA', 2);

    expect(answer.data).toEqual([
      {
        game: {
          id: final.id,
          league: 'NBA',
          home: 'Sacramento Kings',
          away: 'Oklahoma City Thunder',
          startsAt: '2026-11-27T03:10:00Z',
        },
        completed: true,
        homeScore: 113,
        awayScore: 103,
        updatedAt: '2026-11-28T12:00:00Z',
      },
      {
        game: {
          id: live.id,
          league: 'NBA',
          home: 'Phoenix Suns',
          away: 'Utah Jazz',
          startsAt: '2026-11-28T11:00:00Z',
        },
        completed: false,
        homeScore: 56,
        awayScore: 61,
        updatedAt: '2026-11-28T12:00:00Z',
      },
      {
        game: {
          id: upcoming.id,
          league: 'NBA',
          home: 'Chicago Bulls',
          away: 'Orlando Magic',
          startsAt: '2026-11-28T23:00:00Z',
        },
        completed: false,
        homeScore: null,
        awayScore: null,
        updatedAt: null,
      },
    ]);
    const asked = standIn.requests().last;
    expect(asked?.path).toBe('/v4/sports/basketball_nba/scores');
    expect(asked?.search).toBe(`?apiKey=${standIn.apiKey}&daysFrom=2&dateFormat=iso`);
    expect(answer.quota).toEqual({ remaining: CREDITS - 2, used: 2, last: 2 });
  });

  it('clamps daysFrom to a whole number from 1 to 3', async () => {
    for (const [asked, sent] of [
      [7, '3'],
      [0, '1'],
      [-2, '1'],
      [2.4, '2'],
      [Number.NaN, '3'],
    ] as const) {
      await provider.scores('NBA', asked);
      expect(standIn.requests().last?.query.daysFrom).toBe(sent);
    }
  });

  it('asks under the sport key it is given', async () => {
    const preseason = new OddsApiProvider({
      apiKey: standIn.apiKey,
      baseUrl: `${standIn.url}/`,
      leagues: ['NBA'],
      sportKeys: { NBA: 'basketball_nba_preseason' },
    });

    const error = await failureOf(preseason.odds('NBA'));

    expect(standIn.requests().last?.path).toBe('/v4/sports/basketball_nba_preseason/odds');
    expect(error.status).toBe(404);
    expect(error.message).toContain('Unknown sport');
  });

  it('refuses a league it has no sport key for', () => {
    expect(() => new OddsApiProvider({ apiKey: 'k', leagues: ['Golf'] })).toThrow(/Golf/);
  });

  it('fails with 401 for a wrong key, without the key in the message', async () => {
    const wrongKey = 'not-the-key-0123456789';
    const stranger = new OddsApiProvider({ apiKey: wrongKey, baseUrl: standIn.url, leagues: ['NBA'] });

    const error = await failureOf(stranger.odds('NBA'));

    expect(error.status).toBe(401);
    expect(error.quotaExhausted).toBe(false);
    expect(error.message).not.toContain(wrongKey);
  });

  it('says when the credits ran out, without the key in the message', async () => {
    standIn.setCredits(0);

    const error = await failureOf(provider.odds('NBA'));

    expect(error.status).toBe(401);
    expect(error.quotaExhausted).toBe(true);
    expect(error.message).toContain('quota');
    expect(error.message).not.toContain(standIn.apiKey);
    // the schedule is free
    await expect(provider.schedule('NBA')).resolves.toMatchObject({ data: [] });
  });

  it('fails when the provider is down or drops the connection', async () => {
    standIn.setDown(503);
    const unavailable = await failureOf(provider.schedule('NBA'));
    expect(unavailable.status).toBe(503);
    expect(unavailable.quotaExhausted).toBe(false);

    standIn.setDown(true);
    const dropped = await failureOf(provider.schedule('NBA'));
    expect(dropped.status).toBeNull();
    expect(dropped.message).not.toContain(standIn.apiKey);
  });
});

describe('OddsApiProvider against a misbehaving provider', () => {
  const teams = { home_team: 'Boston Celtics', away_team: 'Miami Heat' };
  const book = (markets: unknown) => ({
    key: 'fanduel',
    title: 'FanDuel',
    last_update: '2026-11-28T11:00:00Z',
    markets,
  });

  it('skips a malformed game, never the whole answer', async () => {
    const body = [
      // the provider's sport key is not ours to check: the game is the league's it was asked for
      {
        id: 'a',
        sport_key: 'basketball_nba_preseason',
        commence_time: '2026-11-28T19:30:00Z',
        ...teams,
        extra: { x: 1 },
        bookmakers: [],
      },
      { id: 'no-time', ...teams, bookmakers: [] },
      { id: 'bad-time', commence_time: 'tomorrow', ...teams, bookmakers: [] },
      { commence_time: '2026-11-28T19:30:00Z', ...teams, bookmakers: [] },
      { id: 'one-team', commence_time: '2026-11-28T19:30:00Z', home_team: 'Boston Celtics', bookmakers: [] },
      { id: 'bad-books', commence_time: '2026-11-28T19:30:00Z', ...teams, bookmakers: 'many' },
      null,
      'x',
      {
        id: 'b',
        commence_time: '2026-11-28T20:00:00+01:00',
        ...teams,
        bookmakers: [
          null,
          { title: 'No key', last_update: '2026-11-28T11:00:00Z', markets: [] },
          book([
            { key: 'h2h_lay', outcomes: [{ name: 'Boston Celtics', price: -120 }] },
            {
              key: 'h2h',
              outcomes: [
                { name: 'Boston Celtics', price: -120 },
                { name: 'Chicago Bulls', price: 100 },
                { name: 'Miami Heat', price: '110' },
              ],
            },
            {
              key: 'spreads',
              outcomes: [
                { name: 'Boston Celtics', price: -110 },
                { name: 'Miami Heat', price: -110, point: 2.5 },
              ],
            },
            {
              key: 'totals',
              outcomes: [
                { name: 'Over', price: -110, point: 'x' },
                { name: 'Under', price: -110, point: 220 },
                { name: 'Neither', price: -110, point: 220 },
              ],
            },
          ]),
          {
            key: 'nodate',
            title: 'No date',
            markets: [{ key: 'h2h', outcomes: [{ name: 'Miami Heat', price: 120 }] }],
          },
        ],
      },
      { id: 'a', commence_time: '2026-11-30T19:30:00Z', ...teams, bookmakers: [] },
    ];
    const server = await serve((_req, res) => json(res, 200, body));
    try {
      const odd = new OddsApiProvider({ apiKey: 'key', baseUrl: server.url, leagues: ['NBA'] });

      const { data, quota } = await odd.odds('NBA');

      expect(data).toEqual([
        {
          game: {
            id: 'a',
            league: 'NBA',
            home: 'Boston Celtics',
            away: 'Miami Heat',
            startsAt: '2026-11-28T19:30:00Z',
          },
          books: [],
        },
        {
          game: {
            id: 'b',
            league: 'NBA',
            home: 'Boston Celtics',
            away: 'Miami Heat',
            startsAt: '2026-11-28T19:00:00Z',
          },
          books: [
            {
              book: 'fanduel',
              title: 'FanDuel',
              updatedAt: '2026-11-28T11:00:00Z',
              prices: [
                { market: 'moneyline', side: 'Boston Celtics', point: null, price: -120 },
                { market: 'spread', side: 'Miami Heat', point: 2.5, price: -110 },
                { market: 'total', side: 'under', point: 220, price: -110 },
              ],
            },
          ],
        },
      ]);
      expect(quota).toEqual({ remaining: null, used: null, last: null });
    } finally {
      await server.close();
    }
  });

  it('skips a final score that is not a whole number, and hides a live one', async () => {
    const game = (id: string, completed: unknown, scores: unknown) => ({
      id,
      commence_time: '2026-11-28T01:00:00Z',
      ...teams,
      completed,
      scores,
      last_update: '2026-11-28T03:00:00Z',
    });
    const body = [
      game('final', true, [
        { name: 'Miami Heat', score: '99' },
        { name: 'Boston Celtics', score: '102' },
      ]),
      game('half-point', true, [
        { name: 'Boston Celtics', score: '102.5' },
        { name: 'Miami Heat', score: '99' },
      ]),
      game('negative', true, [
        { name: 'Boston Celtics', score: '-1' },
        { name: 'Miami Heat', score: '99' },
      ]),
      game('one-side', true, [{ name: 'Boston Celtics', score: '102' }]),
      game('no-flag', undefined, null),
      game('live-garbled', false, [
        { name: 'Boston Celtics', score: 'ten' },
        { name: 'Miami Heat', score: '9' },
      ]),
    ];
    const server = await serve((_req, res) => json(res, 200, body));
    try {
      const odd = new OddsApiProvider({ apiKey: 'key', baseUrl: server.url, leagues: ['NBA'] });

      const { data } = await odd.scores('NBA', 3);

      expect(
        data.map(({ game: { id }, completed, homeScore, awayScore }) => ({
          id,
          completed,
          homeScore,
          awayScore,
        })),
      ).toEqual([
        { id: 'final', completed: true, homeScore: 102, awayScore: 99 },
        { id: 'live-garbled', completed: false, homeScore: null, awayScore: null },
      ]);
    } finally {
      await server.close();
    }
  });

  it('fails for an answer that is not a JSON list', async () => {
    for (const body of ['{"data": []}', 'not json', '']) {
      const server = await serve((_req, res) => json(res, 200, body));
      try {
        const odd = new OddsApiProvider({ apiKey: 'key', baseUrl: server.url, leagues: ['NBA'] });
        const error = await failureOf(odd.schedule('NBA'));
        expect(error.status).toBe(200);
      } finally {
        await server.close();
      }
    }
  });

  it('never shows the key, even when the provider echoes it', async () => {
    const apiKey = 'secret key/with+signs&more';
    const server = await serve((req, res) => {
      const sent = new URL(req.url ?? '/', 'http://x').searchParams.get('apiKey');
      json(res, 429, {
        message: `Too many requests for ${req.url} (key ${sent})`,
        error_code: 'EXCEEDED_FREQ_LIMIT',
      });
    });
    try {
      const odd = new OddsApiProvider({ apiKey, baseUrl: server.url, leagues: ['NBA'] });

      const error = await failureOf(odd.odds('NBA'));

      expect(error.status).toBe(429);
      expect(error.quotaExhausted).toBe(false);
      expect(error.message).toContain(
        'Too many requests for /v4/sports/basketball_nba/odds?apiKey=[redacted]&regions=us',
      );
      expect(error.message).toContain('(key [redacted])');
      expect(error.message).not.toContain('secret');
      expect(JSON.stringify(odd)).not.toContain('secret');
    } finally {
      await server.close();
    }
  });

  it('tells credits run out from other refusals', async () => {
    const cases = [
      { status: 401, body: { message: 'Refused.', error_code: 'OUT_OF_USAGE_CREDITS' }, exhausted: true },
      { status: 429, body: { message: 'Usage quota has been reached' }, exhausted: true },
      {
        status: 401,
        body: { message: 'API key is not valid.', error_code: 'INVALID_KEY' },
        exhausted: false,
      },
      { status: 429, body: { message: 'Slow down.', error_code: 'EXCEEDED_FREQ_LIMIT' }, exhausted: false },
      { status: 500, body: '<html>quota</html>', exhausted: false },
    ];
    for (const { status, body, exhausted } of cases) {
      const server = await serve((_req, res) => json(res, status, body));
      try {
        const odd = new OddsApiProvider({ apiKey: 'key', baseUrl: server.url, leagues: ['NBA'] });
        const error = await failureOf(odd.odds('NBA'));
        expect(error).toMatchObject({ status, quotaExhausted: exhausted });
      } finally {
        await server.close();
      }
    }
  });

  it('gives up after its timeout', async () => {
    const server = await serve(() => {
      // never answers
    });
    try {
      const odd = new OddsApiProvider({
        apiKey: 'key',
        baseUrl: server.url,
        leagues: ['NBA'],
        timeoutMs: 100,
      });
      const error = await failureOf(odd.schedule('NBA'));
      expect(error.status).toBeNull();
      expect(error.message).toContain('no answer within 100 ms');
    } finally {
      await server.close();
    }
  });

  it('refuses an answer over 64 MB, announced or not', async () => {
    const announced = await serve((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(MAX_ANSWER_BYTES + 1),
      });
      res.write('[');
    });
    const streamed = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent <= MAX_ANSWER_BYTES) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end(']');
      };
      res.on('error', () => {});
      res.write('[');
      more();
    });
    try {
      for (const server of [announced, streamed]) {
        const odd = new OddsApiProvider({ apiKey: 'key', baseUrl: server.url, leagues: ['NBA'] });
        const error = await failureOf(odd.schedule('NBA'));
        expect(error.message).toContain(`over ${MAX_ANSWER_BYTES} bytes`);
      }
    } finally {
      await announced.close();
      await streamed.close();
    }
  });

  it('reads the quota headers, null when missing or not a number', () => {
    expect(
      readQuota(
        new Headers({ 'x-requests-remaining': '19994', 'x-requests-used': '6', 'x-requests-last': '3' }),
      ),
    ).toEqual({ remaining: 19994, used: 6, last: 3 });
    expect(readQuota(new Headers({ 'x-requests-remaining': 'lots', 'x-requests-used': '' }))).toEqual({
      remaining: null,
      used: null,
      last: null,
    });
  });
});

describe('a full slate', () => {
  it('parses 1,500 games × 8 books × 3 markets', async () => {
    const books = [
      'draftkings',
      'fanduel',
      'betmgm',
      'williamhill_us',
      'betrivers',
      'bovada',
      'lowvig',
      'betonlineag',
    ];
    const games = Array.from({ length: 1500 }, (_, i) => {
      const home = `Home ${i}`;
      const away = `Away ${i}`;
      const time = new Date(Date.UTC(2026, 10, 28, 18) + i * 60_000).toISOString().replace('.000', '');
      return {
        id: i.toString(16).padStart(32, '0'),
        sport_key: 'basketball_nba',
        sport_title: 'NBA',
        commence_time: time,
        home_team: home,
        away_team: away,
        bookmakers: books.map((key, b) => ({
          key,
          title: key,
          last_update: time,
          markets: [
            {
              key: 'h2h',
              last_update: time,
              outcomes: [
                { name: home, price: -150 - b },
                { name: away, price: 130 + b },
              ],
            },
            {
              key: 'spreads',
              last_update: time,
              outcomes: [
                { name: home, price: -110, point: -3.5 },
                { name: away, price: -110, point: 3.5 },
              ],
            },
            {
              key: 'totals',
              last_update: time,
              outcomes: [
                { name: 'Over', price: -105, point: 221.5 },
                { name: 'Under', price: -115, point: 221.5 },
              ],
            },
          ],
        })),
      };
    });
    const text = JSON.stringify(games);
    const server = await serve((_req, res) => json(res, 200, text, { 'x-requests-last': '3' }));
    try {
      const odd = new OddsApiProvider({ apiKey: 'key', baseUrl: server.url, leagues: ['NBA'] });

      const { data, quota } = await odd.odds('NBA');

      expect(data).toHaveLength(1500);
      expect(
        data.reduce(
          (sum, { books: priced }) => sum + priced.reduce((n, { prices }) => n + prices.length, 0),
          0,
        ),
      ).toBe(1500 * 8 * 6);
      expect(data[1499]?.books[7]?.prices[0]).toEqual({
        market: 'moneyline',
        side: 'Home 1499',
        point: null,
        price: -157,
      });
      expect(quota.last).toBe(3);
    } finally {
      await server.close();
    }
  });
});
