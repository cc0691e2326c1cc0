// The public pick log's speed, on PGlite and on PostgreSQL:
//  1. appends >= 1,000 entries/s on PostgreSQL with posts arriving from 50 clients (real POST /api/videos
//     through HTTP; then the same transactions without HTTP, the log's append alone, and the floor of a row
//     lock held to commit, to say which part limits);
//  2. inclusion and consistency proofs p99 <= 5 ms at 1,000,000 entries (one client, random proofs);
//  3. the independent verifier checks 1,000,000 entries in <= 30 s (and its peak RSS).
// The database is filled first with a season whose log has 1,000,000 entries (fill.mjs: picks, their market
// evidence and grades, through the built server's own code), then the server starts on it; rows 2 and 3 run
// at exactly 1,000,000 entries, row 1 appends on top.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from '../lib/http.mjs';
import { findLoadTool } from '../lib/load.mjs';
import { measure, oneClient } from '../lib/measure.mjs';
import { groupCpuSeconds, timedWindow } from '../lib/noise.mjs';
import { scratchPostgres } from '../lib/postgres.mjs';
import { runBounded, spawnTracked } from '../lib/procs.mjs';
import { suiteParts } from '../lib/report.mjs';
import { ensureBuilt, root, startServer } from '../lib/server.mjs';
import { fmt, procStatusBytes, sleep, tempDir } from '../lib/util.mjs';
import { percentile, registerCappers, startPosting, startsAtOf } from './pick-log/posts.mjs';

// --quick: 100,000 entries (figures not comparable); BENCH_PICKLOG_ENTRIES overrides either.
let ENTRIES = 1_000_000;
const FILL_BATCH = 10_000;
const FILL_CAPPERS = 1000;
/** Days of the filled season: a year at a million entries (~1,300 picks a day), at least a week. */
const seasonDays = (entries) => Math.max(7, Math.min(365, Math.round(entries / 2740)));
const CLIENTS = 50;
const POST_CAPPERS = 10;
const CAPPER_PREFIX = 'plcapper';
const TARGET_APPENDS = 1000;
const TARGET_PROOF_P99_MS = 5;
const TARGET_VERIFY_S = 30;
const PG_DATABASE = 'pickreel_bench_picklog';
const distServer = path.join(root, 'dist/node/server');
const verifierMain = path.join(root, 'dist/verifier/verifier/main.js');
const partsDir = path.join(root, 'bench/suites/pick-log');
// BENCH_PICKLOG_ROWS=proofs,verify,posts,alone (default all) and BENCH_PICKLOG_ONLY=pglite|postgres, while developing.
const ROWS = new Set((process.env.BENCH_PICKLOG_ROWS ?? 'proofs,verify,posts,alone').split(','));

export default {
  description:
    'Pick log appends from 50 posting clients, proofs and the independent verifier at 1,000,000 entries (PGlite and PostgreSQL)',
  async run(ctx) {
    const { log, result } = ctx;
    ENTRIES = Number(process.env.BENCH_PICKLOG_ENTRIES ?? (ctx.quick ? 100_000 : 1_000_000));
    const logs = tempDir('pickreel-bench-logs-');
    ctx.logFile = (name) => path.join(logs, `${name.replace(/\W+/g, '-')}.log`);
    ctx.timed = (fn) => timedWindow(ctx, fn);
    ctx.build = await ensureBuilt(log);
    result.notes.push(...ctx.build.notes);
    ctx.tool = findLoadTool();
    if (ctx.tool?.name !== 'wrk') throw new Error('this suite needs wrk (apt-get install wrk)');
    result.details.size = {
      entries: ENTRIES,
      fillBatch: FILL_BATCH,
      fillCappers: FILL_CAPPERS,
      clients: CLIENTS,
    };
    await buildVerifier(ctx);
    const { part, finish } = suiteParts(ctx);
    for (const [kind, label] of [
      ['pglite', 'PGlite'],
      ['postgres', 'PostgreSQL'],
    ]) {
      if (process.env.BENCH_PICKLOG_ONLY && process.env.BENCH_PICKLOG_ONLY !== kind) continue;
      const db = { kind, label };
      result.details[kind] = db.details = {};
      try {
        await part(`${label}: log filled`, () => prepare(ctx, db));
        if (!db.ready) continue;
        if (ROWS.has('proofs')) await part(`${label}: proofs`, () => proofsPart(ctx, db));
        if (ROWS.has('verify')) await part(`${label}: verifier`, () => verifierPart(ctx, db));
        if (ROWS.has('posts')) await part(`${label}: appends through HTTP`, () => postsPart(ctx, db));
        await db.server?.stop();
        db.server = null;
        if (ROWS.has('alone')) await part(`${label}: append path alone`, () => alonePart(ctx, db));
      } finally {
        await db.server?.stop();
        await db.pg?.end().catch(() => {});
        await db.drop?.();
      }
    }
    finish();
  },
};

