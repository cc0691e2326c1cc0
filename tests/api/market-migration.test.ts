// Picks made before the market (docs/decisions/025 'Picks made before this change'): migration 0014 makes every
// earlier pick and leg self-reported, counts their bets as records now count them, and rebuilds the record
// bands, which empty. Run on a database migrated to 0013 and filled as the app of then filled it.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, sql } from '#server/db/drizzle.js';
import { migrationsFolder, openDatabase, type Database } from '#server/db/client.js';
import { rowsOf } from '#server/db/rows.js';
import { keepRecord } from '#server/features/cappers/index.js';
import { withAdminConnection } from '../setup/postgres.js';

let database: Database;
let drop = async () => {};
const folder = mkdtempSync(path.join(os.tmpdir(), 'pickreel-migrations-'));

beforeAll(async () => {
  // The migrations up to 0013, as a site had them before this change.
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.tag < '0014');
  writeFileSync(journalFile, JSON.stringify(journal));
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `pickreel_m_${randomBytes(6).toString('hex')}`;
    await withAdminConnection(url, (client) => client.query(`create database ${name}`));
    const own = new URL(url);
    own.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: own.toString() });
    drop = () =>
      withAdminConnection(url, (client) => client.query(`drop database if exists ${name} with (force)`)).then(
        () => undefined,
      );
  } else database = await openDatabase({});
  // drizzle's migrator is typed for its node-postgres database; ours is the driver-neutral PgDatabase.
  await migrate(database.db as never, { migrationsFolder: folder });
}, 120_000);

afterAll(async () => {
  await database?.close();
  await drop();
  rmSync(folder, { recursive: true, force: true });
});

describe('migration 0014 on picks made before the market', () => {
  it('makes them self-reported, counts their bets, and empties the record bands', async () => {
    const db = database.db;
    await db.execute(sql`insert into users (id, username, password_hash, username_key, username_skeleton)
      values (1, 'oldcapper', 'x', 'oldcapper', 'oldcapper')`);
    await db.execute(sql`insert into events (id, league, home, away, starts_at, status, home_score, away_score)
      values (1, 'NBA', 'Lakers', 'Celtics', now() - interval '2 days', 'final', 110, 100),
             (2, 'NBA', 'Knicks', 'Nets', now() - interval '2 days', 'final', 90, 100)`);
    // A straight two-leg pick that went 1-1 (a loss of 0.09u by units), and a two-leg parlay that lost.
    for (const [video, parlay, result, won, risked] of [
      [10, false, 'loss', -0.09, 2],
      [11, true, 'loss', -1, 1],
    ] as const) {
      await db.execute(sql`insert into picks (video_id, user_id, league, parlay, leg_count, commitment, sealed,
          posted_at, first_posted_at, locks_at, result, units_won, units_risked, graded_at, title)
        values (${video}, 1, 'NBA', ${parlay}, 2, ${`c${video}`}, '{}', now() - interval '3 days',
          now() - interval '3 days', now() - interval '2 days', ${result}, ${won}, ${risked}, now() - interval '1 day', 'Old pick')`);
      await db.execute(sql`insert into pick_legs (video_id, position, event_id, market, side, odds, units, result)
        values (${video}, 0, 1, 'moneyline', 'Lakers', -110, 1, 'win'), (${video}, 1, 2, 'moneyline', 'Knicks', -110, 1, 'loss')`);
    }
    const before = rowsOf<{ wins: number; losses: number }>(
      await db.execute(sql`select sum(wins)::int as wins, sum(losses)::int as losses from record_bands`),
    );
    expect(before[0]).toEqual({ wins: 0, losses: 2 }); // counted as picks, as the app of then counted

    await migrate(db as never, { migrationsFolder });

    const picks = rowsOf<{ video_id: number; self_reported: boolean; bets_won: number; bets_lost: number }>(
      await db.execute(sql`select video_id, self_reported, bets_won, bets_lost from picks order by video_id`),
    );
    expect(picks).toEqual([
      { video_id: 10, self_reported: true, bets_won: 1, bets_lost: 1 },
      { video_id: 11, self_reported: true, bets_won: 0, bets_lost: 1 },
    ]);
    const legs = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from pick_legs where not self_reported`),
    );
    expect(legs[0]!.n).toBe(0);
    const bands = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from record_bands where picks > 0 or wins + losses > 0`),
    );
    expect(bands[0]!.n).toBe(0);
    // A market-bound pick graded from now on counts its bets.
    await db.transaction((tx) =>
      keepRecord(tx, [10], () => tx.execute(sql`update picks set self_reported = false where video_id = 10`)),
    );
    const after = rowsOf<{ wins: number; losses: number; picks: number }>(
      await db.execute(
        sql`select sum(wins)::int as wins, sum(losses)::int as losses, sum(picks)::int as picks from record_bands`,
      ),
    );
    expect(after[0]).toEqual({ wins: 1, losses: 1, picks: 1 });
  });
});
