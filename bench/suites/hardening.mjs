// Under a crowd, and the memory budget: search and deep pages at 100,000 videos for
// one client, cached GET /api/videos while slow queries run, GET /api/videos/{id} beside nginx, 200 clients
// of mixed traffic, and the embedded server's RSS idle, under that load and during a 1 GB upload. Each on the
// embedded database (PGlite) and on PostgreSQL; each part reports on its own.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from '../lib/http.mjs';
import { findLoadTool, runLoad } from '../lib/load.mjs';
import { findNginx, nginxVersion, startNginx } from '../lib/nginx.mjs';
import { timedWindow } from '../lib/noise.mjs';
import { scratchPostgres } from '../lib/postgres.mjs';
import { suiteParts } from '../lib/report.mjs';
import { startNodeReplay } from '../lib/node-replay.mjs';
import { matchCounts, seedDemo } from '../lib/seed.mjs';
import { ensureBuilt, root, signIn, startServer } from '../lib/server.mjs';
import { MB, closeConnections, makeLargeMov, measureUpload } from '../lib/upload.mjs';
import { fmt, procStatusBytes, sleep, tempDir } from '../lib/util.mjs';
import { measure, oneClient } from '../lib/measure.mjs';
import { writeWrkScript } from '../lib/wrk-script.mjs';

const VIDEOS = Number(process.env.BENCH_HARDENING_VIDEOS ?? 100_000);
const PAGE = 24; // the client's page size (VIDEO_PAGE_SIZE)
const SORTS = ['newest', 'price_asc', 'price_desc', 'popular'];
const TARGET_SEARCH_P99_MS = 20;
const TARGET_DEEP_P99_MS = 20;
const TARGET_STALL_P99_MS = 10;
const TARGET_BY_ID_RATIO = 0.5;
const TARGET_MIXED_P99_MS = 250;
const TARGET_RSS_BYTES = 256 * MB;
const CACHE_TTL_S = 2; // CatalogCache.TTL_MS: a path asked again within it is a cache hit
const DEEP_OFFSET = 99_000;
const MIXED_CLIENTS = 200;
const MIXED_USERS = 8;
const PASSWORD = 'bench-password-123';
const BROWSER_ENCODING = { 'Accept-Encoding': 'gzip, deflate, br' };
const PG_DATABASE = 'pickreel_bench_hardening'; // our own; never `test` (CI's)
const PARTS = ['search', 'deep', 'stall', 'byid', 'mixed', 'upload'];

// Search terms: what seed:demo writes (src/server/scripts/seed-demo.ts), so each class matches what it says.
// Every description is '<matchup>. Line movement, injuries and the number we like, explained in under two
// minutes.'; every title '<category>: <matchup> #<n>' (n = 1 ... N); one matchup in ~33 per video.
const TERMS = {
  // in (nearly) every video
  common: [
    'line movement',
    'injuries',
    'the number',
    'we like',
    'explained',
    'under two',
    'two minutes',
    'movement',
    'number',
    'minutes',
    'Line',
    'like',
    'under',
    'two',
    'and the',
    'vs',
    'NBA',
    'NFL',
    'Parlay',
    'College',
  ],
  // a team, an event, a category: a few percent of the videos each
  names: [
    'Lakers',
    'Celtics',
    'Knicks',
    'Warriors',
    'Chiefs',
    'Eagles',
    'Packers',
    'Bengals',
    'Yankees',
    'Dodgers',
    'Bruins',
    'Avalanche',
    'Duke',
    'Kentucky',
    'Alabama',
    'Michigan',
    'Arsenal',
    'Barcelona',
    'Pereira',
    'Masters',
    'Monaco',
    'Daytona',
    'Jokic',
    'Mahomes',
    'Player Props',
    'Horse Racing',
    'Formula 1',
    'Golf',
    'Tennis',
    'Boxing',
  ],
  // four digits of the titles' numbers: ~20 videos each
  rare: Array.from({ length: 15 }, (_, k) => String(1000 + ((k * 617 + 123) % 9000))),
  // five digits: one video each (at 100,000 videos)
  single: Array.from({ length: 15 }, (_, k) => String(10_000 + ((k * 6007 + 321) % 89_000))),
  // no video
  none: ['cricket', 'snooker', 'lacrosse', 'curling', 'bobsleigh', 'darts', 'rowing', 'zebra'],
};
const ALL_TERMS = Object.values(TERMS).flat();
// Counting every term's matches on PGlite takes over a minute; these samples give each class's range.
const COUNTED = {
  common: ['line movement', 'vs', 'NBA', 'College'],
  names: ['Lakers', 'Monaco', 'Player Props', 'Formula 1'],
  rare: TERMS.rare.slice(0, 3),
  single: TERMS.single.slice(0, 3),
  none: TERMS.none.slice(0, 2),
};
const COMMON_EXAMPLE = 'line movement';
const RARE_EXAMPLE = TERMS.rare[0];
// One character: too short for a trigram index, so every such search reads the whole table.
const SLOW_TERMS = ['z', 'q', 'j', 'k', 'y', 'x', 'w', '7'];