/** What `npm run verify` runs first: the verifier's own build (tsconfig.verifier.json). */
async function buildVerifier(ctx) {
  ctx.log('building the verifier (tsc -p tsconfig.verifier.json, as npm run verify does)');
  const built = await runBounded(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.verifier.json'], {
    cwd: root,
    timeoutMs: 300_000,
  });
  if (built.code !== 0) {
    const first = `${built.stdout}\n${built.stderr}`.split('\n').find((l) => /error/i.test(l)) ?? '';
    ctx.result.notes.push(`the verifier's build failed, measuring what dist/verifier holds: ${first}`);
  }
  if (!existsSync(verifierMain)) throw new Error(`no verifier at ${verifierMain}`);
}

async function prepare(ctx, db) {
  const { log, result } = ctx;
  db.dataDir = tempDir(`pickreel-bench-picklog-${db.kind}-`);
  db.env = {};
  if (db.kind === 'postgres') {
    const scratch = await scratchPostgres(PG_DATABASE);
    if (scratch.error) {
      result.rows.push({ label: `${db.label}: every row`, display: 'skipped', skipped: true });
      result.notes.push(scratch.error);
      return;
    }
    db.env.DATABASE_URL = scratch.url;
    db.drop = scratch.drop;
    const { default: pg } = await import('pg');
    db.pg = new pg.Client({ connectionString: scratch.url });
    await db.pg.connect();
  }
  log(
    `${db.label}: filling the log with ${ENTRIES.toLocaleString('en-US')} entries (batches of ${FILL_BATCH.toLocaleString('en-US')})`,
  );
  const started = performance.now();
  const out = await runBounded(process.execPath, ['--liftoff-only', path.join(partsDir, 'fill.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ...db.env,
      DATA_DIR: db.dataDir,
      BENCH_DIST_SERVER: distServer,
      BENCH_FILL: JSON.stringify({
        total: ENTRIES,
        batch: FILL_BATCH,
        cappers: FILL_CAPPERS,
        days: seasonDays(ENTRIES),
      }),
    },
    timeoutMs: 3_600_000,
  });
  const line = /^BENCH_FILL (.*)$/m.exec(out.stdout);
  if (out.code !== 0 || !line) throw new Error(`filling the log failed: ${out.stderr || out.stdout}`);
  const fill = { ...JSON.parse(line[1]), wallSeconds: (performance.now() - started) / 1000 };
  if (db.kind === 'pglite') fill.dataDirBytes = await diskBytes(path.join(db.dataDir, 'db'));
  db.details.fill = fill;
  log(
    `${db.label}: a season of ${fill.counts.picks.toLocaleString('en-US')} picks, ${fill.entries.toLocaleString('en-US')} entries, in ${fill.fillSeconds.toFixed(0)} s ` +
      `(${Math.round(fill.entries / fill.fillSeconds).toLocaleString('en-US')} entries/s; vacuum analyze ${fill.vacuumSeconds.toFixed(0)} s; ` +
      `${fill.wallSeconds.toFixed(0)} s in all), database ${fmt.mb(fill.databaseBytes)}`,
  );
  if (fill.entries !== ENTRIES) throw new Error(`the log holds ${fill.entries} entries, not ${ENTRIES}`);
  result.rows.push({
    id: `${db.kind}FillSeconds`,
    label: `${db.label}: filling a season of ${ENTRIES.toLocaleString('en-US')} entries (the server's code, ${fill.season.days} days, ${fill.counts.picks.toLocaleString('en-US')} picks)`,
    value: fill.fillSeconds,
    display: `${fill.fillSeconds.toFixed(0)} s (${Math.round(fill.entries / fill.fillSeconds).toLocaleString('en-US')} entries/s)`,
    reference:
      `database ${fmt.mb(fill.databaseBytes)} (entries ${fmt.mb(fill.entriesTableBytes)}, ` +
      `${fill.nodeRows.toLocaleString('en-US')} nodes ${fmt.mb(fill.nodesTableBytes)})` +
      (fill.dataDirBytes ? `; DATA_DIR/db ${fmt.mb(fill.dataDirBytes)} on disk` : ''),
  });
  db.server = await startServer({
    dataDir: db.dataDir,
    logFile: ctx.logFile(`${db.kind}-server`),
    env: { ...db.env, TRUST_PROXY: 'true' },
    readyPath: '/api/health',
    deadlineMs: 180_000,
  });
  db.size = await checkpointSize(db.server.url, ENTRIES);
  db.ready = true;
}

