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
 * the planner knows it (pg_class.relallvisible) and falls back to reading all the matches (issue 11).
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
 * While the embedded database runs, the videos table (whose view counts change all day) is vacuumed once a
 * minute, as autovacuum would: VACUUM skips the pages still all-visible, so a quiet minute costs a few
 * milliseconds. A failure is logged and the next minute tries again. Returns a stop function.
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
    pool
      .query('vacuum videos')
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
