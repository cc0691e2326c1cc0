// The Results tab and the results feed ('Graded by the scoreboard'): admin only, events to settle
// oldest first, a score grades every pick on the event once, corrections regrade and are logged, props by
// hand, postponed voids; a feed document settles known events, skips those settled alike, leaves conflicts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from '#server/db/drizzle.js';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PickView } from '#common/schemas/pick-views.js';
import {
  HOME_SCORE_MESSAGE,
  REASON_REQUIRED_MESSAGE,
  type ImportSummary,
  type PropLegPage,
  type SettledEventPage,
  type UnsettledEventPage,
} from '#common/schemas/results.js';
import type { Video } from '#common/schemas/videos.js';
import { ConfigError, loadConfig } from '#server/config.js';
import { rowsOf } from '#server/db/rows.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { JobRunner } from '#server/jobs/index.js';
import {
  EVENT_NOT_SETTLED_MESSAGE,
  EVENT_NOT_STARTED_MESSAGE,
  EVENT_SETTLED_MESSAGE,
  LEG_NOT_MANUAL_MESSAGE,
} from '#server/features/picks/grading-service.js';
import {
  FileResultsProvider,
  HttpResultsProvider,
  runResultsImport,
  scheduleResultsFeed,
} from '#server/features/picks/results-feed.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
let capper: { cookie: string; id: number; username: string };
let bettor: { cookie: string; id: number };
let admin: { cookie: string; id: number };
let ip = 0;
const nextIp = () => `10.14.1.${++ip}`;