async function diskBytes(dir) {
  const out = await runBounded('du', ['-sb', dir], { timeoutMs: 60_000 });
  return Number(out.stdout.split(/\s/)[0]);
}

/** The latest checkpoint's size, once it is at least `atLeast` (signed within a second of an append). */
async function checkpointSize(url, atLeast, deadlineMs = 60_000) {
  const end = performance.now() + deadlineMs;
  let size = -1;
  while (performance.now() < end) {
    const res = await request(`${url}/api/log/checkpoint`, { timeoutMs: 10_000 });
    if (res.status === 200) {
      size = Number(res.body.toString().split('\n')[1]);
      if (size >= atLeast) return size;
    }
    await sleep(200);
  }
  throw new Error(`no checkpoint of ${atLeast} entries within ${deadlineMs} ms (last ${size})`);
}

/** A small deterministic generator: the same random proofs in every run. */
function random(seed) {
  let state = seed >>> 0;
  return (limit) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * limit);
  };
}

async function proofsPart(ctx, db) {
  const { result, quick } = ctx;
  const url = db.server.url;
  const n = db.size;
  const next = random(15);
  const inclusion = Array.from({ length: 3000 }, () => ({
    path: `/api/log/proof/inclusion?index=${next(n)}&treeSize=${n}`,
  }));
  const consistency = Array.from({ length: 3000 }, () => ({
    path: `/api/log/proof/consistency?first=${1 + next(n - 1)}&second=${n}`,
  }));
  for (const { path: p } of [inclusion[0], consistency[0]]) {
    const res = await request(url + p);
    const body = JSON.parse(res.body.toString());
    if (res.status !== 200 || !Array.isArray(body.hashes) || !body.hashes.length)
      throw new Error(`GET ${p} answered ${res.status}: ${res.body}`);
  }
  const figures = {};
  for (const [name, requests] of [
    ['inclusion', inclusion],
    ['consistency', consistency],
  ]) {
    figures[name] = await measure(
      ctx,
      `${db.label}: GET /api/log/proof/${name} at ${n.toLocaleString('en-US')}, 1 client`,
      url,
      {
        settings: oneClient(quick),
        requests,
        pgid: db.server.pid,
      },
    );
  }
  db.details.proofs = figures;
  if (db.kind === 'postgres') db.details.proofs.explain = await explainProofQuery(db, n);
  for (const name of ['inclusion', 'consistency']) {
    const f = figures[name];
    result.rows.push({
      id: `${db.kind}${name === 'inclusion' ? 'Inclusion' : 'Consistency'}P99Ms`,
      label: `${db.label}: ${name} proof at ${n.toLocaleString('en-US')} entries, 1 client, random: p99`,
      value: f.p99Ms,
      display: `${fmt.ms(f.p99Ms)} (p50 ${fmt.ms(f.p50Ms)})`,
      reference: `${fmt.rps(f.rps)}, ${Math.round(f.cpuUsPerRequest)} µs server CPU each`,
      target: `<= ${TARGET_PROOF_P99_MS} ms`,
      pass: f.p99Ms <= TARGET_PROOF_P99_MS,
      othersCpuShare: f.noise.share,
    });
  }
}

