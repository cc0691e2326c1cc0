import pg from 'pg';

/** Test databases are named after the run so parallel runs on one server never collide. */
export function templateDatabaseName(): string {
  return `pickreel_tpl_${process.pid}`;
}

export async function withAdminConnection<T>(
  databaseUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
