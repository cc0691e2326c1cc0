import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ESPN_LEAGUE_PATHS,
  EspnScoreboard,
  MAX_ESPN_ANSWER_BYTES,
  sameGameByTeams,
  type TeamsAndStart,
} from './espn-scoreboard.js';
import { MarketProviderError } from './provider.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const NO_QUOTA = { remaining: null, used: null, last: null };

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local stand-in for site.api.espn.com: answers as the current test says and keeps every request. */
let handler: Handler;
let requests: URL[] = [];
let server: ReturnType<typeof createServer>;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(new URL(req.url ?? '/', baseUrl));
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
});

afterEach(() => {
  requests = [];
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function scoreboard(events: unknown[]) {
  return { leagues: [{ id: '46', abbreviation: 'NBA' }], day: { date: '2026-11-28' }, events };
}

function espn(options: Partial<{ baseUrl: string; timeoutMs: number }> = {}) {
  return new EspnScoreboard({
    baseUrl,
    leagues: ['NBA', 'College Football', 'Soccer'],
    now: () => NOW,
    ...options,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<MarketProviderError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MarketProviderError);
  return error as MarketProviderError;
}

interface StatusType {
  name: string;
  state: 'pre' | 'in' | 'post';
  completed: boolean;
}

const FINAL: StatusType = { name: 'STATUS_FINAL', state: 'post', completed: true };
const HALFTIME: StatusType = { name: 'STATUS_HALFTIME', state: 'in', completed: false };
const SCHEDULED: StatusType = { name: 'STATUS_SCHEDULED', state: 'pre', completed: false };

/** An event as ESPN's scoreboard writes it, trimmed to a few of its many fields. */
function event(
  id: string,
  date: string,
  home: [name: string, score?: string],
  away: [name: string, score?: string],
  type: StatusType,
) {
  const competitor = ([name, score]: [string, string?], homeAway: 'home' | 'away', order: number) => ({
    id: String(100 + order),
    type: 'team',
    order,
    homeAway,
    team: { id: String(100 + order), displayName: name, abbreviation: name.slice(0, 3).toUpperCase() },
    ...(score === undefined ? {} : { score }),
  });
  const status = {
    clock: 0,
    displayClock: '0.0',
    period: 0,
    type: { id: '1', ...type, description: type.name, detail: type.name, shortDetail: type.name },
  };
  return {
    id,
    uid: `s:40~l:46~e:${id}`,
    date,
    name: `${away[0]} at ${home[0]}`,
    competitions: [
      {
        id,
        date,
        timeValid: true,
        neutralSite: false,
        competitors: [competitor(home, 'home', 0), competitor(away, 'away', 1)],
        status,
      },
    ],
    status,
  };
}

const final = event(
  '401700001',
  '2026-11-28T00:30Z',
  ['Boston Celtics', '112'],
  ['Miami Heat', '104'],
  FINAL,
);
const live = event(
  '401700002',
  '2026-11-28T03:00:00.000Z',
  ['LA Clippers', '55'],
  ['Denver Nuggets', '61'],
  HALFTIME,
);
// ESPN shows 0-0 before the start
const upcoming = event(
  '401700003',
  '2026-11-29T01:00Z',
  ['New York Knicks', '0'],
  ['Brooklyn Nets', '0'],
  SCHEDULED,
);
const upcomingUnscored = event(
  '401700004',
  '2026-11-29T03:30Z',
  ['Golden State Warriors'],
  ['Phoenix Suns'],
  SCHEDULED,
);
// marked completed, as ESPN may do for a game that will not be played that day
const postponed = event('401700005', '2026-11-28T01:00Z', ['Milwaukee Bucks', '0'], ['Chicago Bulls', '0'], {
  name: 'STATUS_POSTPONED',
  state: 'post',
  completed: true,
});
const cancelled = event('401700006', '2026-11-27T01:00Z', ['Utah Jazz', '0'], ['Dallas Mavericks', '0'], {
  name: 'STATUS_CANCELED',
  state: 'post',
  completed: false,
});

const malformed: unknown[] = [
  null,
  'not an event',
  { ...final, id: undefined },
  { ...final, id: '401700010', competitions: [] },
  (() => {
    const one = event(
      '401700011',
      '2026-11-28T01:00Z',
      ['Orlando Magic', '99'],
      ['Atlanta Hawks', '98'],
      FINAL,
    );
    one.competitions[0]!.competitors.pop();
    return one;
  })(),
  (() => {
    const both = event(
      '401700012',
      '2026-11-28T01:00Z',
      ['Orlando Magic', '99'],
      ['Atlanta Hawks', '98'],
      FINAL,
    );
    both.competitions[0]!.competitors[1]!.homeAway = 'home';
    return both;
  })(),
  event('401700013', '2026-13-40T01:00Z', ['Orlando Magic'], ['Atlanta Hawks'], SCHEDULED),
  // a final without a score cannot be graded
  event('401700014', '2026-11-28T01:00Z', ['Orlando Magic', '99'], ['Atlanta Hawks'], FINAL),
  event('401700015', '2026-11-28T01:00Z', ['Orlando Magic', '99.5'], ['Atlanta Hawks', '98'], FINAL),
  (() => {
    const noStatus: Record<string, unknown> = event(
      '401700016',
      '2026-11-28T01:00Z',
      ['Orlando Magic'],
      ['Atlanta Hawks'],
      SCHEDULED,
    );
    delete noStatus.status;
    delete (noStatus.competitions as Record<string, unknown>[])[0]!.status;
    return noStatus;
  })(),
  // a start ESPN has not set yet ('TBD') carries a placeholder time
  (() => {
    const tbd = event('401700017', '2026-11-29T05:00Z', ['Orlando Magic'], ['Atlanta Hawks'], SCHEDULED);
    tbd.competitions[0]!.timeValid = false;
    return tbd;
  })(),
];

const SLATE = scoreboard([
  final,
  live,
  upcoming,
  upcomingUnscored,
  postponed,
  cancelled,
  ...malformed,
  final,
]);

describe('EspnScoreboard', () => {
  it('reads every game with its score, skipping what it cannot read', async () => {
    handler = (_req, res) => json(res, 200, SLATE);

    const answer = await espn().scores('NBA', 1);

    expect(answer.quota).toEqual(NO_QUOTA);
    expect(answer.data).toEqual([
      {
        game: {
          id: 'espn:401700001',
          league: 'NBA',
          home: 'Boston Celtics',
          away: 'Miami Heat',
          startsAt: '2026-11-28T00:30:00Z',
        },
        completed: true,
        homeScore: 112,
        awayScore: 104,
        updatedAt: null,
      },
      {
        game: {
          id: 'espn:401700002',
          league: 'NBA',
          home: 'LA Clippers',
          away: 'Denver Nuggets',
          startsAt: '2026-11-28T03:00:00Z',
        },
        completed: false,
        homeScore: 55,
        awayScore: 61,
        updatedAt: null,
      },
      {
        game: {
          id: 'espn:401700003',
          league: 'NBA',
          home: 'New York Knicks',
          away: 'Brooklyn Nets',
          startsAt: '2026-11-29T01:00:00Z',
        },
        completed: false,
        homeScore: null,
        awayScore: null,
        updatedAt: null,
      },
      {
        game: {
          id: 'espn:401700004',
          league: 'NBA',
          home: 'Golden State Warriors',
          away: 'Phoenix Suns',
          startsAt: '2026-11-29T03:30:00Z',
        },
        completed: false,
        homeScore: null,
        awayScore: null,
        updatedAt: null,
      },
      {
        game: {
          id: 'espn:401700005',
          league: 'NBA',
          home: 'Milwaukee Bucks',
          away: 'Chicago Bulls',
          startsAt: '2026-11-28T01:00:00Z',
        },
        completed: false,
        homeScore: null,
        awayScore: null,
        updatedAt: null,
      },
      {
        game: {
          id: 'espn:401700006',
          league: 'NBA',
          home: 'Utah Jazz',
          away: 'Dallas Mavericks',
          startsAt: '2026-11-27T01:00:00Z',
        },
        completed: false,
        homeScore: null,
        awayScore: null,
        updatedAt: null,
      },
    ]);
  });

  it('lists only upcoming and live games on the schedule', async () => {
    handler = (_req, res) => json(res, 200, SLATE);

    const answer = await espn().schedule('NBA');

    expect(answer.quota).toEqual(NO_QUOTA);
    expect(answer.data.map((game) => [game.id, game.startsAt])).toEqual([
      ['espn:401700002', '2026-11-28T03:00:00Z'],
      ['espn:401700003', '2026-11-29T01:00:00Z'],
      ['espn:401700004', '2026-11-29T03:30:00Z'],
    ]);
    expect(answer.data[0]).toEqual({
      id: 'espn:401700002',
      league: 'NBA',
      home: 'LA Clippers',
      away: 'Denver Nuggets',
      startsAt: '2026-11-28T03:00:00Z',
    });
    const asked = requests.at(-1);
    expect(asked?.pathname).toBe('/apis/site/v2/sports/basketball/nba/scoreboard');
    expect(asked?.search).toBe('?dates=20261127-20261129&limit=1000');
  });

  it('asks for the last daysFrom days through tomorrow, in UTC dates', async () => {
    handler = (_req, res) => json(res, 200, scoreboard([]));
    const provider = espn();

    await provider.scores('NBA', 1);
    await provider.scores('NBA', 3);
    // out of range: the nearest of 1 to 3
    await provider.scores('NBA', 7);
    await provider.scores('NBA', 0);

    expect(requests.map((url) => url.pathname)).toEqual(
      Array(4).fill('/apis/site/v2/sports/basketball/nba/scoreboard'),
    );
    expect(requests.map((url) => url.searchParams.get('dates'))).toEqual([
      '20261127-20261129',
      '20261125-20261129',
      '20261125-20261129',
      '20261127-20261129',
    ]);
    expect(requests.map((url) => url.searchParams.get('limit'))).toEqual(Array(4).fill('1000'));
  });

  it('crosses a month and a year by UTC dates', async () => {
    handler = (_req, res) => json(res, 200, scoreboard([]));
    // late on 31 December in New York is already 1 January in UTC
    const provider = new EspnScoreboard({
      baseUrl,
      leagues: ['NHL'],
      now: () => new Date('2027-01-01T03:00:00Z'),
    });

    await provider.scores('NHL', 3);

    expect(requests[0]?.pathname).toBe('/apis/site/v2/sports/hockey/nhl/scoreboard');
    expect(requests[0]?.searchParams.get('dates')).toBe('20261229-20270102');
  });

  it('asks the college scoreboards for the whole division, and soccer for MLS', async () => {
    handler = (_req, res) => json(res, 200, scoreboard([]));
    const provider = espn();

    await provider.scores('College Football', 2);
    await provider.schedule('Soccer');

    expect(requests[0]?.pathname).toBe('/apis/site/v2/sports/football/college-football/scoreboard');
    expect(requests[0]?.search).toBe('?dates=20261126-20261129&limit=1000&groups=80');
    expect(requests[1]?.pathname).toBe('/apis/site/v2/sports/soccer/usa.1/scoreboard');
    expect(requests[1]?.search).toBe('?dates=20261127-20261129&limit=1000');
    expect(ESPN_LEAGUE_PATHS['College Basketball']).toEqual({
      sport: 'basketball',
      league: 'mens-college-basketball',
      groups: '50',
    });
  });

  it('refuses a league ESPN has no scoreboard for', () => {
    expect(() => new EspnScoreboard({ leagues: ['NBA', 'Golf'] })).toThrow(/Golf/);
  });

  it('fails with the status of a non-2xx answer', async () => {
    handler = (_req, res) => json(res, 503, { code: 503, message: 'Service Unavailable' });

    const error = await failureOf(espn().scores('NBA', 1));

    expect(error.status).toBe(503);
    expect(error.message).toContain('HTTP 503: Service Unavailable');
    expect(error.quotaExhausted).toBe(false);
  });

  it('does not follow a redirect', async () => {
    handler = (req, res) => {
      if (req.url?.startsWith('/elsewhere')) json(res, 200, SLATE);
      else {
        res.writeHead(302, { location: `${baseUrl}/elsewhere${req.url}` });
        res.end();
      }
    };

    const error = await failureOf(espn().scores('NBA', 1));

    expect(error.status).toBe(302);
    expect(requests.map((url) => url.pathname)).toEqual(['/apis/site/v2/sports/basketball/nba/scoreboard']);
  });

  it('refuses a body over the limit, announced or not, and takes one at it', async () => {
    const padded = (bytes: number) => {
      const body = JSON.stringify(scoreboard([final]));
      return body + ' '.repeat(bytes - Buffer.byteLength(body));
    };
    const provider = espn();

    // Content-Length set by Node from the whole body
    handler = (_req, res) => json(res, 200, padded(MAX_ESPN_ANSWER_BYTES + 1));
    const announced = await failureOf(provider.scores('NBA', 1));
    expect(announced.message).toContain(`over ${MAX_ESPN_ANSWER_BYTES} bytes`);
    expect(announced.status).toBe(200);

    // chunked: only reading it finds the size
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const body = padded(MAX_ESPN_ANSWER_BYTES + 1);
      const half = Math.floor(body.length / 2);
      res.write(body.slice(0, half));
      res.end(body.slice(half));
    };
    const streamed = await failureOf(provider.scores('NBA', 1));
    expect(streamed.message).toContain(`over ${MAX_ESPN_ANSWER_BYTES} bytes`);

    handler = (_req, res) => json(res, 200, padded(MAX_ESPN_ANSWER_BYTES));
    const { data } = await provider.scores('NBA', 1);
    expect(data.map((score) => score.game.id)).toEqual(['espn:401700001']);
  });

  it('fails on a body that is not a scoreboard', async () => {
    handler = (_req, res) => json(res, 200, '<html>maintenance</html>');
    const notJson = await failureOf(espn().scores('NBA', 1));
    expect(notJson.message).toContain('not JSON');
    expect(notJson.status).toBe(200);

    handler = (_req, res) => json(res, 200, { leagues: [] });
    const noEvents = await failureOf(espn().schedule('NBA'));
    expect(noEvents.message).toContain('not a scoreboard');
  });

  it('fails without a status when there is no answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const refused = await failureOf(espn({ baseUrl: `http://127.0.0.1:${port}` }).scores('NBA', 1));
    expect(refused.status).toBeNull();
    expect(refused.message).toContain('no answer');

    // a peer that never answers: the call gives up rather than hangs
    handler = () => {};
    const silent = await failureOf(espn({ timeoutMs: 200 }).scores('NBA', 1));
    expect(silent.status).toBeNull();
    expect(silent.message).toContain('no answer within 200 ms');
  });
});

function game(home: string, away: string, startsAt: string, league?: TeamsAndStart['league']): TeamsAndStart {
  return league === undefined ? { home, away, startsAt } : { home, away, startsAt, league };
}

describe('sameGameByTeams', () => {
  it('matches the names two providers write differently', () => {
    // NBA
    expect(
      sameGameByTeams(
        game('LA Clippers', 'Denver Nuggets', '2026-11-28T03:00:00Z'),
        game('Los Angeles Clippers', 'Denver Nuggets', '2026-11-28T03:10:00Z'),
      ),
    ).toBe(true);
    // NHL
    expect(
      sameGameByTeams(
        game('St. Louis Blues', 'Montréal Canadiens', '2026-11-28T01:00:00Z', 'NHL'),
        game('St Louis Blues', 'Montreal Canadiens', '2026-11-28T01:00:00Z', 'NHL'),
      ),
    ).toBe(true);
    // NFL
    expect(
      sameGameByTeams(
        game('Los Angeles Rams', 'New York Giants', '2026-11-29T21:25:00Z', 'NFL'),
        game('LA Rams', 'NY Giants', '2026-11-29T21:25:00Z', 'NFL'),
      ),
    ).toBe(true);
    // MLB: 'Sox' is two teams' nickname, so the whole names are compared
    expect(
      sameGameByTeams(
        game('Athletics', 'Chicago White Sox', '2026-06-01T02:05:00Z', 'MLB'),
        game('Oakland Athletics', 'Chicago White Sox', '2026-06-01T02:05:00Z', 'MLB'),
      ),
    ).toBe(true);
    // College: shared mascots, so the whole names, with marks and accents set aside
    expect(
      sameGameByTeams(
        game(
          "Hawai'i Rainbow Warriors",
          'San José State Spartans',
          '2026-11-29T05:00:00Z',
          'College Football',
        ),
        game(
          'Hawaii Rainbow Warriors',
          'San Jose State Spartans',
          '2026-11-29T05:00:00Z',
          'College Football',
        ),
      ),
    ).toBe(true);
    expect(
      sameGameByTeams(
        game('Ohio State Buckeyes', 'Michigan Wolverines', '2026-11-28T17:00:00Z', 'College Football'),
        game('Ohio St. Buckeyes', 'Michigan Wolverines', '2026-11-28T17:00:00Z', 'College Football'),
      ),
    ).toBe(true);
    // Soccer: a club's FC is not part of its name everywhere
    expect(
      sameGameByTeams(
        game('Seattle Sounders FC', 'CF Montréal', '2026-10-18T02:30:00Z', 'Soccer'),
        game('Seattle Sounders', 'CF Montreal', '2026-10-18T02:30:00Z', 'Soccer'),
      ),
    ).toBe(true);
  });

  it('allows starts up to maxHours apart', () => {
    const espnGame = game('Boston Celtics', 'Miami Heat', '2026-11-28T00:30:00Z');
    expect(sameGameByTeams(espnGame, game('Boston Celtics', 'Miami Heat', '2026-11-28T12:30:00Z'))).toBe(
      true,
    );
    expect(sameGameByTeams(espnGame, game('Boston Celtics', 'Miami Heat', '2026-11-28T20:30:00Z'))).toBe(
      false,
    );
    expect(sameGameByTeams(espnGame, game('Boston Celtics', 'Miami Heat', '2026-11-28T20:30:00Z'), 24)).toBe(
      true,
    );
    expect(sameGameByTeams(espnGame, game('Boston Celtics', 'Miami Heat', 'soon'))).toBe(false);
  });

  it('tells different games apart', () => {
    const at = '2026-11-28T03:00:00Z';
    // home and away swapped: the other venue
    expect(
      sameGameByTeams(
        game('LA Clippers', 'Denver Nuggets', at),
        game('Denver Nuggets', 'Los Angeles Clippers', at),
      ),
    ).toBe(false);
    // same city, another team
    expect(
      sameGameByTeams(
        game('LA Clippers', 'Denver Nuggets', at),
        game('Los Angeles Lakers', 'Denver Nuggets', at),
      ),
    ).toBe(false);
    expect(
      sameGameByTeams(
        game('New York Jets', 'Buffalo Bills', at, 'NFL'),
        game('New York Giants', 'Buffalo Bills', at),
      ),
    ).toBe(false);
    // a shared nickname is not enough
    expect(
      sameGameByTeams(
        game('Boston Red Sox', 'New York Yankees', at, 'MLB'),
        game('Chicago White Sox', 'New York Yankees', at, 'MLB'),
      ),
    ).toBe(false);
    expect(
      sameGameByTeams(
        game('Kentucky Wildcats', 'Auburn Tigers', at, 'College Basketball'),
        game('Arizona Wildcats', 'LSU Tigers', at, 'College Basketball'),
      ),
    ).toBe(false);
    expect(
      sameGameByTeams(
        game('Ohio State', 'Indiana', at, 'College Basketball'),
        game('Michigan State', 'Indiana', at, 'College Basketball'),
      ),
    ).toBe(false);
    // two leagues' games never are one
    expect(
      sameGameByTeams(game('Florida Panthers', 'New York Rangers', at, 'NHL'), {
        ...game('Florida Panthers', 'New York Rangers', at),
        league: 'NFL',
      }),
    ).toBe(false);
  });
});