/** EXPLAIN ANALYZE of the proof's one query (log-repository readNodes) for a random inclusion proof. */
async function explainProofQuery(db, n) {
  const merkle = await import(pathToFileURL(path.join(root, 'dist/node/common/pick-log/merkle.js')).href);
  const ids = merkle.planNodes([merkle.inclusionProofPlan(Math.floor(n * 0.377), n)]);
  const text = `explain (analyze, buffers)
    select n.level, n.idx, n.hash
    from unnest(array[${ids.map((id) => id.level).join(',')}]::smallint[], array[${ids.map((id) => id.index).join(',')}]::bigint[])
      as wanted(level, idx)
    join log_nodes n on n.level = wanted.level and n.idx = wanted.idx`;
  const plan = (await db.pg.query(text)).rows.map((r) => r['QUERY PLAN']);
  return { nodes: ids.length, plan };
}

async function verifierPart(ctx, db) {
  const { result, log } = ctx;
  const home = tempDir('pickreel-verify-home-');
  const serverCpuBefore = groupCpuSeconds(db.server.pid);
  const { value: run, noise } = await ctx.timed(() => runVerifier(db.server.url, home));
  const serverCpuSeconds = groupCpuSeconds(db.server.pid) - serverCpuBefore;
  const expected = `${db.size.toLocaleString('en-US')} entries`;
  if (run.code !== 0 || !run.stdout.includes('✓') || !run.stdout.includes(expected))
    throw new Error(`the verifier did not verify ${expected} (exit ${run.code}): ${run.stdout}${run.stderr}`);
  // The same run without the profiles, leaderboards and badges: what the log's own checks and the tree cost.
  const { value: bare } = await ctx.timed(() =>
    runVerifier(db.server.url, tempDir('pickreel-verify-home-'), ['--skip-figures']),
  );
  if (bare.code !== 0)
    throw new Error(
      `the verifier with --skip-figures failed (exit ${bare.code}): ${bare.stdout}${bare.stderr}`,
    );
  db.details.verifier = { ...run, serverCpuSeconds, noise, skipFigures: bare };
  log(
    `${db.label}: verifier ${run.seconds.toFixed(1)} s for ${expected}, peak RSS ${fmt.mb(run.peakRssBytes)}, ` +
      `its CPU ${run.cpuSeconds?.toFixed(1) ?? '?'} s, server CPU ${serverCpuSeconds.toFixed(1)} s; others used ${Math.round(noise.share * 100)}%`,
  );
  result.rows.push(
    {
      id: `${db.kind}VerifySeconds`,
      label: `${db.label}: npm run verify's program, ${expected}, fresh PICKREEL_VERIFY_HOME: wall time`,
      value: run.seconds,
      display: `${run.seconds.toFixed(1)} s`,
      reference: `its CPU ${run.cpuSeconds?.toFixed(1) ?? '?'} s, the server's ${serverCpuSeconds.toFixed(1)} s`,
      target: `<= ${TARGET_VERIFY_S} s`,
      pass: run.seconds <= TARGET_VERIFY_S,
      othersCpuShare: noise.share,
    },
    {
      id: `${db.kind}VerifySkipFiguresSeconds`,
      label: '  the same with --skip-figures (no profiles, leaderboards, badges): wall time',
      value: bare.seconds,
      display: `${bare.seconds.toFixed(1)} s`,
      reference: `its CPU ${bare.cpuSeconds?.toFixed(1) ?? '?'} s`,
    },
    {
      id: `${db.kind}VerifyPeakRss`,
      label: `  the verifier's peak RSS`,
      value: run.peakRssBytes,
      display: fmt.mb(run.peakRssBytes),
      reference: run.rssFrom,
    },
  );
}

