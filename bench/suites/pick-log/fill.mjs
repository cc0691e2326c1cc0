// Fills the pick log of the database the settings name (DATA_DIR / DATABASE_URL) with N realistic entries,
// through the built server's own appendToLog, in batches inside transactions, the server stopped. Run by the
// pick-log suite as a child process (node bench/suites/pick-log/fill.mjs), so the bench process never loads
// PGlite nor holds the embedded database's lock. Prints `BENCH_FILL {json}` at the end.
//
// The entries are what a season of ~1,000 cappers looks like: each pick is posted, one in twenty revised
// before its game, graded some hundreds of entries later (win/loss/push/void, units won and risked), one in
// fifty then removed by its capper. They follow the log's rules (a pick is posted once, graded under its
// current commitment, never revised after removal), so the independent verifier accepts the whole log.
// Video ids start at 10,000,000, far from the ones the app's own posts get.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';

const dist = process.env.BENCH_DIST_SERVER;
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const { loadConfig } = await load('config.js');
const { openConfiguredDatabase } = await load('db/client.js');
const { appendToLog, sequencePending } = await load('features/pick-log/log-service.js');

const { total, batch, cappers } = JSON.parse(process.env.BENCH_FILL);
const FIRST_VIDEO = 10_000_000;
const START = Date.parse('2026-01-01T00:00:00Z');
const RESULTS = ['win', 'win', 'loss', 'loss', 'win', 'loss', 'push', 'win', 'loss', 'void'];
/** Entries between a pick's posting and its grade, about: the picks open at any time. */
const OPEN = 800;

const commitment = (videoId, version) =>
  createHash('sha256').update(`bench pick ${videoId} v${version}`).digest('hex');

/** The log's entries in order, one at a time, forever; deterministic. */
function* entries() {
  let seq = 0;
  let nextVideo = FIRST_VIDEO;
  const at = () => new Date(START + seq++ * 20_000); // one entry every 20 s of the season
  const open = []; // posted, not graded yet: [videoId, capper, version]
  for (;;) {
    const videoId = nextVideo++;
    const capper = `capper_${1 + ((videoId * 7919) % cappers)}`;
    yield { type: 'posted', videoId, capper, commitment: commitment(videoId, 1), at: at(), version: 1 };
    const pick = { videoId, capper, version: 1 };
    open.push(pick);
    if (videoId % 20 === 7) {
      pick.version = 2;
      yield { type: 'revised', videoId, capper, commitment: commitment(videoId, 2), at: at(), version: 2 };
    }
    if (open.length < OPEN) continue;
    const graded = open.shift();
    const result = RESULTS[(graded.videoId * 7) % 10];
    const risked = result === 'push' || result === 'void' ? 0 : 1 + (graded.videoId % 3);
    const won =
      result === 'win'
        ? Math.round(risked * (0.5 + (graded.videoId % 5) * 0.4) * 100) / 100
        : result === 'loss'
          ? -risked
          : 0;
    const c = commitment(graded.videoId, graded.version);
    yield {
      type: 'graded',
      videoId: graded.videoId,
      capper: graded.capper,
      commitment: c,
      at: at(),
      result,
      unitsWon: won,
      unitsRisked: risked,
    };
    if (graded.videoId % 50 === 11)
      yield {
        type: 'removed',
        videoId: graded.videoId,
        capper: graded.capper,
        commitment: c,
        at: at(),
        reason: 'capper',
      };
  }
}

const database = await openConfiguredDatabase(loadConfig());
try {
  await database.migrate();
  const started = performance.now();
  const source = entries();
  const counts = { posted: 0, revised: 0, graded: 0, removed: 0 };
  let done = 0;
  let slowestBatchMs = 0;
  while (done < total) {
    const items = [];
    for (let i = 0; i < Math.min(batch, total - done); i++) {
      const item = source.next().value;
      counts[item.type] += 1;
      items.push(item);
    }
    const batchStarted = performance.now();
    await database.db.transaction((tx) => appendToLog(tx, items));
    // Numbered as the server's log writer numbers them (decision 021): in order, in batches.
    while ((await sequencePending(database.db, batch)) === batch);
    slowestBatchMs = Math.max(slowestBatchMs, performance.now() - batchStarted);
    done += items.length;
    if (done % (batch * 10) === 0 || done === total)
      console.error(
        `  ${done.toLocaleString('en-US')} entries, ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
  }
  const appendSeconds = (performance.now() - started) / 1000;
  // PGlite runs no autovacuum, and the server's start would otherwise vacuum these tables inside its start.
  const vacuumStarted = performance.now();
  await database.exec('vacuum analyze log_entries, log_nodes, log_state');
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  const [sizes] = (
    await database.db.execute(
      sql.raw(`select pg_database_size(current_database())::bigint as database,
        pg_total_relation_size('log_entries')::bigint as entries,
        pg_total_relation_size('log_nodes')::bigint as nodes,
        (select count(*) from log_nodes)::bigint as node_rows,
        (select size from log_state)::bigint as size`),
    )
  ).rows;
  console.log(
    'BENCH_FILL ' +
      JSON.stringify({
        entries: Number(sizes.size),
        counts,
        appendSeconds,
        vacuumSeconds,
        slowestBatchMs,
        databaseBytes: Number(sizes.database),
        entriesTableBytes: Number(sizes.entries),
        nodesTableBytes: Number(sizes.nodes),
        nodeRows: Number(sizes.node_rows),
      }),
  );
} finally {
  await database.close();
}