export default {
  description:
    'Search and deep pages at 100,000 videos, no query stalls others, GET /api/videos/{id} beside nginx, 200 mixed clients, memory (PGlite and PostgreSQL)',
  async run(ctx) {
    const { log, result } = ctx;
    const logs = tempDir('pickreel-bench-logs-');
    ctx.logFile = (name) => path.join(logs, `${name.replace(/\W+/g, '-')}.log`);
    ctx.timed = (fn) => timedWindow(ctx, fn);
    ctx.build = await ensureBuilt(log);
    result.details.build = ctx.build;
    result.notes.push(...ctx.build.notes);
    if (!ctx.build.serverBuilt)
      throw new Error('no server build (dist/node/server/main.js): nothing to measure');
    ctx.tool = findLoadTool();
    if (ctx.tool?.name !== 'wrk')
      throw new Error('this suite needs wrk (apt-get install wrk): its loads are wrk scripts');
    ctx.nginx = findNginx();
    ctx.nginxVersion = ctx.nginx ? await nginxVersion(ctx.nginx) : null;
    if (!ctx.nginx)
      result.notes.push('nginx not found (/usr/sbin/nginx, or NGINX_PATH): the by-id ratio is skipped');
    result.details.videos = VIDEOS;
    result.details.terms = TERMS;

    // BENCH_HARDENING_ONLY=search,mixed:postgres (part, database, or part:database) runs only those parts.
    const only = process.env.BENCH_HARDENING_ONLY?.split(',').map((s) => s.trim());
    const wanted = (name, kind) =>
      !only || only.some((w) => w === name || w === kind || w === `${name}:${kind}`);

    const { part, finish } = suiteParts(ctx);
    for (const [kind, label] of [
      ['pglite', 'PGlite'],
      ['postgres', 'PostgreSQL'],
    ]) {
      if (!PARTS.some((name) => wanted(name, kind))) continue;
      const db = { kind, label, memory: {} };
      result.details[kind] = db.details = {};
      await part(`${label}: ${VIDEOS.toLocaleString('en-US')} videos seeded`, () => prepare(ctx, db));
      if (!db.ready) {
        await db.drop?.(); // a 'failed' or 'skipped' row says why
        continue;
      }
      try {
        if (wanted('search', kind)) await part(`${label}: search`, () => searchPart(ctx, db));
        if (wanted('deep', kind)) await part(`${label}: deep pages`, () => deepPart(ctx, db));
        if (wanted('stall', kind)) await part(`${label}: slow queries`, () => stallPart(ctx, db));
        if (wanted('byid', kind)) await part(`${label}: GET /api/videos/{id}`, () => byIdPart(ctx, db));
        await stopMain(db); // the embedded database is one process's at a time
        if (wanted('mixed', kind)) await part(`${label}: mixed traffic`, () => mixedPart(ctx, db));
        if (kind === 'pglite' && wanted('upload', kind))
          await part(`${label}: memory during a tus upload`, () => uploadPart(ctx, db));
        if (kind === 'pglite') memoryRows(ctx, db);
      } finally {
        await stopMain(db);
        await db.drop?.();
      }
    }
    finish();
  },
};

// ---------------------------------------------------------------------------------------------------------
// The database and the server