const HOUR = 3600_000;
const isoIn = (hours: number) =>
  new Date(Math.floor((Date.now() + hours * HOUR) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
let game = 0;

/** A leg on a game of its own (each test's events are its own). */
function newGame(overrides: Record<string, unknown> = {}) {
  game += 1;
  return {
    league: 'NBA',
    home: `Results Home ${game}`,
    away: `Results Away ${game}`,
    startsAt: isoIn(24),
    market: 'spread',
    side: `Results Home ${game}`,
    line: -3.5,
    odds: -110,
    units: 1,
    ...overrides,
  };
}

async function postPick(legs: unknown[], fields: Record<string, string> = {}) {
  const response = await postVideo(t.app, capper.cookie, {
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

async function legsOf(videoId: number) {
  return rowsOf<{ id: number; event_id: number }>(
    await t.database.db.execute(
      sql`select id, event_id from pick_legs where video_id = ${videoId} order by position`,
    ),
  );
}

/** Legs must start in the future when posted: the test then moves the game's start into the past. */
async function startedAt(eventId: number, hoursAgo: number): Promise<string> {
  const startsAt = isoIn(-hoursAgo);
  await t.database.db.execute(sql`update events set starts_at = ${startsAt} where id = ${eventId}`);
  return startsAt;
}

async function pickOf(videoId: number): Promise<PickView> {
  const response = await t.app.inject({ method: 'GET', url: `/api/picks/${videoId}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PickView>();
}

const as = (cookie: string | null) => (cookie ? { cookie } : {});
const get = (url: string, cookie: string | null = admin.cookie) =>
  t.app.inject({ method: 'GET', url, headers: as(cookie) });
const send = (method: 'POST' | 'PUT', url: string, payload: unknown, cookie: string | null = admin.cookie) =>
  t.app.inject({ method, url, payload: payload as object, headers: as(cookie) });

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, nextIp());
  bettor = await registerUser(t.app, {}, nextIp());
  admin = await registerUser(t.app, {}, nextIp());
  await setAdmin(t.database.db, admin.id, true);
});

afterAll(async () => {
  await t?.close();
});

describe('the Results routes', () => {
  it('answer 401 to a visitor and 403 to anyone but an admin', async () => {
    const video = await postPick([newGame()]);
    const [leg] = await legsOf(video.id);
    const requests = [
      { method: 'GET', url: '/api/admin/results' },
      { method: 'GET', url: '/api/admin/results/props' },
      { method: 'GET', url: '/api/admin/results/settled' },
      { method: 'POST', url: `/api/admin/events/${leg!.event_id}/result`, payload: { status: 'cancelled' } },
      {
        method: 'PUT',
        url: `/api/admin/events/${leg!.event_id}/result`,
        payload: { status: 'cancelled', reason: 'x' },
      },
      { method: 'POST', url: `/api/admin/legs/${leg!.id}/grade`, payload: { result: 'win', reason: 'x' } },
      { method: 'POST', url: '/api/admin/results/import', payload: { results: [] } },
    ] as const;
    for (const request of requests) {
      const visitor = await t.app.inject(request);
      expect(visitor.statusCode, `${request.method} ${request.url}`).toBe(401);
      const user = await t.app.inject({ ...request, headers: { cookie: bettor.cookie } });
      expect(user.statusCode, `${request.method} ${request.url}`).toBe(403);
    }
    // Nothing was settled by those attempts.
    expect((await pickOf(video.id)).result).toBeUndefined();
  });

  it('list the events past their start without a result, oldest first, with their legs', async () => {
    const older = await postPick([newGame()]);
    const newer = await postPick([newGame(), newGame()]);
    const future = await postPick([newGame()]);
    const [olderLeg] = await legsOf(older.id);
    const [newerLeg, otherLeg] = await legsOf(newer.id);
    const [futureLeg] = await legsOf(future.id);
    await startedAt(olderLeg!.event_id, 5);
    await startedAt(newerLeg!.event_id, 3);
    await startedAt(otherLeg!.event_id, 4);
    const response = await get('/api/admin/results?limit=100');
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<UnsettledEventPage>();
    const ids = page.events.map((event) => event.id);
    const mine = [olderLeg!.event_id, otherLeg!.event_id, newerLeg!.event_id];
    expect(ids.filter((id) => mine.includes(id))).toEqual(mine);
    expect(ids).not.toContain(futureLeg!.event_id);
    expect(page.total).toBe(page.events.length);
    const shown = page.events.find((event) => event.id === olderLeg!.event_id)!;
    expect(shown).toMatchObject({ status: 'scheduled', homeScore: null, legCount: 1, league: 'NBA' });
    // Paged: the first of them alone.
    const first = (await get('/api/admin/results?limit=1')).json<UnsettledEventPage>();
    expect(first.events).toHaveLength(1);
    expect(first.total).toBe(page.total);
    expect((await get('/api/admin/results?limit=0')).statusCode).toBe(400);
  });

  it('settle an event once: its score grades the picks on it; a second result is refused (409)', async () => {
    const g = newGame();
    const video = await postPick([g]); // Home -3.5 at -110
    const [leg] = await legsOf(video.id);
    await startedAt(leg!.event_id, 2);
    const url = `/api/admin/events/${leg!.event_id}/result`;
    const tooHigh = await send('POST', url, { status: 'final', homeScore: 1000, awayScore: 90 });
    expect(tooHigh.statusCode).toBe(400);
    expect(tooHigh.json().message).toBe(HOME_SCORE_MESSAGE);
    const fraction = await send('POST', url, { status: 'final', homeScore: 100.5, awayScore: 90 });
    expect(fraction.statusCode).toBe(400);
    expect((await send('POST', url, { status: 'finished' })).statusCode).toBe(400);
    expect((await pickOf(video.id)).result).toBeUndefined();

    const settled = await send('POST', url, { status: 'final', homeScore: 110, awayScore: 100 });
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json()).toMatchObject({
      event: { id: leg!.event_id, status: 'final', homeScore: 110, awayScore: 100 },
      legs: 1,
      picks: 1,
    });
    expect(await pickOf(video.id)).toMatchObject({ status: 'graded', result: 'win', unitsWon: 0.91 });
    const again = await send('POST', url, { status: 'final', homeScore: 90, awayScore: 100 });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(EVENT_SETTLED_MESSAGE);
    expect((await pickOf(video.id)).result).toBe('win');
    const list = (await get('/api/admin/results?limit=100')).json<UnsettledEventPage>();
    expect(list.events.map((event) => event.id)).not.toContain(leg!.event_id);
    const settledList = (await get('/api/admin/results/settled')).json<SettledEventPage>();
    expect(settledList.events.find((event) => event.id === leg!.event_id)).toMatchObject({
      source: 'admin',
      homeScore: 110,
      legCount: 1,
    });
  });

  it('refuse a score for a game that has not started, and an unknown event', async () => {
    const video = await postPick([newGame()]);
    const [leg] = await legsOf(video.id);
    const early = await send('POST', `/api/admin/events/${leg!.event_id}/result`, {
      status: 'final',
      homeScore: 1,
      awayScore: 0,
    });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(EVENT_NOT_STARTED_MESSAGE);
    const unknown = await send('POST', '/api/admin/events/2000000000/result', { status: 'cancelled' });
    expect(unknown.statusCode).toBe(404);
  });

  it('correct a settled event with a reason: every pick regraded, before and after logged', async () => {
    const video = await postPick([newGame({ market: 'moneyline', line: null, odds: 150, units: 2 })]);
    const [leg] = await legsOf(video.id);
    const url = `/api/admin/events/${leg!.event_id}/result`;
    const notYet = await send('PUT', url, { status: 'final', homeScore: 1, awayScore: 2, reason: 'Typo' });
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().message).toBe(EVENT_NOT_SETTLED_MESSAGE);
    await startedAt(leg!.event_id, 3);
    expect((await send('POST', url, { status: 'final', homeScore: 3, awayScore: 2 })).statusCode).toBe(200);
    expect(await pickOf(video.id)).toMatchObject({ result: 'win', unitsWon: 3 });

    const noReason = await send('PUT', url, { status: 'final', homeScore: 2, awayScore: 3, reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe(REASON_REQUIRED_MESSAGE);
    const corrected = await send('PUT', url, {
      status: 'final',
      homeScore: 2,
      awayScore: 3,
      reason: 'Box score fixed',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json().event).toMatchObject({ homeScore: 2, awayScore: 3 });
    expect(await pickOf(video.id)).toMatchObject({ result: 'loss', unitsWon: -2 });
    const audit = await get('/api/admin/audit-log');
    const entry = audit
      .json<{ entries: { action: string; targetId: number; before: unknown; after: unknown }[] }>()
      .entries.find((e) => e.action === 'event.correct' && e.targetId === leg!.event_id);
    expect(entry).toMatchObject({
      before: { status: 'final', homeScore: 3, awayScore: 2 },
      after: { status: 'final', homeScore: 2, awayScore: 3, reason: 'Box score fixed' },
    });
    // Corrected to postponed: the leg is void, and so the pick.
    await send('PUT', url, { status: 'postponed', reason: 'Game suspended, replayed later' });
    expect((await pickOf(video.id)).result).toBe('void');
  });

  it('void the legs of a postponed event', async () => {
    const video = await postPick([newGame()]);
    const [leg] = await legsOf(video.id);
    // Postponed needs no start: a game can be called off before it begins.
    const response = await send('POST', `/api/admin/events/${leg!.event_id}/result`, {
      status: 'postponed',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await pickOf(video.id)).toMatchObject({ status: 'graded', result: 'void', unitsWon: 0 });
  });

  it('list props waiting for a grade, and grade them by hand with a reason', async () => {
    const prop = newGame({ market: 'prop', side: 'Star guard over 25.5 points', line: null, odds: 120 });
    const video = await postPick([prop], { title: 'Prop night' });
    const [leg] = await legsOf(video.id);
    const before = (await get('/api/admin/results/props?limit=100')).json<PropLegPage>();
    expect(before.legs.map((l) => l.legId)).not.toContain(leg!.id); // not started yet
    await startedAt(leg!.event_id, 1);
    const page = (await get('/api/admin/results/props?limit=100')).json<PropLegPage>();
    expect(page.legs.find((l) => l.legId === leg!.id)).toMatchObject({
      eventId: leg!.event_id,
      side: 'Star guard over 25.5 points',
      market: 'prop',
      videoId: video.id,
      title: 'Prop night',
      capper: capper.username,
      eventStatus: 'scheduled',
    });
    const url = `/api/admin/legs/${leg!.id}/grade`;
    const noReason = await send('POST', url, { result: 'win', reason: '' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe(REASON_REQUIRED_MESSAGE);
    expect((await send('POST', url, { result: 'won', reason: 'x' })).statusCode).toBe(400);
    const graded = await send('POST', url, { result: 'win', reason: 'He scored 31' });
    expect(graded.statusCode, graded.body).toBe(200);
    expect(await pickOf(video.id)).toMatchObject({ result: 'win', unitsWon: 1.2 });
    const after = (await get('/api/admin/results/props?limit=100')).json<PropLegPage>();
    expect(after.legs.map((l) => l.legId)).not.toContain(leg!.id);

    // A leg graded from the score is not graded by hand.
    const scored = await postPick([newGame()]);
    const [scoredLeg] = await legsOf(scored.id);
    const refused = await send('POST', `/api/admin/legs/${scoredLeg!.id}/grade`, {
      result: 'win',
      reason: 'x',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(LEG_NOT_MANUAL_MESSAGE);
    expect(
      (await send('POST', '/api/admin/legs/2000000000/grade', { result: 'win', reason: 'x' })).statusCode,
    ).toBe(404);
  });
});

/** Three games on picks, started: their feed results, and the picks to check. */
async function feedFixture() {
  const games = [newGame(), newGame(), newGame(), newGame()];
  const video = await postPick(games);
  const legs = await legsOf(video.id);
  const starts: string[] = [];
  for (const [index, leg] of legs.entries()) starts.push(await startedAt(leg.event_id, 2 + index));
  const result = (index: number, outcome: Record<string, unknown>) => ({
    league: 'NBA',
    // Teams are matched whatever their case.
    home: games[index]!.home.toUpperCase(),
    away: games[index]!.away.toLowerCase(),
    // The same instant written with an offset.
    startsAt: new Date(starts[index]!).toISOString().replace('Z', '+00:00'),
    ...outcome,
  });
  return { video, legs, result };
}

describe('the results feed', () => {
  it('settles known events, skips those settled alike, leaves conflicts, counts unknown games; twice is once', async () => {
    const { video, legs, result } = await feedFixture();
    // Two settled beforehand by an admin: one as the feed will say, one differently.
    await send('POST', `/api/admin/events/${legs[2]!.event_id}/result`, {
      status: 'final',
      homeScore: 100,
      awayScore: 90,
    });
    await send('POST', `/api/admin/events/${legs[3]!.event_id}/result`, {
      status: 'final',
      homeScore: 100,
      awayScore: 90,
    });
    const document = {
      results: [
        result(0, { status: 'final', homeScore: 120, awayScore: 100 }),
        result(1, { status: 'cancelled' }),
        result(2, { status: 'final', homeScore: 100, awayScore: 90 }),
        result(3, { status: 'final', homeScore: 90, awayScore: 100 }),
        {
          league: 'NHL',
          home: 'Nobody',
          away: 'Nowhere',
          startsAt: '2020-01-01T00:00:00Z',
          status: 'final',
          homeScore: 1,
          awayScore: 0,
        },
      ],
    };
    const first = await send('POST', '/api/admin/results/import', document);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<ImportSummary>()).toEqual({ settled: 2, alreadySettled: 1, unknown: 1, conflicts: 1 });
    const events = rowsOf<{ id: number; status: string; home_score: number | null; source: string }>(
      await t.database.db.execute(
        sql`select id, status, home_score, source from events where id = any(${sql.param(legs.map((l) => l.event_id))}::int[]) order by id`,
      ),
    );
    const byId = new Map(events.map((e) => [e.id, e]));
    expect(byId.get(legs[0]!.event_id)).toMatchObject({ status: 'final', home_score: 120, source: 'import' });
    expect(byId.get(legs[1]!.event_id)).toMatchObject({ status: 'cancelled', home_score: null });
    // The conflict is not applied: the admin's score stands, and it is logged.
    expect(byId.get(legs[3]!.event_id)).toMatchObject({ status: 'final', home_score: 100, source: 'admin' });
    expect(t.logs()).toContain('results feed conflict');
    // Every leg graded: 120-100 covers -3.5 (win), cancelled (void), 100-90 (win), 100-90 (win).
    expect(await pickOf(video.id)).toMatchObject({ status: 'graded', result: 'win' });

    const second = await send('POST', '/api/admin/results/import', document);
    expect(second.json<ImportSummary>()).toEqual({ settled: 0, alreadySettled: 3, unknown: 1, conflicts: 1 });
  });

  it('refuses a document that is not one, in product words', async () => {
    const cases: [unknown, string][] = [
      [{ games: [] }, 'A results file is a JSON object with a "results" array'],
      [
        {
          results: [
            { league: 'Chess', home: 'A', away: 'B', startsAt: '2020-01-01T00:00:00Z', status: 'cancelled' },
          ],
        },
        'Please choose a league from the list',
      ],
      [
        {
          results: [
            {
              league: 'NBA',
              home: 'A',
              away: 'B',
              startsAt: '2020-01-01T00:00:00Z',
              status: 'final',
              homeScore: -1,
              awayScore: 2,
            },
          ],
        },
        HOME_SCORE_MESSAGE,
      ],
      [
        {
          results: [
            { league: 'NBA', home: 'A', away: 'B', startsAt: '2020-01-01 00:00', status: 'cancelled' },
          ],
        },
        'Start time must be a date and time',
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await send('POST', '/api/admin/results/import', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });

  it('reads a document from a file (the CLI import)', async () => {
    const { video, legs, result } = await feedFixture();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pickreel-results-'));
    try {
      const file = path.join(dir, 'scores.json');
      const results = legs.map((_, index) =>
        result(index, { status: 'final', homeScore: 80, awayScore: 100 }),
      );
      await writeFile(file, JSON.stringify({ results }));
      const provider = new FileResultsProvider(file);
      expect(provider.name).toBe('file:scores.json');
      const summary = await runResultsImport(t.database.db, provider, t.app.log);
      expect(summary).toEqual({ settled: 4, alreadySettled: 0, unknown: 0, conflicts: 0 });
      expect(await pickOf(video.id)).toMatchObject({ result: 'loss', unitsWon: -4 });
      const [event] = rowsOf<{ source: string; settled_by: number | null }>(
        await t.database.db.execute(
          sql`select source, settled_by from events where id = ${legs[0]!.event_id}`,
        ),
      );
      expect(event).toEqual({ source: 'file:scores.json', settled_by: null });
      await writeFile(file, '{"results": [');
      await expect(provider.fetchResults()).rejects.toThrow('The results file is not valid JSON');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('over HTTP', () => {
    let server: Server;
    let url: string;
    let answers: { status: number; body: string }[] = [];
    let requests = 0;

    beforeAll(async () => {
      server = createServer((_request, response) => {
        requests += 1;
        const answer = answers.shift() ?? { status: 503, body: 'down' };
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(answer.body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scores?key=secret`;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it('fetches the document from the address, and names the host as the source', async () => {
      const { video, legs, result } = await feedFixture();
      const results = legs.map((_, index) =>
        result(index, { status: 'final', homeScore: 100, awayScore: 99 }),
      );
      const provider = new HttpResultsProvider(url);
      expect(provider.name).toBe(`feed:${new URL(url).host}`);
      answers = [{ status: 500, body: '{}' }];
      await expect(provider.fetchResults()).rejects.toThrow('answered 500');
      answers = [{ status: 200, body: 'not json' }];
      await expect(provider.fetchResults()).rejects.toThrow('The results file is not valid JSON');
      answers = [{ status: 200, body: JSON.stringify({ results }) }];
      const summary = await runResultsImport(t.database.db, provider, t.app.log);
      expect(summary).toEqual({ settled: 4, alreadySettled: 0, unknown: 0, conflicts: 0 });
      // 100-99 does not cover -3.5: every leg loses.
      expect(await pickOf(video.id)).toMatchObject({ result: 'loss' });
    });

    it('runs on a schedule that logs failures and goes on, and stops when its job runner stops', async () => {
      const { video, legs, result } = await feedFixture();
      const results = legs.map((_, index) => result(index, { status: 'postponed' }));
      const logs: string[] = [];
      const app = Fastify({
        logger: {
          level: 'info',
          stream: { write: (line: string) => void logs.push(line) },
        },
      });
      requests = 0;
      // The first fetch fails; the next brings the document.
      answers = [
        { status: 502, body: 'bad gateway' },
        { status: 200, body: JSON.stringify({ results }) },
      ];
      // A worker's job runner on the test's database, as main.ts starts it.
      const jobs = new JobRunner({ db: t.database.db, log: app.log, reclaimOnStart: false, pollMs: 20 });
      scheduleResultsFeed(jobs, {
        db: t.database.db,
        provider: new HttpResultsProvider(url),
        intervalMs: 50,
        log: app.log,
      });
      jobs.start();
      try {
        await expect.poll(async () => (await pickOf(video.id)).result, { timeout: 10_000 }).toBe('void');
        expect(logs.join('')).toContain('results feed failed');
        expect(logs.join('')).toContain('answered 502');
      } finally {
        await jobs.stop();
        await app.close();
      }
      const after = requests;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(requests).toBe(after);
    });

    it('is fetched by the server at start when RESULTS_FEED_URL is set', async () => {
      requests = 0;
      answers = [{ status: 200, body: JSON.stringify({ results: [] }) }];
      const withFeed = await createTestApp({ env: { RESULTS_FEED_URL: url } });
      withFeed.app.jobs.start(); // as main.ts does
      try {
        expect(withFeed.config.resultsFeed).toEqual({ url, intervalSeconds: 300 });
        await expect.poll(() => requests, { timeout: 10_000 }).toBe(1);
      } finally {
        await withFeed.close();
      }
    });
  });
});

describe('the results feed settings', () => {
  const base = { DATA_DIR: '/tmp/pickreel-results-config', SESSION_SECRET: 'x'.repeat(40) };

  it('fetch nothing unless RESULTS_FEED_URL is set, every 300 s by default', () => {
    expect(loadConfig(base).resultsFeed).toBeUndefined();
    expect(loadConfig({ ...base, RESULTS_FEED_URL: 'https://scores.example/feed.json' }).resultsFeed).toEqual(
      {
        url: 'https://scores.example/feed.json',
        intervalSeconds: 300,
      },
    );
    expect(
      loadConfig({
        ...base,
        RESULTS_FEED_URL: 'http://127.0.0.1:8080/x',
        RESULTS_FEED_INTERVAL_SECONDS: '60',
      }).resultsFeed,
    ).toEqual({ url: 'http://127.0.0.1:8080/x', intervalSeconds: 60 });
  });

  it('stop start-up on an address that is not http(s) or an interval under 30 s', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };
    expect(problems({ RESULTS_FEED_URL: 'ftp://scores.example/feed.json' })).toEqual([
      'RESULTS_FEED_URL: must be an http:// or https:// URL',
    ]);
    expect(problems({ RESULTS_FEED_URL: 'not a url' })).toEqual([
      'RESULTS_FEED_URL: must be an http:// or https:// URL',
    ]);
    expect(problems({ RESULTS_FEED_INTERVAL_SECONDS: '10' })).toEqual([
      'RESULTS_FEED_INTERVAL_SECONDS: must be at least 30 seconds',
    ]);
    expect(problems({ RESULTS_FEED_INTERVAL_SECONDS: '45.5' })).toEqual([
      'RESULTS_FEED_INTERVAL_SECONDS: must be a whole number of seconds',
    ]);
  });
});
