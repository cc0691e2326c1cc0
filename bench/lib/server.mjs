// Builds (when needed) and starts PickReel the way a user does: `node <flags> scripts/start.mjs` (what `npm start`
// runs), on 127.0.0.1, a free port and a DATA_DIR of the caller's choosing.
import { existsSync, openSync, closeSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request, waitForReady } from './http.mjs';
import { runBounded, spawnTracked } from './procs.mjs';
import { freePort, procStatusBytes } from './util.mjs';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const serverEntry = path.join(root, 'dist/node/server/main.js');
export const clientIndex = path.join(root, 'dist/client/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

// Same rule as scripts/start.mjs: if we left a stale build, `npm start` would rebuild inside the timed start.
function stale(output, ...sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((source) => existsSync(source) && newestMtime(source) > built);
}

export function buildState() {
  const src = (p) => path.join(root, 'src', p);
  return {
    client: stale(clientIndex, src('client'), src('common')) ? 'stale' : 'fresh',
    server: stale(serverEntry, src('server'), src('common')) ? 'stale' : 'fresh',
  };
}

/**
 * Builds what `npm start` would otherwise build during the measurement. A failing client build is
 * reported, not fatal: the server benches can still run (the home-page bench then says why it skipped).
 */
export async function ensureBuilt(log) {
  const notes = [];
  for (const part of ['client', 'server']) {
    if (buildState()[part] === 'fresh') continue;
    log(`  building ${part} (npm run build:${part}): dist/ is missing or older than src/`);
    const result = await runBounded('npm', ['run', `build:${part}`], { cwd: root, timeoutMs: 300_000 });
    if (result.code !== 0) {
      const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-15).join('\n');
      const firstError = tail.split('\n').find((l) => /error/i.test(l)) ?? tail.split('\n').at(-1);
      notes.push(
        `npm run build:${part} failed${result.timedOut ? ' (timed out)' : ''}, measuring what dist/ holds: ${firstError}`,
      );
      log(`  npm run build:${part} FAILED\n${tail}`);
    }
  }
  return {
    serverBuilt: existsSync(serverEntry),
    clientBuilt: existsSync(clientIndex),
    notes,
  };
}

/**
 * Starts the server and resolves once `readyPath` answers 200 (or answers steadily with another status:
 * see readyStatus). `startedAt`/`readyAt` are performance.now()
 * values: readyAt - startedAt is the cold start as a user sees it (process spawn to first 200).
 * stdout/stderr go to `logFile` (the server's own logs, as a user would redirect them).
 */
export async function startServer({ dataDir, logFile, env = {}, readyPath = '/', deadlineMs = 60_000 }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const fd = openSync(logFile, 'a');
  const childEnv = { ...process.env };
  for (const key of [
    'LOG_LEVEL',
    'DATABASE_URL',
    'ADMIN_USERNAME',
    'ADMIN_PASSWORD',
    'SESSION_SECRET',
    'NODE_ENV',
  ]) {
    delete childEnv[key]; // the defaults a user gets, unless the suite sets them
  }
  Object.assign(childEnv, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir }, env);
  const startedAt = performance.now();
  const proc = spawnTracked(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/start.mjs'], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  let ready;
  try {
    ready = await waitForReady(url + readyPath, { deadlineMs, exited: proc.exited });
  } catch (error) {
    await proc.stop();
    const tail = existsSync(logFile)
      ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-10).join('\n')
      : '';
    throw new Error(`${error.message}\n--- server log (last lines) ---\n${tail}`, { cause: error });
  }
  const rebuilt = /^> npm run build/m.test(readFileSync(logFile, 'utf8'));
  return {
    url,
    port,
    pid: proc.pid, // node scripts/start.mjs imports dist/node/server/main.js: this pid IS the server
    startedAt,
    readyAt: ready.at,
    startMs: ready.at - startedAt,
    readyStatus: ready.status, // 200, or the status `readyPath` answered instead (then startMs is its first answer)
    readyBody: ready.body,
    rebuilt, // start.mjs rebuilt something (someone edited src/ meanwhile): this sample is not a cold start
    rssBytes: () => procStatusBytes(proc.pid, 'VmRSS'),
    peakRssBytes: () => procStatusBytes(proc.pid, 'VmHWM'),
    exited: proc.exited,
    stop: () => proc.stop({ graceMs: 12_000 }),
  };
}

/** Registers a fresh user and returns { cookie, body } of a signed-in GET /api/user. */
export async function signIn(url, username = 'benchuser') {
  const res = await request(`${url}/api/register`, {
    method: 'POST',
    body: { username, password: 'bench-password-123' },
  });
  if (res.status !== 201) throw new Error(`POST /api/register answered ${res.status}: ${res.body}`);
  const setCookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('pickreel_sid='));
  if (!setCookie) throw new Error('POST /api/register sent no pickreel_sid cookie');
  const cookie = setCookie.split(';')[0];
  const user = await request(`${url}/api/user`, { headers: { cookie } });
  if (user.status !== 200) throw new Error(`signed-in GET /api/user answered ${user.status}: ${user.body}`);
  return { cookie, body: user.body, contentType: user.headers['content-type'] };
}