/** A new DATA_DIR (and for PostgreSQL the bench's own database), seeded; search terms counted. */
async function prepare(ctx, db) {
  const { result, log } = ctx;
  db.dataDir = tempDir(`pickreel-bench-hardening-${db.kind}-`);
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
    result.notes.push(
      "PostgreSQL: 'Others CPU' includes the PostgreSQL server's own processes (they are not the bench's children)",
    );
  }
  db.details.seed = await seedDemo(log, { ...db.env, DATA_DIR: db.dataDir }, VIDEOS);
  const started = performance.now();
  const facts = await matchCounts({ ...db.env, DATA_DIR: db.dataDir }, Object.values(COUNTED).flat(), [
    COMMON_EXAMPLE,
    RARE_EXAMPLE,
  ]);
  db.counts = facts.counts;
  db.details.matches = facts.counts;
  db.details.plans = facts.plans;
  log(
    `${db.label}: counted the matches of ${Object.values(COUNTED).flat().length} search terms in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const classes = Object.entries(COUNTED).map(([name, sample]) => {
    const terms = TERMS[name];
    const n = sample.map((t) => db.counts[t]);
    const range =
      Math.min(...n) === Math.max(...n) ? count(n[0]) : `${count(Math.min(...n))}-${count(Math.max(...n))}`;
    return `${name} ${terms.length} (${range})`;
  });
  const planOf = (term) =>
    [
      ...new Set(
        facts.plans[term].flatMap(
          (line) =>
            /(?:Seq Scan|(?:Bitmap )?Index(?: Only)? Scan(?: Backward)?)(?: using| on) \w+/.exec(line) ?? [],
        ),
      ),
    ].join(', ');
  result.notes.push(
    `${db.label}: search terms by class, with how many of the ${count(VIDEOS)} videos a sample of them matches: ${classes.join('; ')}. ` +
      `E.g. '${COMMON_EXAMPLE}' ${count(db.counts[COMMON_EXAMPLE])}, 'Lakers' ${count(db.counts.Lakers)}, '${RARE_EXAMPLE}' ${count(db.counts[RARE_EXAMPLE])}. ` +
      `The catalog's condition explained (first page, newest; without the join): '${COMMON_EXAMPLE}' ${planOf(COMMON_EXAMPLE) || '?'}; '${RARE_EXAMPLE}' ${planOf(RARE_EXAMPLE) || '?'}`,
  );
  db.ready = true;
}

const count = (n) => (Number.isFinite(n) ? n.toLocaleString('en-US') : '?');

/** Starts a server on the seeded database as `npm start` does (plus `env`); notes when it exits. */
async function startOn(ctx, db, name, env = {}) {
  const logFile = ctx.logFile(`${db.kind}-${name}`);
  const server = await startServer({
    dataDir: db.dataDir,
    logFile,
    env: { ...db.env, ...env },
    readyPath: '/api/health',
    deadlineMs: 120_000,
  });
  server.logFile = logFile;
  server.gone = false;
  server.exited.then((how) => {
    server.gone = true;
    server.exitedHow = how;
  });
  return server;
}

/** The server of the search, deep-page, slow-query and by-id rows: started again if it has gone. */
async function mainServer(ctx, db) {
  if (db.main && !db.main.gone) return db.main;
  db.main = await startOn(ctx, db, 'main');
  return db.main;
}

async function stopMain(db) {
  const server = db.main;
  db.main = null;
  await server?.stop();
}

function logTail(file, lines = 8) {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n') : '';
}

/**
 * Waits for what a finished load left in flight (wrk stops, the server finishes its queries): on the
 * embedded database a query holds the event loop, so /api/health answers once the last one is done.
 */
async function drain(server) {
  await request(`${server.url}/api/health`, { timeoutMs: 60_000 }).catch(() => {});
}

/** A crashed server is a finding of its own: the row fails with the server's last log lines. */
function assertUp(server, what) {
  if (!server.gone) return;
  throw new Error(
    `the server exited (${JSON.stringify(server.exitedHow)}) during ${what}\n--- server log ---\n${logTail(server.logFile)}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Loads

/** `/api/videos?q=` for every term, sort and page: terms vary fastest, so neighbours differ. */
function searchRequests(terms, pages) {
  const requests = [];
  for (let page = 0; page < pages; page++)
    for (const sort of SORTS)
      for (const term of terms)
        requests.push({
          path: `/api/videos?q=${encodeURIComponent(term)}&sort=${sort}&offset=${page * PAGE}`,
        });
  return requests;
}

/** A figure that may include cache hits says so. */
function cacheNote(ctx, db, what, figures) {
  if (figures.repeatSeconds < CACHE_TTL_S * 1.1)
    ctx.result.notes.push(
      `${db.label}, ${what}: each of the ${figures.distinct} paths came back after ${figures.repeatSeconds.toFixed(1)} s, ` +
        `within the catalog cache's ${CACHE_TTL_S} s: some answers may have been cache hits (the figure flatters the server)`,
    );
}

