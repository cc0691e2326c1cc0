// A scratch PostgreSQL database of a suite's own on the machine's server (never `test`, CI's database).
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Creates `database` afresh; `{ url, drop }`, or `{ error }` (with the reason) when there is no server. */
export async function scratchPostgres(database) {
  if (!/^pickreel_bench_\w+$/.test(database)) throw new Error(`not a bench database name: ${database}`);
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (error) {
    return {
      error: `PostgreSQL not reachable at ${PG_ADMIN_URL.replace(/:[^:@/]*@/, ':***@')}: ${error.message}`,
    };
  }
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.query(`create database ${database}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: async () => {
      try {
        await admin.query(`drop database if exists ${database} with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}
