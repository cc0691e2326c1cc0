// The leaderboard's and badges' totals are kept in record_bands by the record module, in the transactions
// that change picks (keepRecord), and moved between age bands by a recurring roll of their clock (decisions
// 020, 033). Every figure must equal summariseRecord over the counted picks themselves (bets, units, CLV;
// self-reported picks never counted): checked here after a bulk load and a rebuild, then after inserts,
// regrades, withdrawn grades, moderation, backdating and deletes written in SQL through keepRecord, with
// the clock rolled days ahead and reads on either side of it; and a read writes nothing.
import pg from 'pg';
import { sql, type SQL } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  summariseRecord,
  type PickGrade,
  type RecordedPick,
  type RecordSummary,
} from '#common/pick-grading.js';
import { LEADERBOARD_MIN_PICKS, type Leaderboard, type Records } from '#common/schemas/cappers.js';
import type { League } from '#common/schemas/picks.js';
import { rowsOf } from '#server/db/rows.js';
import { leaderboard } from '#server/features/cappers/record/record-service.js';
import {
  forgetRecords,
  keepRecord,
  rebuildRecordBands,
  rollRecordBands,
} from '#server/features/cappers/index.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let cappers: User[];
const DAY = 24 * 3600_000;
const RESULTS = ['win', 'loss', 'push', 'void'] as const;
const PERIODS = [
  ['30', 30],
  ['90', 90],
  ['all', Infinity],
] as const;