// ---------------------------------------------------------------------------------------------------------
// 1. Search at N videos, one client

async function searchPart(ctx, db) {
  const { result, quick } = ctx;
  const server = await mainServer(ctx, db);
  const settings = oneClient(quick);
  const runs = {
    all: { terms: ALL_TERMS, pages: 10 },
    common: { terms: TERMS.common, pages: 20 },
    rare: { terms: [...TERMS.rare, ...TERMS.single], pages: 20 },
  };
  const figures = {};
  for (const [key, run] of Object.entries(runs)) {
    figures[key] = await measure(ctx, `${db.label}: search, ${key} terms, 1 client`, server.url, {
      settings,
      requests: searchRequests(run.terms, run.pages),
      pgid: server.pid,
    });
    await drain(server);
    assertUp(server, `the search run (${key} terms)`);
    cacheNote(ctx, db, `search (${key} terms)`, figures[key]);
  }
  db.details.search = figures;
  // The counted samples of these terms' classes (COUNTED).
  const matches = (terms) => {
    const n = terms.map((t) => db.counts[t]).filter(Number.isFinite);
    return `${count(Math.min(...n))}-${count(Math.max(...n))} matches`;
  };
  const { all, common, rare } = figures;
  const lastOffset = (pages) => (pages - 1) * PAGE;
  result.rows.push(
    {
      id: `${db.kind}SearchP99Ms`,
      label: `${db.label}: search ?q= at ${count(VIDEOS)} videos, 1 client (${ALL_TERMS.length} terms x 4 sorts x offsets 0-${lastOffset(runs.all.pages)}): p99`,
      value: all.p99Ms,
      display: `${fmt.ms(all.p99Ms)} (p50 ${fmt.ms(all.p50Ms)})`,
      reference: `${fmt.rps(all.rps)}; max ${fmt.ms(all.maxMs)}`,
      target: `<= ${TARGET_SEARCH_P99_MS} ms`,
      pass: all.p99Ms <= TARGET_SEARCH_P99_MS,
      othersCpuShare: all.noise.share,
    },
    {
      id: `${db.kind}SearchCommonP99Ms`,
      label: `  common terms only (${TERMS.common.length}, e.g. '${COMMON_EXAMPLE}': ${matches(TERMS.common)}; offsets 0-${lastOffset(runs.common.pages)}): p99`,
      value: common.p99Ms,
      display: `${fmt.ms(common.p99Ms)} (p50 ${fmt.ms(common.p50Ms)})`,
      reference: fmt.rps(common.rps),
      othersCpuShare: common.noise.share,
    },
    {
      id: `${db.kind}SearchRareP99Ms`,
      label: `  rare terms only (${runs.rare.terms.length} title numbers, e.g. '${RARE_EXAMPLE}': ${matches(runs.rare.terms)}): p99`,
      value: rare.p99Ms,
      display: `${fmt.ms(rare.p99Ms)} (p50 ${fmt.ms(rare.p50Ms)})`,
      reference: fmt.rps(rare.rps),
      othersCpuShare: rare.noise.share,
    },
  );
}

// ---------------------------------------------------------------------------------------------------------
// 2. Deep pages, one client

async function deepPart(ctx, db) {
  const { result, quick } = ctx;
  const server = await mainServer(ctx, db);
  const first = DEEP_OFFSET - 300;
  const requests = [];
  for (let offset = first; offset < DEEP_OFFSET + 300; offset++)
    for (const sort of SORTS) requests.push({ path: `/api/videos?sort=${sort}&offset=${offset}` });
  const deep = await measure(ctx, `${db.label}: deep pages, 1 client`, server.url, {
    settings: oneClient(quick),
    requests,
    pgid: server.pid,
  });
  await drain(server);
  assertUp(server, 'the deep-page run');
  cacheNote(ctx, db, 'deep pages', deep);
  const check = await request(`${server.url}/api/videos?offset=${DEEP_OFFSET}`);
  const onPage = check.status === 200 ? JSON.parse(check.body.toString()).length : NaN;
  db.details.deep = { ...deep, videosAtDeepOffset: onPage };
  result.rows.push({
    id: `${db.kind}DeepP99Ms`,
    label: `${db.label}: deep pages, offsets ${count(first)}-${count(DEEP_OFFSET + 299)} x 4 sorts, 1 client: p99`,
    value: deep.p99Ms,
    display: `${fmt.ms(deep.p99Ms)} (p50 ${fmt.ms(deep.p50Ms)})`,
    reference: `${fmt.rps(deep.rps)}; ${onPage} videos on the page at offset ${count(DEEP_OFFSET)}`,
    target: `<= ${TARGET_DEEP_P99_MS} ms`,
    pass: deep.p99Ms <= TARGET_DEEP_P99_MS,
    othersCpuShare: deep.noise.share,
  });
}

