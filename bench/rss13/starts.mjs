// Measurement only (issue 13's idle RSS): interleaved starts of several builds, each `npm start`'s way
// (`node --liftoff-only scripts/start.mjs` in the build's own checkout, every setting unset), ready at the
// first 200 on GET /, VmRSS (and /proc/<pid>/smaps_rollup) read 5 s after ready, then the preload
// (preload.mjs) runs two full collections and reports the heap. One JSON line per start on stdout.
//
//   node bench/rss13/starts.mjs --rounds 6 --data empty,seeded name=/path/to/checkout[:/seeded/DATA_DIR][@node] ...
//
// A seeded data set is copied per start (cp -a), so no start sees another's writes.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  return value;
};
const rounds = Number(opt('rounds', '3'));
const firstRound = Number(opt('first-round', '0'));
const dataSets = opt('data', 'empty').split(',');
const settleMs = Number(opt('settle', '5000'));
const snapshotDir = opt('snapshots', '');
// A build may name the Node binary that runs it: name=/checkout[:/seeded]@/path/to/node (default: this one).
const builds = args.map((spec) => {
  const [name, rest] = spec.split('=');
  const [where, node = process.execPath] = rest.split('@');
  const [root, seeded] = where.split(':');
  return { name, root, seeded, node };
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const statusKb = (pid, field) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'))[1]);
const rollup = (pid) => {
  const fields = {};
  for (const m of readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').matchAll(/^(\w+):\s+(\d+) kB/gm))
    fields[m[1]] = Number(m[2]);
  return fields;
};
const loadavg = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
const cpuTicks = () => {
  const [, ...v] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = v.map(Number);
  return { idle: n[3] + n[4], total: n.reduce((a, b) => a + b, 0) };
};

async function oneStart(build, data, tag) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'rss13-'));
  const dataDir = path.join(tmp, 'data');
  if (data === 'seeded') execFileSync('cp', ['-a', build.seeded, dataDir]);
  const port = await freePort();
  const out = path.join(tmp, 'mem.json');
  const env = { ...process.env };
  for (const k of [
    'LOG_LEVEL',
    'DATABASE_URL',
    'ADMIN_USERNAME',
    'ADMIN_PASSWORD',
    'SESSION_SECRET',
    'NODE_ENV',
  ])
    delete env[k];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RSS13_OUT: out,
    NODE_OPTIONS: `--expose-gc --import=${path.join(here, 'preload.mjs')}`,
  });
  const started = performance.now();
  const child = spawn(build.node, [...SERVER_NODE_FLAGS, 'scripts/start.mjs'], {
    cwd: build.root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}/`;
  let status = 0;
  while (performance.now() - started < 240_000 && !exited) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      status = res.status;
      if (status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  const readyMs = performance.now() - started;
  if (status !== 200) {
    child.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`${build.name} did not start (${status}): ${log.slice(-2000)}`);
  }
  const cpu0 = cpuTicks();
  await sleep(settleMs);
  const cpu1 = cpuTicks();
  const rssKb = statusKb(child.pid, 'VmRSS');
  const smaps = rollup(child.pid);
  const load = loadavg();
  const request = snapshotDir ? { snapshot: path.join(snapshotDir, `${tag}.heapsnapshot`) } : {};
  writeFileSync(`${out}.req`, JSON.stringify(request));
  child.kill('SIGUSR2');
  const deadline = performance.now() + 120_000;
  while (!existsSync(out) && performance.now() < deadline) await sleep(100);
  await sleep(200);
  const mem = JSON.parse(readFileSync(out, 'utf8'));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
  if (!exited) await new Promise((r) => child.on('exit', r));
  clearTimeout(t);
  rmSync(tmp, { recursive: true, force: true });
  return {
    build: build.name,
    data,
    readyMs: Math.round(readyMs),
    rebuilt: /^> npm run build/m.test(log),
    rssMB: rssKb / 1024,
    anonMB: smaps.Anonymous / 1024,
    heapUsedMB: mem.memory.heapUsed / 2 ** 20,
    heapTotalMB: mem.memory.heapTotal / 2 ** 20,
    externalMB: mem.memory.external / 2 ** 20,
    heapPhysicalMB: mem.heap.total_physical_size / 2 ** 20,
    spaces: mem.spaces,
    cjsModules: mem.cjsModules.length,
    cjs: snapshotDir ? mem.cjsModules : undefined,
    snapshot: mem.snapshot,
    load,
    busyPct: Math.round(100 * (1 - (cpu1.idle - cpu0.idle) / (cpu1.total - cpu0.total)) || 0),
    at: new Date().toISOString(),
  };
}

for (let round = firstRound; round < firstRound + rounds; round++) {
  for (const data of dataSets) {
    // The order rotates every round so no build always goes first or last.
    const order = builds.map((_, i) => builds[(i + round) % builds.length]);
    for (const build of order) {
      try {
        const row = await oneStart(build, data, `${build.name}-${data}-${round}`);
        process.stdout.write(`${JSON.stringify({ round, ...row })}\n`);
      } catch (error) {
        // Reported and skipped: a start that did not answer is not a reading (the count says so).
        process.stderr.write(`round ${round}: ${error.message}\n`);
      }
    }
  }
}
