import type pg from 'pg';

/** autovacuum's analyze threshold in PostgreSQL: 50 rows plus 10 % of the table. */
const BASE_THRESHOLD = 50;
const SCALE_FACTOR = 0.1;

/**
 * The embedded database never analyzes on its own, and without statistics its planner ignores the catalog's
 * indexes. ANALYZE reads a sample of up to 30,000 rows of a table into PGlite's WASM memory, which never
 * shrinks: for a large catalog, a lasting share of the server's resident memory. So at start a table is
 * analyzed only when its row count has moved past autovacuum's threshold since its last ANALYZE
 * (pg_class.reltuples, which the embedded database keeps across restarts, unlike pg_stat's counters), or when
 * it never was. Returns the tables analyzed.
 */
export async function analyzeStaleTables(pool: Pick<pg.Pool, 'query'>): Promise<string[]> {
  const { rows: tables } = await pool.query<{ name: string; estimated: number }>(
    `select format('%I', c.relname) as name, c.reltuples::float8 as estimated
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
      order by c.relname`,
  );
  const analyzed: string[] = [];
  for (const { name, estimated } of tables) {
    const { rows } = await pool.query<{ n: number }>(`select count(*)::float8 as n from ${name}`);
    const count = rows[0]!.n;
    // reltuples is -1 until a table's first ANALYZE (PostgreSQL 14 and later).
    if (estimated < 0 || Math.abs(count - estimated) > BASE_THRESHOLD + SCALE_FACTOR * estimated) {
      await pool.query(`analyze ${name}`);
      analyzed.push(name);
    }
  }
  return analyzed;
}
