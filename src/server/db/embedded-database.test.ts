import type { Socket } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedWorker, type EmbeddedWorker } from './embedded-database.js';

describe('the embedded database worker', () => {
  let worker: EmbeddedWorker | undefined;
  let client: pg.Client | undefined;

  afterEach(async () => {
    await client?.end().catch(() => {});
    await worker?.close().catch(() => {});
    client = undefined;
    worker = undefined;
  });

  // PGlite's execProtocolRaw keeps every answer it parses (pglite-worker.ts), which would grow the worker's
  // heap with each row read. With a 64 MB heap ceiling, ~125 MB of rows read must
  // pass through without the worker running out of memory.
  it('keeps nothing of the rows it has answered', { timeout: 120_000 }, async () => {
    const crashes: Error[] = [];
    worker = await startEmbeddedWorker(
      { dataDir: undefined, startParams: [], loadDataDir: undefined },
      (error) => crashes.push(error),
      { maxOldGenerationSizeMb: 64 },
    );
    const embedded = worker;
    client = new pg.Client({
      stream: () => embedded.connect() as unknown as Socket,
      user: 'postgres',
      database: 'postgres',
    });
    client.on('error', (error: Error) => crashes.push(error));
    await client.connect();
    await client.query(
      "create table rows_read as select g as id, repeat('x', 1000) as body from generate_series(1, 250) g",
    );
    let read = 0;
    for (let i = 0; i < 500; i++) {
      const result = await client.query('select id, body from rows_read where id > $1', [i % 10]);
      read += result.rows.length;
    }
    expect(read).toBe(500 * 250 - 50 * 45);
    expect((await client.query('select count(*)::int as n from rows_read')).rows).toEqual([{ n: 250 }]);
    expect(crashes).toEqual([]);
  });
});
