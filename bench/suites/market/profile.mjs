// Where a refresh's main-thread time goes (not a suite: `node bench/suites/market/profile.mjs [postgres://…]`,
// after a build). First the server's own JavaScript for one refresh of the `market` suite's slate, timed
// piece by piece in this process (the built adapter, snapshots and digests, node-postgres' parameter), then
// the server started under a CPU profile (`--cpu-prof`, 500 µs) while the slate is refreshed 6 times, every
// price moved: its main thread's time by function, and its longest busy stretches (what a request waits for).
// Without an argument the server runs on a new embedded database, else on that PostgreSQL database (which
// must be empty or a scratch one: the server migrates it).
import { mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../../scripts/server-node-flags.mjs';
import { request, waitFor200 } from '../../lib/http.mjs';
import { spawnTracked, stopAll } from '../../lib/procs.mjs';
import { root } from '../../lib/server.mjs';
import { freePort, median, tempDir } from '../../lib/util.mjs';
import { addGames, loadMarketCode, ODDS_QUERY, setOdds } from './slate.mjs';

const ADMIN = { username: 'benchadmin', password: 'bench-admin-password-1' };
const REFRESHES = 6;
const pgUtils = createRequire(path.join(root, 'package.json'))('pg/lib/utils');
const prices = await import(
  pathToFileURL(path.join(root, 'dist/node/server/features/market/prices.js')).href
);
const market = await loadMarketCode();
const standIn = await market.startMarketStandIn({ credits: 100_000_000 });
const games = addGames(standIn, {
  league: 'NBA',
  count: Number(process.env.BENCH_MARKET_GAMES ?? 1500),
  firstStart: Date.now() + 2 * 3600_000,
  spacingMs: 120_000,
  prefix: 'Slate',
  spread: (i) => -(1.5 + (i % 10)),
  total: (i) => 200.5 + (i % 40),
});

// 1. The pieces alone (each with the garbage it makes, collected when it comes).
const pieces = [];
for (let v = 0; v < 7; v++) {
  setOdds(standIn, market.books, games, v);
  const text = await (
    await fetch(`${standIn.url}/v4/sports/basketball_nba/odds?apiKey=${standIn.apiKey}&${ODDS_QUERY}`)
  ).text();
  const t0 = performance.now();
  const body = JSON.parse(text);
  const t1 = performance.now();
  const odds = market.parseOddsAnswer(body, 'NBA');
  const t2 = performance.now();
  const rows = odds.map(({ game, books }, i) => {
    const snapshot = prices.snapshotOf(game, books);
    return { eventId: i + 1, digest: prices.snapshotDigest(snapshot), snapshot };
  });
  const t3 = performance.now();
  const texts = rows.map((row) => JSON.stringify(row.snapshot));
  const t4 = performance.now();
  const parameter = pgUtils.prepareValue(texts);
  const t5 = performance.now();
  pieces.push({
    'JSON.parse': t1 - t0,
    parseOddsAnswer: t2 - t1,
    'snapshotOf + snapshotDigest': t3 - t2,
    'JSON.stringify of the snapshots': t4 - t3,
    "node-postgres' text[] parameter": t5 - t4,
    answerBytes: Buffer.byteLength(text),
    parameterBytes: Buffer.byteLength(parameter),
  });
}
console.log(`one refresh's JavaScript, piece by piece (median of ${pieces.length - 1}, after one):`);
for (const key of Object.keys(pieces[0]))
  console.log(
    `  ${key}: ${median(pieces.slice(1).map((p) => p[key])).toFixed(key.endsWith('Bytes') ? 0 : 1)}`,
  );

// 2. The server under a profile.
const profileDir = tempDir('pickreel-market-profile-');
rmSync(profileDir, { recursive: true, force: true });
mkdirSync(profileDir);
setOdds(standIn, market.books, games, 0);
const port = await freePort();
const env = { ...process.env };
for (const key of ['LOG_LEVEL', 'DATABASE_URL', 'NODE_ENV']) delete env[key];
Object.assign(env, {
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: tempDir('pickreel-market-profile-data-'),
  ODDS_API_KEY: standIn.apiKey,
  ODDS_API_URL: standIn.url,
  MARKET_LEAGUES: 'NBA,NFL,NHL,MLB',
  MARKET_REFRESH_SECONDS: '3600',
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  ...(process.argv[2] ? { DATABASE_URL: process.argv[2] } : {}),
});
const logFile = path.join(profileDir, 'server.log');
const fd = openSync(logFile, 'w');
const server = spawnTracked(
  process.execPath,
  [
    ...SERVER_NODE_FLAGS,
    '--cpu-prof',
    `--cpu-prof-dir=${profileDir}`,
    '--cpu-prof-interval=500',
    'dist/node/server/main.js',
  ],
  { cwd: root, env, stdio: ['ignore', fd, fd] },
);
const url = `http://127.0.0.1:${port}`;
await waitFor200(`${url}/api/health`, { deadlineMs: 180_000, exited: server.exited });
const login = await request(`${url}/api/login`, { method: 'POST', body: ADMIN });
const cookie = [login.headers['set-cookie']]
  .flat()
  .find((c) => c.startsWith('pickreel_sid='))
  .split(';')[0];
const refresh = async () => {
  const res = await request(`${url}/api/admin/market/refresh`, {
    method: 'POST',
    body: { league: 'NBA' },
    headers: { cookie },
    timeoutMs: 120_000,
  });
  if (res.status !== 200) throw new Error(`refresh answered ${res.status}: ${res.body}`);
  return JSON.parse(res.body.toString());
};
await refresh(); // new rows
setOdds(standIn, market.books, games, 1);
await refresh();
// V8's profile clock is the system's monotonic clock in µs, as process.hrtime is.
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const windowStart = performance.now();
const fromUs = monotonicUs();
const answers = [];
for (let v = 2; v < 2 + REFRESHES; v++) {
  setOdds(standIn, market.books, games, v);
  answers.push(await refresh());
}
const windowMs = performance.now() - windowStart;
const toUs = monotonicUs();
await server.stop({ graceMs: 15_000 });
await standIn.close();
await stopAll();
console.log(
  `server: ${REFRESHES} refreshes (every price moved) in ${windowMs.toFixed(0)} ms: ${answers.map((a) => a.ms).join(', ')} ms each`,
);

const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
const nameOf = (n) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
const times = [];
let at = profile.startTime;
for (const delta of profile.timeDeltas) times.push((at += delta));
const self = new Map();
const inclusive = new Map();
const stretches = [];
let stretch = null;
const MARKS = new Set([
  'parseOddsAnswer',
  'snapshotOf',
  'snapshotDigest',
  'arrayString',
  'writePrices',
  'upsertGames',
  'ingestOdds',
  'readBody',
  'byteLength',
]);
for (let i = 0; i < profile.samples.length; i++) {
  if (times[i] < fromUs || times[i] > toUs) continue;
  const node = nodes.get(profile.samples[i]);
  const ms = (profile.timeDeltas[i + 1] ?? 500) / 1000;
  if (node.callFrame.functionName === '(idle)') {
    if (stretch) stretches.push(stretch);
    stretch = null;
    continue;
  }
  self.set(nameOf(node), (self.get(nameOf(node)) ?? 0) + ms);
  const seen = new Set();
  let mark = node.callFrame.functionName === '(garbage collector)' ? 'garbage collection' : 'other';
  for (let id = node.id; id !== undefined; id = parentOf.get(id)) {
    const frame = nodes.get(id);
    const key = nameOf(frame);
    if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    seen.add(key);
    if (mark === 'other' && MARKS.has(frame.callFrame.functionName)) mark = frame.callFrame.functionName;
  }
  stretch ??= { ms: 0, parts: new Map() };
  stretch.ms += ms;
  stretch.parts.set(mark, (stretch.parts.get(mark) ?? 0) + ms);
}
if (stretch) stretches.push(stretch);
const top = (map, count) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `  ${(ms / REFRESHES).toFixed(1).padStart(7)} ms a refresh  ${name}`)
    .join('\n');
console.log(`main thread, self time:\n${top(self, 20)}`);
console.log(`main thread, inclusive:\n${top(inclusive, 45)}`);
const long = stretches.filter((s) => s.ms >= 20).sort((a, b) => b.ms - a.ms);
console.log(`busy stretches of 20 ms or more: ${long.length}; the longest:`);
for (const s of long.slice(0, 2 * REFRESHES))
  console.log(
    `  ${s.ms.toFixed(0)} ms: ${[...s.parts]
      .sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
      .join(', ')}`,
  );
process.exit(0);