/**
 * `node dist/verifier/verifier/main.js <url> --quiet` (what `npm run verify` runs after its build), under
 * /usr/bin/time -v when present (peak RSS, CPU), else with /proc/<pid>/status sampled every 50 ms.
 */
async function runVerifier(url, home, extra = []) {
  const timeBinary = '/usr/bin/time';
  const withTime = existsSync(timeBinary);
  const args = ['--liftoff-only', verifierMain, url, '--quiet', ...extra];
  const started = performance.now();
  const proc = spawnTracked(
    withTime ? timeBinary : process.execPath,
    withTime ? ['-v', process.execPath, ...args] : args,
    {
      cwd: root,
      env: { ...process.env, PICKREEL_VERIFY_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  proc.child.stdout.on('data', (d) => (stdout += d));
  proc.child.stderr.on('data', (d) => (stderr += d));
  let sampledPeak = 0;
  const sampler = withTime
    ? null
    : setInterval(() => (sampledPeak = Math.max(sampledPeak, procStatusBytes(proc.pid, 'VmHWM') ?? 0)), 50);
  const timer = setTimeout(() => proc.stop({ graceMs: 2000 }), 600_000);
  const { code } = await proc.exited;
  clearTimeout(timer);
  if (sampler) clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  const field = (name) => new RegExp(`${name}:\\s*([\\d.]+)`).exec(stderr)?.[1];
  // /usr/bin/time's exit status is the program's; its report goes to stderr after the program's own.
  return withTime
    ? {
        code,
        seconds,
        stdout,
        stderr: stderr.split('\tCommand being timed')[0],
        peakRssBytes: Number(field('Maximum resident set size \\(kbytes\\)')) * 1024,
        cpuSeconds: Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)')),
        rssFrom: '/usr/bin/time -v',
      }
    : {
        code,
        seconds,
        stdout,
        stderr,
        peakRssBytes: sampledPeak,
        cpuSeconds: null,
        rssFrom: 'VmHWM sampled every 50 ms',
      };
}

async function logSize(db) {
  if (!db.pg) return null;
  return Number((await db.pg.query('select size from log_state')).rows[0].size);
}

/**
 * What PostgreSQL's sessions of the scratch database are doing, sampled every 100 ms: how many are in a
 * statement or a transaction, and how many of those wait for the log's row lock (log_state) or for the
 * commit's WAL flush. Says whether the log's lock is where the posts queue.
 */
function sampleSessions(pgClient) {
  const counts = { samples: 0, busy: 0, waitingForLogLock: 0, walSync: 0 };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await pgClient.query(`select wait_event_type, wait_event, query from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`);
      counts.samples += 1;
      for (const row of rows) {
        counts.busy += 1;
        if (row.wait_event_type === 'Lock' && /update log_state/.test(row.query))
          counts.waitingForLogLock += 1;
        if (row.wait_event === 'WALSync' || row.wait_event === 'WALWrite') counts.walSync += 1;
      }
      await sleep(100);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      const per = (n) => n / Math.max(1, counts.samples);
      return {
        ...counts,
        busyAverage: per(counts.busy),
        waitingForLogLockAverage: per(counts.waitingForLogLock),
        walSyncAverage: per(counts.walSync),
      };
    },
  };
}