// ---------------------------------------------------------------------------------------------------------
// 3. No query stalls other requests

async function stallPart(ctx, db) {
  const { result, quick, log, tool } = ctx;
  const server = await mainServer(ctx, db);
  const url = `${server.url}/api/videos`;
  const settings = { connections: 50, threads: 2, seconds: quick ? 3 : 10 };
  const warmupSeconds = quick ? 1 : 2;
  const alone = await measure(ctx, `${db.label}: cached GET /api/videos alone`, url, {
    settings,
    pgid: server.pid,
  });
  // Slow queries: a one-character ?q= (no trigram index serves it: the whole table is read), rotating sort
  // and offset so that every one misses the cache; 2 connections, from before the fast run's warm-up to after it.
  const slowScript = writeWrkScript(searchRequests(SLOW_TERMS, 100), { name: 'slow' });
  const { value, noise } = await ctx.timed(async () => {
    const slowRun = runLoad(tool, server.url, {
      connections: 2,
      threads: 1,
      seconds: warmupSeconds + settings.seconds + 3,
      script: slowScript,
      scriptArgs: [0, 0],
    });
    slowRun.catch(() => {}); // awaited below; a failure must not be an unhandled rejection meanwhile
    await sleep(1000);
    await runLoad(tool, url, { ...settings, seconds: warmupSeconds });
    const fast = await runLoad(tool, url, settings);
    return { fast, slow: await slowRun };
  });
  await drain(server);
  assertUp(server, 'the slow-query run');
  const { fast, slow } = value;
  const slowErrors = slow.non2xx + slow.socketErrors;
  log(
    `${db.label}: cached GET /api/videos beside slow searches: ${fmt.rps(fast.rps)}, p50 ${fmt.ms(fast.p50Ms)}, p99 ${fmt.ms(fast.p99Ms)}, max ${fmt.ms(fast.maxMs)}; ` +
      `slow searches: ${slow.requests} in ${warmupSeconds + settings.seconds + 3} s, p50 ${fmt.ms(slow.p50Ms)}, p99 ${fmt.ms(slow.p99Ms)}` +
      `${slowErrors ? `, ${slowErrors} errors ${JSON.stringify(slow.statuses ?? {})}` : ''} (others used ${Math.round(noise.share * 100)}%)`,
  );
  if (fast.non2xx || fast.socketErrors)
    throw new Error(`cached GET /api/videos: ${fast.non2xx} non-2xx, ${fast.socketErrors} socket errors`);
  if (slowErrors)
    result.notes.push(
      `${db.label}: ${slowErrors} of the slow searches failed (${JSON.stringify(slow.statuses ?? {})}; ${slow.socketErrors} socket errors or timeouts over 5 s)`,
    );
  db.details.stall = {
    alone,
    fast: { ...fast, raw: undefined },
    slow: { ...slow, raw: undefined },
    noise,
  };
  result.rows.push({
    id: `${db.kind}StallP99Ms`,
    label: `${db.label}: cached GET /api/videos, 50 conns, while 1-character searches run (2 conns): p99`,
    value: fast.p99Ms,
    display: `${fmt.ms(fast.p99Ms)} (${fmt.rps(fast.rps)})`,
    reference: `alone ${fmt.ms(alone.p99Ms)}; the slow searches: p50 ${fmt.ms(slow.p50Ms)}, ${slow.requests} done`,
    target: `<= ${TARGET_STALL_P99_MS} ms`,
    pass: fast.p99Ms <= TARGET_STALL_P99_MS,
    othersCpuShare: Math.max(noise.share, alone.noise.share),
  });
}

// ---------------------------------------------------------------------------------------------------------
// 4. GET /api/videos/{id} signed out beside nginx