// A fixed sequence, so a failure repeats.
let seed = 20261125;
function random(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const cents = (value: number) => Math.round(value * 100) / 100;

let nextVideo = 900_000_000;
const base = Date.now();

/**
 * Picks written straight into the table, graded or not: as a bulk import does (the bands rebuilt after), or
 * each through keepRecord (`kept`), as a writer of picks does.
 */
async function insertPicks(count: number, leagues: readonly string[], kept = true) {
  for (let i = 0; i < count; i += 1) {
    const capper = pick(cappers);
    const graded = random() < 0.85;
    const result = graded ? pick(RESULTS) : null;
    const risked = result === 'win' || result === 'loss' ? cents(0.5 + random() * 4) : 0;
    const won = result === 'win' ? cents(random() * 5) : result === 'loss' ? -risked : 0;
    // Graded from 200 days ago to 40 days ahead (tests grade "later" than now as well).
    const gradedAt = graded ? new Date(base - 200 * DAY + random() * 240 * DAY) : null;
    const removed = random() < 0.1 ? pick(['capper', 'moderation']) : null;
    const selfReported = random() < 0.15;
    // Bets by result (a straight pick of up to three legs), and their CLV: at least one bet when graded.
    const bets: number[] = graded ? [0, 1, 2, 3].map(() => Math.floor(random() * 2)) : [0, 0, 0, 0];
    if (graded && !bets.some((n) => n > 0)) bets[RESULTS.indexOf(result as (typeof RESULTS)[number])] = 1;
    const clvBets = Math.floor(random() * (bets[0]! + bets[1]! + bets[2]! + 1));
    const clvSum = Math.round((random() * 20 - 10) * clvBets * 10_000) / 10_000;
    const clvBeat = Math.floor(random() * (clvBets + 1));
    nextVideo += 1;
    const insert = (db: typeof t.database.db) =>
      db.execute(sql`
      insert into picks (video_id, user_id, league, leg_count, commitment, sealed, posted_at, first_posted_at,
        locks_at, result, units_won, units_risked, graded_at, removed, title, self_reported, bets_won,
        bets_lost, bets_pushed, bets_void, clv_bets, clv_sum, clv_beat)
      values (${nextVideo}, ${capper.id}, ${pick(leagues)}, 1, ${`c${nextVideo}`}, '{}', now(), now(), now(),
        ${result}, ${graded ? won : null}, ${graded ? risked : null}, ${gradedAt?.toISOString() ?? null},
        ${removed}, 'Bench-like pick', ${selfReported}, ${bets[0]!}, ${bets[1]!}, ${bets[2]!}, ${bets[3]!},
        ${clvBets}, ${clvSum}, ${clvBeat})`);
    const videoId = nextVideo;
    if (kept) await t.database.db.transaction((tx) => keepRecord(tx, [videoId], () => insert(tx)));
    else await insert(t.database.db);
  }
}

/** An update or delete of the picks `where` selects, in one transaction through keepRecord. */
async function change(where: SQL, write: (ids: SQL) => SQL) {
  await t.database.db.transaction(async (tx) => {
    const ids = rowsOf<{ id: number }>(
      await tx.execute(sql`select video_id as id from picks where ${where}`),
    ).map((row) => row.id);
    const selected = sql`video_id = any(${sql.param(ids)}::int[])`;
    await keepRecord(tx, ids, () => tx.execute(write(selected)));
  });
}

/** The bands' clock and every band row, as text: what a read must leave as it found. */
async function bandsState() {
  return JSON.stringify(
    rowsOf(
      await t.database.db.execute(sql`
        select (select as_of from record_bands_clock) as clock, coalesce(json_agg(b order by user_id, league, band), '[]') as bands
        from record_bands b`),
    ),
  );
}

interface PickRow {
  user_id: number;
  league: string;
  result: PickGrade['result'] | null;
  units_won: string | number | null;
  units_risked: string | number | null;
  graded_at: Date | string | null;
  removed: string | null;
  self_reported: boolean;
  bets_won: number;
  bets_lost: number;
  bets_pushed: number;
  bets_void: number;
  clv_bets: number;
  clv_sum: string | number;
  clv_beat: number;
}

/** What the record should say: summariseRecord over the counted picks, as the profile computes it. */
async function expected(now: number) {
  const rows = rowsOf<PickRow>(
    await t.database.db.execute(
      sql`select user_id, league, result, units_won, units_risked, graded_at, removed, self_reported,
        bets_won, bets_lost, bets_pushed, bets_void, clv_bets, clv_sum, clv_beat from picks`,
    ),
  );
  const counted = rows.filter(
    (row) => row.result !== null && row.removed !== 'moderation' && !row.self_reported,
  );
  const records = (filter: (row: PickRow) => boolean) => {
    const byUser = new Map<number, RecordedPick[]>();
    for (const row of counted.filter(filter)) {
      const list = byUser.get(row.user_id) ?? [];
      list.push({
        result: row.result!,
        unitsWon: Number(row.units_won),
        unitsRisked: Number(row.units_risked),
        bets: { win: row.bets_won, loss: row.bets_lost, push: row.bets_pushed, void: row.bets_void },
        clv: { bets: row.clv_bets, sum: Number(row.clv_sum), beat: row.clv_beat },
      });
      byUser.set(row.user_id, list);
    }
    return new Map([...byUser].map(([id, grades]) => [id, summariseRecord(grades)]));
  };
  const within = (days: number) => (row: PickRow) =>
    days === Infinity || new Date(row.graded_at!).getTime() >= now - days * DAY;
  return { records, within };
}

const nameOf = (id: number) => cappers.find((capper) => capper.id === id)!.username;

/** Compares every period and league; returns how many cappers each period listed. */
async function expectBoardsAt(now: number, leagues: readonly string[]) {
  const { records, within } = await expected(now);
  const listedBy: Record<string, number> = {};
  for (const [period, days] of PERIODS) {
    let listed = 0;
    for (const league of [undefined, ...leagues]) {
      forgetRecords(t.database.db);
      const board: Leaderboard = await leaderboard(
        t.database.db,
        { period, league: league as League | undefined, sort: 'units', limit: 100, offset: 0 },
        new Date(now),
      );
      const want = new Map<string, RecordSummary>();
      for (const [id, summary] of records((row) => within(days)(row) && (!league || row.league === league)))
        if (summary.wins + summary.losses >= LEADERBOARD_MIN_PICKS) want.set(nameOf(id), summary);
      const got = new Map(board.entries.map((entry) => [entry.username, entry.record]));
      expect({ period, league, records: got }).toEqual({ period, league, records: want });
      listed += got.size;
    }
    listedBy[period] = listed;
  }
  // Not only empty boards compared with empty expectations.
  expect(listedBy.all).toBeGreaterThan(0);
  return listedBy;
}

async function expectBadges() {
  const { records } = await expected(Date.now());
  const all = records(() => true);
  const names = cappers.map((capper) => capper.username).join(',');
  const response = await t.app.inject({ method: 'GET', url: `/api/records?usernames=${names}` });
  expect(response.statusCode, response.body).toBe(200);
  const want: Record<string, RecordSummary> = {};
  for (const capper of cappers) want[capper.username] = all.get(capper.id) ?? summariseRecord([]);
  // The badges' last results are the cards' dots (graded-picks.test.ts); the figures are these.
  const figures: Record<string, RecordSummary> = {};
  for (const [name, record] of Object.entries(response.json<Records>())) {
    const { lastResults, ...summary } = record;
    expect(lastResults.length).toBeLessThanOrEqual(Math.min(10, summary.picks));
    figures[name] = summary;
  }
  expect(figures).toEqual(want);
}

beforeAll(async () => {
  t = await createTestApp();
  cappers = [];
  for (let i = 0; i < 3; i += 1) cappers.push(await registerUser(t.app, {}, `10.16.0.${i + 1}`));
  // A bulk load: the bands counted afresh afterwards.
  await insertPicks(600, ['NBA', 'NFL'], false);
  await rebuildRecordBands(t.database.db);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('record bands', () => {
  it('are what summariseRecord gives from the picks written in SQL', async () => {
    const listed = await expectBoardsAt(Date.now(), ['NBA', 'NFL']);
    expect(Math.min(...Object.values(listed)), 'a period listed nobody').toBeGreaterThan(0);
    await expectBadges();
  });

  it('follow regrades, withdrawn grades, moderation, backdating, deletes, self-reporting, CLV and a bulk update', async () => {
    await change(
      sql`video_id % 7 = 0 and result = 'win' and units_risked > 0`,
      (ids) => sql`update picks set result = 'loss', units_won = -units_risked where ${ids}`,
    );
    await change(
      sql`video_id % 11 = 0`,
      (ids) =>
        sql`update picks set result = null, units_won = null, units_risked = null, graded_at = null where ${ids}`,
    );
    await change(sql`video_id % 13 = 0`, (ids) => sql`update picks set removed = 'moderation' where ${ids}`);
    await change(
      sql`video_id % 5 = 0`,
      (ids) => sql`update picks set graded_at = graded_at - interval '45 days' where ${ids}`,
    );
    await change(sql`video_id % 17 = 0`, (ids) => sql`delete from picks where ${ids}`);
    // A pick that turns out self-reported leaves the record, and the other way round.
    await change(
      sql`video_id % 19 = 0`,
      (ids) => sql`update picks set self_reported = not self_reported where ${ids}`,
    );
    await change(
      sql`video_id % 23 = 0`,
      (ids) => sql`update picks set clv_bets = clv_bets + 1, clv_sum = clv_sum + 2.5 where ${ids}`,
    );
    // An update that changes nothing a record counts, and one of two columns on every pick.
    await change(sql`video_id % 3 = 0`, (ids) => sql`update picks set title = 'Renamed' where ${ids}`);
    await change(sql`video_id % 4 = 0`, (ids) => sql`update picks set league = 'MLB' where ${ids}`);
    await insertPicks(150, ['NBA', 'MLB']);
    await expectBoardsAt(Date.now(), ['NBA', 'NFL', 'MLB']);
    await expectBadges();
  });

  it('are only read by the leaderboard, which moves the picks past the clock itself', async () => {
    const before = await bandsState();
    // Days past the clock, as if its roll had stopped: the read is still exact, and writes nothing.
    await expectBoardsAt(Date.now() + 12 * DAY, ['NBA', 'NFL', 'MLB']);
    await expectBoardsAt(Date.now() + 61 * DAY, ['NBA', 'NFL', 'MLB']);
    expect(await bandsState()).toBe(before);
  });

  it('move picks between bands as the clock rolls, also a grade written while the clock is ahead', async () => {
    expect(await rollRecordBands(t.database.db, new Date(Date.now() + 61 * DAY))).toBe(true);
    expect(await rollRecordBands(t.database.db, new Date(Date.now() + 30 * DAY)), 'never back').toBe(false);
    // Read behind the clock: the picks move the other way.
    await expectBoardsAt(Date.now(), ['NBA', 'NFL', 'MLB']);
    await expectBoardsAt(Date.now() + 61 * DAY, ['NBA', 'NFL', 'MLB']);
    // Written at a clock 61 days ahead: banded against that clock, and moved on from there.
    await insertPicks(150, ['NBA', 'NFL']);
    await change(
      sql`video_id % 9 = 0`,
      (ids) => sql`update picks set graded_at = graded_at + interval '20 days' where ${ids}`,
    );
    await expectBoardsAt(Date.now() + 62 * DAY, ['NBA', 'NFL', 'MLB']);
    await rollRecordBands(t.database.db, new Date(Date.now() + 100 * DAY));
    await expectBoardsAt(Date.now() + 100 * DAY, ['NBA', 'NFL', 'MLB']);
    await expectBoardsAt(Date.now() + 400 * DAY, ['NBA', 'NFL', 'MLB']);
    await expectBadges();
  });

  it('go with a capper whose account is deleted', async () => {
    const gone = cappers[0]!;
    await t.database.db.execute(sql`delete from users where id = ${gone.id}`);
    const left = rowsOf<{ count: number }>(
      await t.database.db.execute(
        sql`select count(*)::int as count from record_bands where user_id = ${gone.id}`,
      ),
    );
    expect(left[0]!.count).toBe(0);
    cappers = cappers.slice(1);
    await expectBoardsAt(Date.now() + 400 * DAY, ['NBA', 'NFL', 'MLB']);
  });

  // The embedded database has one connection: no second writer to hold the clock there.
  it.runIf(Boolean(process.env.DATABASE_URL))(
    'roll without waiting for a writer that holds the clock, and catch up at the next run',
    async () => {
      const writer = new pg.Client({ connectionString: t.databaseUrl });
      await writer.connect();
      try {
        await writer.query('begin');
        await writer.query('select as_of from record_bands_clock where id = 1 for share');
        expect(await rollRecordBands(t.database.db, new Date(Date.now() + 500 * DAY))).toBe(false);
      } finally {
        await writer.query('rollback');
        await writer.end();
      }
      expect(await rollRecordBands(t.database.db, new Date(Date.now() + 500 * DAY))).toBe(true);
      await expectBoardsAt(Date.now() + 500 * DAY, ['NBA', 'NFL', 'MLB']);
    },
  );
});