async function postsPart(ctx, db) {
  const { result, quick, log } = ctx;
  const url = db.server.url;
  const warmupSeconds = quick ? 1 : 3;
  const seconds = quick ? 5 : 20;
  const cookies = await registerCappers(url, POST_CAPPERS, CAPPER_PREFIX);
  const sizeAtStart = await checkpointSize(url, db.size);
  const startsAt = startsAtOf();
  const { value: run, noise } = await ctx.timed(async () => {
    const posting = startPosting(url, { clients: CLIENTS, cookies, startsAt });
    await sleep(warmupSeconds * 1000);
    const before = await logSize(db);
    const cpuBefore = groupCpuSeconds(db.server.pid);
    const sessions = db.pg ? sampleSessions(db.pg) : null;
    posting.measure(true);
    const started = performance.now();
    await sleep(seconds * 1000);
    posting.measure(false);
    const sessionFigures = await sessions?.stop();
    const windowSeconds = (performance.now() - started) / 1000;
    const after = await logSize(db);
    const serverCpuSeconds = groupCpuSeconds(db.server.pid) - cpuBefore;
    const state = await posting.stop();
    return { state, windowSeconds, before, after, serverCpuSeconds, sessions: sessionFigures ?? null };
  });
  const { state, windowSeconds } = run;
  const latencies = state.latencies.sort((a, b) => a - b);
  const postsPerSecond = state.ok / windowSeconds;
  // PostgreSQL: log_state.size read over the window; PGlite (one process's database): the posts answered 201.
  const entriesPerSecond = run.before === null ? postsPerSecond : (run.after - run.before) / windowSeconds;
  const failed = Object.entries(state.statuses).filter(([status]) => status !== '201');
  // One entry per post, no gaps: the log grew by exactly the posts answered 201 (warm-up and tail included).
  const sizeAtEnd = await checkpointSize(url, sizeAtStart + (state.allOk ?? 0));
  const exact = sizeAtEnd === sizeAtStart + (state.allOk ?? 0);
  db.size = sizeAtEnd;
  const figures = {
    windowSeconds,
    posts: state.ok,
    postsPerSecond,
    entriesPerSecond,
    entriesFrom: run.before === null ? 'posts answered 201' : 'log_state.size',
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1),
    statuses: state.statuses,
    errors: state.errors,
    serverCpuSeconds: run.serverCpuSeconds,
    serverCpuMsPerPost: (run.serverCpuSeconds * 1000) / state.ok,
    logGrewByPosts: exact,
    sessions: run.sessions,
    noise,
  };
  db.details.posts = figures;
  log(
    `${db.label}: ${Math.round(entriesPerSecond)} entries/s (${figures.entriesFrom}), ${Math.round(postsPerSecond)} posts/s, ` +
      `p50 ${fmt.ms(figures.p50Ms)}, p99 ${fmt.ms(figures.p99Ms)}; server CPU ${figures.serverCpuMsPerPost.toFixed(1)} ms a post; ` +
      `statuses ${JSON.stringify(state.statuses)}; others used ${Math.round(noise.share * 100)}%`,
  );
  if (failed.length)
    result.notes.push(`${db.label} posts: ${JSON.stringify(state.statuses)}; ${state.errors.join(' | ')}`);
  if (!exact)
    result.notes.push(
      `${db.label}: the log grew by ${sizeAtEnd - sizeAtStart} entries for ${state.allOk} posts answered 201`,
    );
  const onPostgres = db.kind === 'postgres';
  result.rows.push(
    {
      id: `${db.kind}AppendsPerSecond`,
      label: `${db.label}: appends, ${CLIENTS} clients posting through HTTP (POST /api/videos, ${POST_CAPPERS} cappers), ${Math.round(windowSeconds)} s`,
      value: entriesPerSecond,
      display: `${Math.round(entriesPerSecond).toLocaleString('en-US')} entries/s`,
      reference: `${Math.round(postsPerSecond).toLocaleString('en-US')} posts/s; ${failed.length ? `errors ${JSON.stringify(state.statuses)}` : '0 errors'}${exact ? '' : '; log size off'}`,
      target: onPostgres ? `>= ${TARGET_APPENDS.toLocaleString('en-US')}/s` : '(reference)',
      pass: onPostgres ? entriesPerSecond >= TARGET_APPENDS && !failed.length && exact : null,
      othersCpuShare: noise.share,
    },
    {
      id: `${db.kind}PostLatency`,
      label: '  one post: p50 / p99',
      value: figures.p99Ms,
      display: `${fmt.ms(figures.p50Ms)} / ${fmt.ms(figures.p99Ms)}`,
      reference: `server CPU ${figures.serverCpuMsPerPost.toFixed(1)} ms a post`,
    },
  );
  if (run.sessions)
    result.rows.push({
      id: `${db.kind}PostSessions`,
      label:
        "  PostgreSQL sessions in a statement or transaction meanwhile, of which waiting for the log's row lock",
      value: run.sessions.waitingForLogLockAverage,
      display: `${run.sessions.busyAverage.toFixed(1)}, ${run.sessions.waitingForLogLockAverage.toFixed(1)} waiting`,
      reference: `sampled every 100 ms (${run.sessions.samples}); in the commit's WAL flush ${run.sessions.walSyncAverage.toFixed(2)}`,
    });
}