async function byIdPart(ctx, db) {
  const { result, quick } = ctx;
  // A server of its own, as nginx has: measured right after the slow-search part, the same server ran a third
  // slower for some seconds while it (or PostgreSQL) finished that part's work, which is not this row's question.
  await stopMain(db);
  const server = await mainServer(ctx, db);
  const settings = { connections: 50, threads: 2, seconds: quick ? 3 : 10 };
  const list = await request(`${server.url}/api/videos?limit=1`);
  if (list.status !== 200) throw new Error(`GET /api/videos answered ${list.status}`);
  const id = JSON.parse(list.body.toString())[0]?.id;
  if (!id) throw new Error('the catalog is empty');
  const urlPath = `/api/videos/${id}`;
  const res = await request(server.url + urlPath);
  if (res.status !== 200) throw new Error(`GET ${urlPath} answered ${res.status}: ${res.body}`);
  if (JSON.parse(res.body.toString()).emailInformation)
    throw new Error('a signed-out visitor was sent winning selections');
  const ours = await measure(ctx, `${db.label}: GET ${urlPath} signed out`, server.url + urlPath, {
    settings,
    pgid: server.pid,
  });
  assertUp(server, `GET ${urlPath}`);
  await stopMain(db); // nginx runs alone, as in the catalog suite
  let theirs = null;
  if (ctx.nginx) {
    const nginx = await startNginx({
      binary: ctx.nginx,
      files: { [urlPath]: res.body },
      contentType: res.headers['content-type'],
    });
    try {
      theirs = await measure(ctx, `nginx ${ctx.nginxVersion}, same bytes`, nginx.url + urlPath, {
        settings,
        pgid: nginx.pid,
      });
    } finally {
      await nginx.stop();
    }
  }
  const ratio = theirs ? ours.rps / theirs.rps : NaN;
  db.details.byId = { id, bodyBytes: res.body.length, ours, nginx: theirs, ratio };
  result.rows.push(
    {
      id: `${db.kind}ByIdRps`,
      label: `${db.label}: GET /api/videos/{id} signed out, 50 conns (${res.body.length} B of JSON): req/s`,
      value: ours.rps,
      display: `${fmt.rps(ours.rps)} (ratio ${fmt.ratio(ratio)})`,
      reference: theirs ? `nginx ${fmt.rps(theirs.rps)}` : 'nginx missing',
      target: `ratio >= ${TARGET_BY_ID_RATIO}`,
      pass: theirs ? ratio >= TARGET_BY_ID_RATIO : null,
      skipped: !theirs,
      othersCpuShare: Math.max(ours.noise.share, theirs?.noise.share ?? 0),
    },
    {
      id: `${db.kind}ByIdP99Ms`,
      label: '  p99 / CPU per request',
      value: ours.p99Ms,
      display: `${fmt.ms(ours.p99Ms)} / ${Math.round(ours.cpuUsPerRequest)} µs`,
      reference: theirs
        ? `nginx ${fmt.ms(theirs.p99Ms)} / ${Math.round(theirs.cpuUsPerRequest)} µs (all workers)`
        : '',
      othersCpuShare: ours.noise.share,
    },
  );
}

// ---------------------------------------------------------------------------------------------------------
// 5. Mixed traffic, 200 clients

/** A new account, signed up from its own address (the sign-up limit counts per address); its cookie. */
async function register(url, username, address) {
  const res = await request(`${url}/api/register`, {
    method: 'POST',
    body: { username, password: PASSWORD },
    headers: { 'x-forwarded-for': address },
  });
  if (res.status !== 201) throw new Error(`POST /api/register answered ${res.status}: ${res.body}`);
  const setCookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('pickreel_sid='));
  if (!setCookie) throw new Error('POST /api/register sent no pickreel_sid cookie');
  const cookie = setCookie.split(';')[0];
  const user = await request(`${url}/api/user`, { headers: { cookie } });
  if (user.status !== 200) throw new Error(`signed-in GET /api/user answered ${user.status}`);
  return cookie;
}

/** VmRSS every 100 ms until stop(): { peak, samples }. */
function sampleRss(pid) {
  let peak = 0;
  let samples = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, procStatusBytes(pid, 'VmRSS') ?? 0);
    samples++;
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return { peak, samples };
    },
  };
}

