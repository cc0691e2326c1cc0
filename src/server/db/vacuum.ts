import type pg from 'pg';

/** Below this many pages a table is read whole faster than its visibility map is worth keeping. */
const MIN_PAGES = 100;
/** A table is vacuumed at start when less of it than this is known all-visible. */
const ALL_VISIBLE_SHARE = 0.9;
/** How often a running embedded database vacuums the catalog (PostgreSQL's autovacuum_naptime). */
export const VACUUM_EVERY_MS = 60_000;

/**
 * The embedded database runs no autovacuum. Without VACUUM its visibility map stays empty, and a search
 * that could answer from the catalog orders' indexes alone (schema.ts) reads every row it passes instead;
 * the planner knows it (pg_class.relallvisible) and falls back to reading all the matches.
 * At start, a table of some size whose pages are mostly not known all-visible is vacuumed (after a bulk
 * load, say). Returns the tables vacuumed.
 */
export async function vacuumLaggingTables(pool: Pick<pg.Pool, 'query'>): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `select format('%I', c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and c.relpages >= $1 and c.relallvisible < c.relpages * $2::float8
      order by c.relname`,
    [MIN_PAGES, ALL_VISIBLE_SHARE],
  );
  for (const { name } of rows) await pool.query(`vacuum ${name}`);
  return rows.map((row) => row.name);
}

/**
 * Tables whose rows change or go all day, which autovacuum would keep small on a server: the videos (view
 * counts) and the pick log's waiting entries (every entry is written there, then deleted once numbered:
 * unvacuumed, their dead rows pile up and the sequencer's one-row read walks them all, every second).
 */
const CHURNING_TABLES = ['videos', 'log_pending'] as const;
const VACUUM_CHURNING = `vacuum ${CHURNING_TABLES.join(', ')}`;

/** Vacuums the churning tables now (at start: a restart after a bulk load, or a database from before). */
export async function vacuumChurningTables(pool: Pick<pg.Pool, 'query'>): Promise<void> {
  await pool.query(VACUUM_CHURNING);
}

/**
 * While the embedded database runs, the churning tables are vacuumed once a minute, as autovacuum would:
 * VACUUM skips the pages still all-visible, so a quiet minute costs a few milliseconds. A failure is logged
 * and the next minute tries again. Returns a stop function.
 */
export function vacuumPeriodically(
  pool: Pick<pg.Pool, 'query'>,
  onError: (error: unknown) => void,
  everyMs = VACUUM_EVERY_MS,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    vacuumChurningTables(pool)
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
