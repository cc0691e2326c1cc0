// The trust story's server parts: the record badges' last results, the pick page's titled log entries
// (with a correction), and the /log page's pick titles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Records } from '#common/schemas/cappers.js';
import type { LogPicks } from '#common/schemas/pick-log.js';
import type { PickView } from '#common/schemas/pick-views.js';
import type { Video } from '#common/schemas/videos.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { forgetRecords } from '#server/features/cappers/index.js';
import { correctEvent } from '#server/features/picks/grading-service.js';
import { finishGame, marketGame, marketLeg } from '../setup/market.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let capper: User;
let admin: User;
let ip = 0;
const nextIp = () => `10.35.${Math.floor(++ip / 250)}.${ip % 250}`;
const HOUR = 3600_000;
const LATER = Date.now() + 1000 * HOUR;

const get = (url: string) => t.app.inject({ method: 'GET', url });
async function postPick(legs: unknown[], title = 'Friday card'): Promise<Video> {
  const response = await postVideo(t.app, capper.cookie, {
    ...VALID_FIELDS,
    title,
    description: 'Why the line is wrong',
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    legs: JSON.stringify(legs),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}
async function pickOf(videoId: number): Promise<PickView> {
  await t.app.pickLog.flush();
  const response = await get(`/api/picks/${videoId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PickView>();
}
async function records(names: string[]): Promise<Records> {
  forgetRecords(t.database.db);
  const response = await get(`/api/records?usernames=${names.join(',')}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Records>();
}

beforeAll(async () => {
  t = await createTestApp({ market: { leagues: 'NBA' } });
  capper = await registerUser(t.app, {}, nextIp());
  admin = await registerUser(t.app, {}, nextIp());
  await setAdmin(t.database.db, admin.id, true);
});

afterAll(async () => {
  await t?.close();
});

describe('the record badges', () => {
  it("carry the capper's last ten counted results, oldest first, in the same answer as the figures", async () => {
    const newcomer = await registerUser(t.app, {}, nextIp());
    expect((await records([newcomer.username]))[newcomer.username]).toMatchObject({
      graded: 0,
      lastResults: [],
    });

    // Eleven winners on one game, then a loser graded an hour later: the last ten are nine wins, then it.
    const first = await marketGame(t);
    for (let i = 0; i < 11; i++) await postPick([marketLeg(first)], `Early card ${i}`);
    const second = await marketGame(t);
    await postPick([marketLeg(second)], 'Late card');
    await finishGame(t, first, { home: 120, away: 100 }, new Date(LATER));
    await finishGame(t, second, { home: 90, away: 100 }, new Date(LATER + HOUR));

    const record = (await records([capper.username, newcomer.username]))[capper.username]!;
    expect(record).toMatchObject({ wins: 11, losses: 1, pushes: 0, picks: 12 });
    expect(record.lastResults).toEqual([...Array<string>(9).fill('win'), 'loss']);
  });
});

describe("a pick's log entries", () => {
  it('are titled from their own fields: sealed, settled with the score, graded with units, a corrected score', async () => {
    const game = await marketGame(t);
    const video = await postPick([marketLeg(game)], 'Sunday card');
    await finishGame(t, game, { home: 112, away: 100 }, new Date(LATER));
    await correctEvent(
      t.database.db,
      game.eventId,
      { status: 'final', homeScore: 99, awayScore: 100 },
      { id: admin.id },
      'Scorer’s error fixed',
      new Date(LATER + HOUR),
    );
    const pick = await pickOf(video.id);
    const { home, away } = game.game;
    expect(pick.log.map((ref) => [ref.type, ref.title])).toEqual([
      ['posted', 'Sealed — version 1'],
      ['closed', `Closing prices: ${away} at ${home}`],
      ['settled', `Settled: ${away} 100 – ${home} 112`],
      ['graded', expect.stringMatching(/^Graded: Won \+0\.\du$/)],
      ['corrected', `Corrected score: ${away} 100 – ${home} 112 → ${away} 100 – ${home} 99`],
      ['graded', 'Graded: Lost −1u'],
    ]);
    expect(pick.corrections).toEqual([
      expect.objectContaining({
        before: 'final 112-100',
        after: 'final 99-100',
        reason: 'Scorer’s error fixed',
      }),
    ]);
  });
});

describe('GET /api/log/picks', () => {
  it("gives each named video's pick title, and says when the video is gone", async () => {
    const game = await marketGame(t);
    const kept = await postPick([marketLeg(game)], 'Kept card');
    const gone = await postPick([marketLeg(game)], 'Gone card');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/videos/${gone.id}`,
      headers: { cookie: capper.cookie },
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const response = await get(`/api/log/picks?videoIds=${kept.id},${gone.id},99999999`);
    expect(response.statusCode, response.body).toBe(200);
    const picks = response.json<LogPicks>().picks;
    expect(picks).toEqual(
      expect.arrayContaining([
        { videoId: kept.id, title: 'Kept card', deleted: false },
        { videoId: 99999999, title: null, deleted: true },
      ]),
    );
    expect(picks.find((pick) => pick.videoId === gone.id)).toMatchObject({ deleted: true });
  });

  it('refuses what is not a list of ids, with a message', async () => {
    for (const query of [
      '',
      '?videoIds=',
      '?videoIds=abc',
      '?videoIds=1,,2',
      `?videoIds=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
    ]) {
      const response = await get(`/api/log/picks${query}`);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/video ids/);
    }
  });
});
