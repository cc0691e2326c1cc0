// The append path without HTTP: `clients` concurrent loops, each running one transaction after another
// through the built server's own code, the server stopped. Run by the pick-log suite as a child process
// (node bench/suites/pick-log/append-alone.mjs); prints `BENCH_ALONE {json}`.
//
// Modes (BENCH_ALONE.mode):
//  - post:   what POST /api/videos does in its transaction for an external link, by the same function
//            (uploads-service createExternalVideo: the video row, the sealed pick, its version, the leg and
//            its event, and the log's entry last), without HTTP, multipart parsing or sessions;
//  - append: a transaction holding only the log's append of one `posted` entry (appendToLog);
// In both, one more loop numbers what the transactions wrote, as the server's log writer does
// (sequencePending, batches of up to 5,000): entries/s is how fast the log's size moves.
//  - lock:   the floor of any append numbered by a row lock held to commit: a transaction that only updates
//            one row of a table of its own (bench_lock) and commits; it never touches the log.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { GAMES, postFields } from './posts.mjs';

const dist = process.env.BENCH_DIST_SERVER;
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const { loadConfig } = await load('config.js');
const { openDatabase } = await load('db/client.js');
const { appendToLog, sequencePending } = await load('features/pick-log/log-service.js');
const { createExternalVideo, parseMetadata } = await load('features/uploads/uploads-service.js');

const { mode, clients, poolSize, warmupSeconds, seconds, cappers, startsAt, firstVideoId } = JSON.parse(
  process.env.BENCH_ALONE,
);
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'db'),
  poolSize,
});
const { db } = database;
const size = async () => Number((await db.execute(sql`select size from log_state`)).rows[0].size);

try {
  const users = (
    await db.execute(sql`select id, username from users where username like ${cappers + '%'} order by id`)
  ).rows;
  if (!users.length) throw new Error(`no users named ${cappers}…`);
  const effects = { db, storage: null, onVideoChanged: () => {}, onJobQueued: () => {} };
  if (mode === 'lock')
    await database.exec(`create table if not exists bench_lock (id int primary key, n bigint not null);
      insert into bench_lock values (1, 0) on conflict do nothing`);
  let nextVideo = firstVideoId;
  let game = 0;
  const work =
    mode === 'post'
      ? (k) =>
          createExternalVideo(
            effects,
            users[k % users.length],
            parseMetadata(postFields(1 + (game++ % GAMES), startsAt)),
          )
      : mode === 'lock'
        ? () => db.transaction((tx) => tx.execute(sql`update bench_lock set n = n + 1 where id = 1`))
        : (k) => {
            const videoId = nextVideo++;
            return db.transaction((tx) =>
              appendToLog(tx, [
                {
                  type: 'posted',
                  videoId,
                  capper: users[k % users.length].username,
                  commitment: createHash('sha256').update(`alone ${videoId}`).digest('hex'),
                  at: new Date(),
                  version: 1,
                },
              ]),
            );
          };
  const state = { measuring: false, stopping: false, latencies: [], errors: 0, firstError: null };
  const loops = Array.from({ length: clients }, async (_, k) => {
    while (!state.stopping) {
      const started = performance.now();
      try {
        await work(k);
        if (state.measuring) state.latencies.push(performance.now() - started);
      } catch (error) {
        state.errors += 1;
        state.firstError ??= error.message;
      }
    }
  });
  // The server's log writer, without the server: numbers what is waiting, batch after batch.
  const sequencer =
    mode === 'lock'
      ? Promise.resolve()
      : (async () => {
          while (!state.stopping) {
            try {
              if ((await sequencePending(db, 5000)) === 0) await new Promise((r) => setTimeout(r, 2));
            } catch (error) {
              state.errors += 1;
              state.firstError ??= error.message;
            }
          }
        })();
  await new Promise((resolve) => setTimeout(resolve, warmupSeconds * 1000));
  const sizeBefore = await size();
  state.measuring = true;
  const windowStarted = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  state.measuring = false;
  const sizeAfter = await size();
  const windowSeconds = (performance.now() - windowStarted) / 1000;
  state.stopping = true;
  await Promise.all([...loops, sequencer]);
  const sorted = state.latencies.sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? null;
  console.log(
    'BENCH_ALONE ' +
      JSON.stringify({
        mode,
        clients,
        poolSize,
        windowSeconds,
        transactions: sorted.length,
        perSecond: sorted.length / windowSeconds,
        entriesPerSecond: (sizeAfter - sizeBefore) / windowSeconds,
        p50Ms: pct(0.5),
        p99Ms: pct(0.99),
        errors: state.errors,
        firstError: state.firstError,
      }),
  );
} finally {
  await database.close();
}