const ALONE_MODES = {
  post: "the post's transaction (createExternalVideo: video, pick, version, leg, event, entry)",
  append: 'the log append alone (appendToLog of one entry)',
  lock: 'floor: one row update held to commit, no log',
};

async function alonePart(ctx, db) {
  const { result, quick, log } = ctx;
  const runs =
    db.kind === 'postgres'
      ? [
          ['post', 10],
          ['append', 10],
          ['append', CLIENTS],
          ['lock', 10],
        ]
      : [
          ['post', undefined],
          ['append', undefined],
          ['lock', undefined],
        ];
  db.details.alone = [];
  let firstVideoId = 50_000_000;
  for (const [mode, poolSize] of runs) {
    const settings = {
      mode,
      clients: CLIENTS,
      poolSize,
      warmupSeconds: quick ? 1 : 2,
      seconds: quick ? 3 : 10,
      cappers: CAPPER_PREFIX,
      startsAt: startsAtOf(),
      firstVideoId,
    };
    firstVideoId += 10_000_000;
    const { value: out, noise } = await ctx.timed(() =>
      runBounded(process.execPath, ['--liftoff-only', path.join(partsDir, 'append-alone.mjs')], {
        cwd: root,
        env: {
          ...process.env,
          LOG_LEVEL: 'warn',
          ...db.env,
          DATA_DIR: db.dataDir,
          BENCH_DIST_SERVER: distServer,
          BENCH_ALONE: JSON.stringify(settings),
        },
        timeoutMs: 300_000,
      }),
    );
    const line = /^BENCH_ALONE (.*)$/m.exec(out.stdout);
    if (out.code !== 0 || !line) throw new Error(`append-alone ${mode} failed: ${out.stderr || out.stdout}`);
    const figures = { ...JSON.parse(line[1]), noise };
    db.details.alone.push(figures);
    const pool = poolSize ?? 'PGlite 2';
    log(
      `${db.label}: alone, ${mode}, pool ${pool}: ${Math.round(figures.perSecond)} transactions/s, ` +
        `${Math.round(figures.entriesPerSecond)} entries/s, p50 ${fmt.ms(figures.p50Ms)}, p99 ${fmt.ms(figures.p99Ms)}, ` +
        `${figures.errors} errors; others used ${Math.round(noise.share * 100)}%`,
    );
    if (figures.errors)
      result.notes.push(`${db.label} alone ${mode}: ${figures.errors} errors, first: ${figures.firstError}`);
    result.rows.push({
      id: `${db.kind}Alone${mode}${poolSize ?? ''}`,
      label: `  no HTTP, ${CLIENTS} concurrent loops, pool ${pool}: ${ALONE_MODES[mode]}`,
      value: figures.perSecond,
      display: `${Math.round(figures.perSecond).toLocaleString('en-US')} /s`,
      reference: `p50 ${fmt.ms(figures.p50Ms)}, p99 ${fmt.ms(figures.p99Ms)}${figures.errors ? `, ${figures.errors} errors` : ''}`,
      othersCpuShare: noise.share,
    });
  }
}