async function mixedPart(ctx, db) {
  const { result, quick, log } = ctx;
  // TRUST_PROXY=true: each sign-up below carries its own X-Forwarded-For (the bench is the one proxy).
  const server = await startOn(ctx, db, 'mixed', { TRUST_PROXY: 'true' });
  const seconds = quick ? 5 : 60;
  try {
    await sleep(5000);
    const idle = { rss: server.rssBytes(), hwm: server.peakRssBytes() };
    db.memory.idle = idle.rss;
    const cookies = [];
    for (let i = 1; i <= MIXED_USERS; i++)
      cookies.push(await register(server.url, `mixeduser${i}`, `198.51.100.${i}`));
    const ids = [];
    for (const offset of [0, 60]) {
      const page = await request(`${server.url}/api/videos?limit=60&offset=${offset}`);
      if (page.status !== 200) throw new Error(`GET /api/videos answered ${page.status}`);
      ids.push(...JSON.parse(page.body.toString()).map((v) => v.id));
    }
    if (!ids.length) throw new Error('the catalog is empty');
    // In turn: the home page, the catalog, a video's data, its page, a signed-in user; ids and users rotate.
    const requests = ids.flatMap((id, i) => [
      { path: '/' },
      { path: '/api/videos' },
      { path: `/api/videos/${id}` },
      { path: `/video/${id}` },
      { path: '/api/user', headers: { Cookie: cookies[i % cookies.length] } },
    ]);
    const rss = sampleRss(server.pid);
    let mixed;
    let memory;
    try {
      mixed = await measure(ctx, `${db.label}: mixed traffic, ${MIXED_CLIENTS} clients`, server.url, {
        settings: { connections: MIXED_CLIENTS, threads: 2, seconds },
        requests,
        headers: BROWSER_ENCODING,
        pgid: server.pid,
        allowErrors: true,
      });
    } finally {
      memory = rss.stop();
    }
    assertUp(server, 'the mixed run');
    const hwm = server.peakRssBytes();
    await sleep(5000);
    const after = server.rssBytes();
    db.memory.mixedPeak = memory.peak;
    const floor = await nodeFloor(ctx, db, server, requests, seconds);
    const errors = mixed.non2xx + mixed.socketErrors;
    log(
      `${db.label}: server RSS idle ${fmt.mb(idle.rss)}, peak during the mixed run ${fmt.mb(memory.peak)} (${memory.samples} samples), VmHWM ${fmt.mb(hwm)}, 5 s after ${fmt.mb(after)}; ` +
        `answers ${JSON.stringify(mixed.statuses ?? {})}, socket errors ${mixed.socketErrors}, warm-up errors ${mixed.warmupErrors}`,
    );
    db.details.mixed = { ...mixed, ids: ids.length, users: cookies.length, idle, memory, hwm, after };
    if (mixed.warmupErrors)
      result.notes.push(
        `${db.label}, mixed traffic: ${mixed.warmupErrors} errors already in the warm-up (${JSON.stringify(mixed.warmupStatuses ?? {})})`,
      );
    result.rows.push(
      {
        id: `${db.kind}MixedP99Ms`,
        label: `${db.label}: mixed traffic (/, /api/videos, /api/videos/{id}, /video/{id}, /api/user signed in), ${MIXED_CLIENTS} clients, ${seconds} s: p99`,
        value: mixed.p99Ms,
        display: `${fmt.ms(mixed.p99Ms)}, ${count(errors)} errors`,
        reference: `${fmt.rps(mixed.rps)}; p50 ${fmt.ms(mixed.p50Ms)}, max ${fmt.ms(mixed.maxMs)}`,
        target: `<= ${TARGET_MIXED_P99_MS} ms, 0 errors`,
        pass: mixed.p99Ms <= TARGET_MIXED_P99_MS && errors === 0,
        errors,
        othersCpuShare: mixed.noise.share,
      },
      {
        id: `${db.kind}MixedNodeFloorP99Ms`,
        label: '  reference: a bare Node.js http server answering the same bytes, same load: p99',
        value: floor.p99Ms,
        display: fmt.ms(floor.p99Ms),
        reference: `${fmt.rps(floor.rps)}; p50 ${fmt.ms(floor.p50Ms)}, max ${fmt.ms(floor.maxMs)}`,
        othersCpuShare: floor.noise.share,
      },
      {
        id: `${db.kind}MixedRss`,
        label: '  server RSS during it (peak of 100 ms samples)',
        value: memory.peak,
        display: fmt.mb(memory.peak),
        reference: `idle before ${fmt.mb(idle.rss)}; VmHWM ${fmt.mb(hwm)}; 5 s after ${fmt.mb(after)}`,
      },
    );
    if (errors)
      result.notes.push(
        `${db.label}, mixed traffic: ${mixed.non2xx} non-2xx/3xx answers (${JSON.stringify(mixed.statuses ?? {})}) and ${mixed.socketErrors} socket errors or timeouts (5 s); see the server log`,
      );
  } finally {
    await server.stop();
  }
}

