// One schema, one set of migrations, one query API, two engines: embedded PGlite by default,
// a PostgreSQL server through `pg` when DATABASE_URL is set (docs/product-decisions.md 'Running it').
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg, migrate as migratePg } from './drizzle.js';
import pg from 'pg';
import { packageRoot } from '../lib/package-root.js';
import { trackCommits } from './after-commit.js';
import { analyzeStaleTables } from './analyze-stale.js';
import { vacuumChurningTables, vacuumLaggingTables, vacuumPeriodically } from './vacuum.js';
import { lockDataDir } from './data-dir-lock.js';
import { startEmbeddedWorker, type EmbeddedWorker } from './embedded-database.js';
import * as schema from './schema.js';

export const migrationsFolder = path.join(packageRoot(), 'drizzle');

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or a transaction: repositories accept both. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL (migrations, test set-up); not for feature code. */
  exec(sqlText: string): Promise<void>;
  /** PGlite only: the data directory as a tarball (tests copy a migrated database this way). */
  dumpDataDir(): Promise<Blob>;
  /** Applies the committed SQL migrations (drizzle/); safe at every start. */
  migrate(): Promise<void>;
  /**
   * PostgreSQL only: a connection of its own, outside the pool (db/shared-locks.ts holds session-level
   * advisory locks on one, which end when the connection does); the caller connects and ends it.
   */
  dedicatedClient?: () => pg.Client;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; undefined keeps it in memory. */
  dataDir?: string | undefined;
  /** A PGlite dump (from dumpDataDir) to start from: tests copy a migrated database this way. */
  loadDataDir?: Blob | File | undefined;
  poolSize?: number;
}

/** The database the settings name: the PostgreSQL server, else the embedded one under DATA_DIR/db. */
export function openConfiguredDatabase(config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<Database> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'db'),
  });
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client's error (server restart) must not crash the process.
    pool.on('error', () => {});
    const db = trackCommits(drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Db);
    return {
      db,
      kind: 'postgres',
      exec: async (sqlText) => {
        await pool.query(sqlText);
      },
      migrate: async () => {
        // Several instances may start at once against one server: one migrates at a time.
        const connection = await pool.connect();
        try {
          await connection.query('select pg_advisory_lock(8675309)');
          await migratePg(drizzlePg({ client: connection }), { migrationsFolder });
        } finally {
          await connection.query('select pg_advisory_unlock(8675309)').catch(() => {});
          connection.release();
        }
      },
      dumpDataDir: () => Promise.reject(new Error('dumpDataDir is for PGlite only')),
      dedicatedClient: () => new pg.Client({ connectionString: options.databaseUrl, keepAlive: true }),
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  let unlock = () => {};
  if (options.dataDir) {
    dataDir = path.resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
  }
  // PostgreSQL's shared memory lives in the WASM heap and its pages never go back: 8 MB of shared buffers
  // instead of the default 128 (the files stay cached by the OS, so a bigger pool buys no speed), and
  // tables sized for PGlite's one backend instead of 100 connections (docs/decisions/002).
  // Added to PGlite's own start parameters where PGlite is loaded (the worker, the initdb child): the main
  // thread never loads PGlite's code.
  // effective_cache_size: the planner's guess of what is cached beyond shared buffers (4 GB by default, right
  // for a server with an OS page cache). PGlite reads every page missing from its shared buffers through
  // the WASM file system, at a cost each, so the planner is told only the shared buffers are cached: a
  // search for a common term then reads its matches through the trigram index and sorts them, instead of
  // walking another order's index through many more rows in random page order (decision 012).
  const startParams = [
    '-c',
    'shared_buffers=8MB',
    '-c',
    'effective_cache_size=8MB',
    '-c',
    'wal_buffers=1MB',
    '-c',
    'max_connections=5',
  ];
  let embedded: EmbeddedWorker;
  try {
    if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) {
      // Creating a database (initdb) leaves a large WASM heap resident even after that instance is
      // closed: create it in a short-lived child process, whose memory goes back with it.
      await createDataDirInChild({ dataDir, startParams });
    }
    // On its own thread, so that no query holds the HTTP server's event loop.
    embedded = await startEmbeddedWorker(
      {
        dataDir,
        startParams,
        loadDataDir: options.loadDataDir
          ? new Uint8Array(await options.loadDataDir.arrayBuffer())
          : undefined,
      },
      (error) => {
        // The database is gone with its thread: nothing this process serves can work any more.
        console.error(`PickReel's embedded database stopped: ${error.message}`);
        process.exit(1);
      },
    );
  } catch (error) {
    unlock();
    throw error;
  }
  // Two connections: while the database thread runs one's query, the other's is already on its way (the
  // worker runs them in turn, a transaction's statements together).
  const pool = new pg.Pool({
    max: options.poolSize ?? 2,
    user: 'postgres',
    database: 'postgres',
    stream: () => embedded.connect() as unknown as Socket,
  });
  pool.on('error', () => {});
  const db = trackCommits(drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Db);
  // PGlite runs no autovacuum: the tables that churn are vacuumed once a minute here (vacuum.ts).
  const stopVacuum = vacuumPeriodically(pool, (error) =>
    console.error(`PickReel could not vacuum its embedded database: ${(error as Error).message}`),
  );
  return {
    db,
    kind: 'pglite',
    exec: async (sqlText) => {
      await pool.query(sqlText);
    },
    migrate: async () => {
      await migratePg(drizzlePg({ client: pool }), { migrationsFolder });
      // PGlite runs no autovacuum: the tables whose statistics are stale are analyzed here (analyze-stale.ts),
      // and those mostly not known all-visible vacuumed (vacuum.ts), and the churning ones whatever their
      // statistics say (a table that was never analyzed reports no pages).
      await analyzeStaleTables(pool);
      await vacuumLaggingTables(pool);
      await vacuumChurningTables(pool);
    },
    dumpDataDir: () => embedded.dumpDataDir(),
    close: async () => {
      stopVacuum();
      await pool.end();
      await embedded.close();
      unlock();
    },
  };
}

const execFileAsync = promisify(execFile);

async function createDataDirInChild(options: {
  dataDir?: string | undefined;
  startParams: string[];
}): Promise<void> {
  const script = [
    `const { PGlite } = await import(${JSON.stringify(import.meta.resolve('@electric-sql/pglite'))});`,
    'const options = JSON.parse(process.env.PICKREEL_PGLITE_OPTIONS);',
    'options.startParams = [...PGlite.defaultStartParams, ...options.startParams];',
    'await (await PGlite.create(options)).close();',
  ].join('\n');
  await execFileAsync(process.execPath, ['--liftoff-only', '--input-type=module', '-e', script], {
    env: { ...process.env, PICKREEL_PGLITE_OPTIONS: JSON.stringify(options) },
    maxBuffer: 16 * 1024 * 1024,
  });
}
