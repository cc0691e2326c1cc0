import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase, type Database } from './client.js';
import { sql } from './drizzle.js';
import { rowsOf } from './rows.js';

describe('a new embedded data directory', () => {
  let database: Database | undefined;
  let dataDir: string | undefined;

  afterEach(async () => {
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    database = undefined;
    dataDir = undefined;
  });

  // issue 13: initdb and the migrations run in a short-lived child process, whose memory goes with it; the
  // server's own database then finds every migration applied, and migrate() has nothing left to do.
  it('is created and migrated before the server opens it', { timeout: 120_000 }, async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-new-db-'));
    database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    const journal = JSON.parse(
      readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
    ) as {
      entries: unknown[];
    };
    const applied = async () =>
      rowsOf<{ count: number }>(
        await database!.db.execute(sql`select count(*)::int as count from drizzle.__drizzle_migrations`),
      )[0]!.count;
    expect(await applied()).toBe(journal.entries.length);
    const tables = rowsOf<{ videos: string | null }>(
      await database.db.execute(sql`select to_regclass('public.videos')::text as videos`),
    );
    expect(tables[0]!.videos).toBe('videos');
    await database.migrate();
    expect(await applied()).toBe(journal.entries.length);
  });
});