/**
 * The same load on a bare `node:http` server replaying PickReel's answers (bench/lib/node-replay.mjs), with
 * PickReel stopped meanwhile: what one Node.js process's event loop costs on this machine at 200 clients.
 */
async function nodeFloor(ctx, db, server, requests, seconds) {
  const replay = await startNodeReplay(server.url, requests, BROWSER_ENCODING);
  await server.stop();
  try {
    return await measure(
      ctx,
      `${db.label}: bare Node.js replaying the same ${replay.paths} answers`,
      replay.url,
      {
        settings: { connections: MIXED_CLIENTS, threads: 2, seconds },
        requests,
        headers: BROWSER_ENCODING,
        pgid: replay.pid,
      },
    );
  } finally {
    await replay.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------
// 6. Memory: the embedded server during a 1 GB tus upload (the media suite's measurement)

async function uploadPart(ctx, db) {
  const { quick, log } = ctx;
  const dist = (p) => pathToFileURL(path.join(root, 'dist/node/server', p)).href;
  const { resolveMediaTools } = await import(dist('media/ffmpeg.js'));
  const bytes = quick ? 200 * MB : 1000 * MB;
  const work = tempDir('pickreel-bench-hardening-upload-');
  const file = path.join(work, 'big.mov');
  makeLargeMov(resolveMediaTools().ffmpeg, file, bytes);
  const timed = async (fn) => {
    const { value, noise } = await ctx.timed(fn);
    return { value, othersCpuShare: noise.share };
  };
  const server = await startOn(ctx, db, 'upload');
  try {
    const { cookie } = await signIn(server.url, `benchhardening${process.pid}`);
    const upload = await measureUpload(server, cookie, file, timed);
    assertUp(server, 'the upload');
    log(
      `${db.label}: tus upload of ${fmt.mb(upload.value.size)} at ${upload.MBps.toFixed(1)} MB/s, server RSS idle ${fmt.mb(upload.idleRss)}, peak ${fmt.mb(upload.peakRss)}`,
    );
    db.memory.upload = upload;
    db.details.upload = {
      size: upload.value.size,
      MBps: upload.MBps,
      idleRss: upload.idleRss,
      peakRss: upload.peakRss,
    };
  } finally {
    closeConnections();
    await server.stop();
    rmSync(file, { force: true });
  }
}

/** The embedded server's three memory figures side by side, each against the 256 MB budget. */
function memoryRows(ctx, db) {
  const { result } = ctx;
  const { idle, mixedPeak, upload } = db.memory;
  const row = (id, label, value, reference, othersCpuShare) =>
    Number.isFinite(value) && value > 0
      ? {
          id,
          label,
          value,
          display: fmt.mb(value),
          reference,
          target: `<= ${fmt.mb(TARGET_RSS_BYTES)}`,
          pass: value <= TARGET_RSS_BYTES,
          othersCpuShare,
        }
      : { id, label, display: 'not measured', skipped: true, reference };
  result.rows.push(
    row(
      'pgliteIdleRss',
      `Memory, embedded server, ${count(VIDEOS)} videos: RSS idle (5 s after start)`,
      idle,
      '',
    ),
    row(
      'pgliteMixedPeakRss',
      `  under the mixed load, ${MIXED_CLIENTS} clients (peak)`,
      mixedPeak,
      'from the mixed-traffic row',
    ),
    row(
      'pgliteUploadPeakRss',
      `  during a ${upload ? fmt.mb(upload.value.size) : ''} tus upload (peak)`,
      upload?.peakRss,
      upload
        ? `idle before it ${fmt.mb(upload.idleRss)}; ${upload.MBps.toFixed(1)} MB/s`
        : 'the upload failed',
      upload?.othersCpuShare,
    ),
  );
}
