// An insider with write access to the database against `npm run verify` (docs/pick-log.md 'What the
// verifier checks'): each trick on the real server's tables is caught with its one-line reason. Picks here
// are on market games, closed and graded the way the app does it (the stand-in's prices and scores).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { forgetRecords } from '#server/features/cappers/index.js';
import { regradePicks } from '#server/features/picks/grading-service.js';
import type { Video } from '#common/schemas/videos.js';
import { VerificationError } from '#verifier/verification-error.js';
import { verifySite, type VerifyOptions, type VerifyResult } from '#verifier/verify-site.js';
import { finishGame, inHours, marketGame, marketLeg, type TestGame } from '../setup/market.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

const HOUR = 3600_000;
let t: TestApp;
let site: string;
let capper: { cookie: string; id: number; username: string };
/** Graded picks: a win (home moneyline, 3-1) and a loss (home moneyline, 0-2), each on its own game. */
let winning: number;
let losing: number;
const homes: string[] = [];

async function post(game: TestGame, leg: Record<string, unknown>): Promise<number> {
  const response = await postVideo(t.app, capper.cookie, {
    ...VALID_FIELDS,
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    legs: JSON.stringify([marketLeg(game, leg)]),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>().id;
}

function newHome(): string {
  const home = mkdtempSync(path.join(os.tmpdir(), 'pickreel-tamper-'));
  homes.push(home);
  return home;
}

/** The verifier's answer: its result, or the kind and one-line message of what it caught. */
async function verify(
  options: VerifyOptions = {},
  home = newHome(),
): Promise<VerifyResult | { kind: string; message: string }> {
  // The server keeps records for seconds and the latest checkpoint for a quarter second: a tamperer waits.
  forgetRecords(t.database.db);
  await new Promise((resolve) => setTimeout(resolve, 300));
  try {
    return await verifySite(site, options, { stateDir: home });
  } catch (error) {
    if (!(error instanceof VerificationError)) throw error;
    expect(error.message).not.toContain('\n');
    return { kind: error.kind, message: error.message };
  }
}

async function legOf(videoId: number): Promise<{ id: number; eventId: number }> {
  const [leg] = rowsOf<{ id: number; eventId: number }>(
    await t.database.db.execute(
      sql`select id, event_id as "eventId" from pick_legs where video_id = ${videoId}`,
    ),
  );
  return leg!;
}

beforeEach(async () => {
  t = await createTestApp({ market: true });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  site = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  capper = await registerUser(t.app, {}, '10.17.0.1');
  const first = await marketGame(t, { league: 'NBA', startsAt: inHours(1) });
  const second = await marketGame(t, { league: 'NBA', startsAt: inHours(1) });
  winning = await post(first, { market: 'moneyline', side: first.game.home, line: null });
  losing = await post(second, { market: 'moneyline', side: second.game.home, line: null });
  // After the start by the app's clock: the closing prices are kept and logged, then the scores grade.
  const later = new Date(Date.now() + 3 * HOUR);
  await finishGame(t, first, { home: 3, away: 1 }, later);
  await finishGame(t, second, { home: 0, away: 2 }, later);
  await t.app.pickLog.flush();
});

afterEach(async () => {
  await t?.close();
});

afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe('the honest log', () => {
  it('passes: every grade regraded from the logged scores, CLV from the logged closes, every figure served', async () => {
    const result = await verify({ capper: capper.username });
    expect(result).toMatchObject({ capper: { log: { wins: 1, losses: 1, graded: 2 } } });
    const verified = result as VerifyResult;
    // Both legs closed at the books' prices: CLV on both bets.
    expect(verified.capper!.log.clv).toMatchObject({ bets: 2 });
    expect(verified.served!.cappers).toBeGreaterThanOrEqual(1);
    expect(verified.served!.leaderboards).toBeGreaterThanOrEqual(9);
  });
});

describe('tampering with the database', () => {
  it("a sealed leg's odds edited, then the pick regraded: the grade does not follow from its revealed pick", async () => {
    const leg = await legOf(winning);
    await t.database.db.execute(sql`update pick_legs set odds = 900 where id = ${leg.id}`);
    await regradePicks(t.database.db, [winning], new Date());
    await t.app.pickLog.flush();
    expect(await verify()).toEqual({
      kind: 'grade',
      message: expect.stringMatching(
        new RegExp(
          `^entry \\d+ \\(video ${winning}\\): graded win \\+9\\.00u .* but its legs as logged grade it win \\+`,
        ),
      ),
    });
  });

  it("a sealed pick's text edited: the profile shows legs other than the ones the log reveals", async () => {
    await t.database.db.execute(
      sql`update picks set sealed = regexp_replace(sealed, '"odds":-?[0-9]+', '"odds":500', 'g')
        where video_id = ${losing}`,
    );
    expect(await verify()).toEqual({
      kind: 'record',
      message: expect.stringMatching(
        new RegExp(`lists video ${losing} with legs other than the ones it sealed`),
      ),
    });
  });

  it('a result flipped on the leg and the pick regraded: the logged score denies it', async () => {
    const leg = await legOf(losing);
    await t.database.db.execute(sql`update pick_legs set result = 'win' where id = ${leg.id}`);
    await regradePicks(t.database.db, [losing], new Date());
    await t.app.pickLog.flush();
    expect(await verify()).toEqual({
      kind: 'grade',
      message: expect.stringMatching(
        /is graded win, but the score in entry \d+ \(final 0-2\) makes it a loss$/,
      ),
    });
  });

  it("a result flipped in the picks table only: the profile's record differs from the log's", async () => {
    await t.database.db.execute(
      sql`update picks set result = 'win', units_won = 2, bets_won = 1, bets_lost = 0 where video_id = ${losing}`,
    );
    expect(await verify()).toEqual({
      kind: 'record',
      message: expect.stringMatching(
        /profile \(last 30 days\) says wins 2, the log has 1; losses 0, the log has 1/,
      ),
    });
  });

  it('a game’s score changed in the events table and its legs regraded: the grade rests on a logged score that says otherwise', async () => {
    const leg = await legOf(losing);
    await t.database.db.execute(sql`update events set home_score = 5 where id = ${leg.eventId}`);
    await t.database.db.execute(sql`update pick_legs set result = 'win' where id = ${leg.id}`);
    await regradePicks(t.database.db, [losing], new Date());
    await t.app.pickLog.flush();
    const caught = await verify();
    expect(caught).toMatchObject({
      kind: 'grade',
      message: expect.stringContaining('(final 0-2) makes it a loss'),
    });
  });

  it("the stored record totals inflated: the record badge and the leaderboard differ from the log's", async () => {
    await t.database.db.execute(
      sql`update record_bands set wins = wins + 40, units_won = units_won + 500, picks = picks + 40
        where user_id = ${capper.id}`,
    );
    expect(await verify()).toEqual({
      kind: 'record',
      message: expect.stringMatching(
        new RegExp(
          `^${capper.username}'s record badge says wins 41, the log has 1; .*units won 499\\.69u, the log has -0\\.31u`,
        ),
      ),
    });
  });

  it('a pick row deleted: the profile lists fewer graded picks than the log', async () => {
    await t.database.db.execute(sql`delete from picks where video_id = ${losing}`);
    expect(await verify()).toEqual({
      kind: 'record',
      message: expect.stringMatching(/profile \(last 30 days\) says losses 0, the log has 1/),
    });
  });

  it('a loss marked as removed by moderation (never logged): the record still counts it in the log', async () => {
    await t.database.db.execute(sql`update picks set removed = 'moderation' where video_id = ${losing}`);
    expect(await verify()).toEqual({
      kind: 'record',
      message: expect.stringMatching(/says losses 0, the log has 1/),
    });
  });

  it('the log rolled back to before the loss was graded: a verifier that saw it catches the rewrite', async () => {
    const home = newHome();
    const honest = await verify({}, home);
    expect(honest).toHaveProperty('size');
    const [graded] = rowsOf<{ idx: string | number }>(
      await t.database.db.execute(
        sql`select idx from log_entries where video_id = ${losing} and type = 'graded'`,
      ),
    );
    const keep = Number(graded!.idx);
    await t.database.db.execute(sql`delete from log_entries where idx >= ${keep}`);
    await t.database.db.execute(sql`delete from log_nodes where (idx + 1) * (1::bigint << level) > ${keep}`);
    await t.database.db.execute(sql`delete from log_checkpoints where size > ${keep}`);
    await t.database.db.execute(sql`update log_state set size = ${keep}`);
    // The checkpoint served is the latest one left, or one the server signs over the shorter log.
    expect(await verify({}, home)).toEqual({
      kind: 'consistency',
      message: expect.stringMatching(
        new RegExp(`^the log was rewritten: it now has \\d+ entries, it had ${(honest as VerifyResult).size} entries`),
      ),
    });
  });
});
