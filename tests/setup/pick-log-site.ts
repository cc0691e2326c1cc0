// What the API tests of the log against a listening server share: a market pick posted, its game settled,
// the log's size and waiting for the checkpoint to cover it.
import { expect } from 'vitest';
import type { Video } from '#common/schemas/videos.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { settleEvent } from '#server/features/picks/grading-service.js';
import { inHours, marketLegFor } from './market.js';
import type { TestApp } from './test-app.js';
import { postVideo, VALID_FIELDS } from './upload-requests.js';

/** Far enough ahead that every game of a test has started when it is settled. */
export const LATER = new Date(Date.now() + 1000 * 3600_000);

let game = 0;

/** Posts a pick with one moneyline leg at +150, 2 units, on a new NHL game tomorrow; returns its video id. */
export async function postMarketPick(t: TestApp, cookie: string): Promise<number> {
  game += 1;
  const leg = await marketLegFor(t, {
    league: 'NHL',
    home: `Home ${game}`,
    away: `Away ${game}`,
    startsAt: inHours(24),
    market: 'moneyline',
    side: `Home ${game}`,
    line: null,
    odds: 150,
    units: 2,
  });
  const response = await postVideo(t.app, cookie, {
    ...VALID_FIELDS,
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    legs: JSON.stringify([leg]),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>().id;
}

/** Settles the game of a pick's leg as the results feed would, with a final score. */
export async function settlePick(t: TestApp, videoId: number, homeScore: number, awayScore: number) {
  const [leg] = rowsOf<{ event_id: number }>(
    await t.database.db.execute(sql`select event_id from pick_legs where video_id = ${videoId}`),
  );
  await settleEvent(
    t.database.db,
    leg!.event_id,
    { status: 'final', homeScore, awayScore },
    { adminId: null, source: 'test' },
    LATER,
  );
}

export async function logSize(t: TestApp): Promise<number> {
  const [row] = rowsOf<{ size: string | number }>(
    await t.database.db.execute(sql`select size from log_state`),
  );
  return Number(row!.size);
}

/** Waits until the server at `site` has signed every entry appended so far (within a second of the last). */
export async function signedAll(t: TestApp, site: string): Promise<void> {
  const wanted = await logSize(t);
  for (let attempt = 0; attempt < 100; attempt++) {
    const note = await (await fetch(`${site}/api/log/checkpoint`)).text();
    if (Number(note.split('\n')[1]) >= wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the checkpoint did not catch up');
}
