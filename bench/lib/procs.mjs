// Every process a bench starts goes through here, so that all of them are stopped at the end, even when a
// suite throws, the bench is interrupted (Ctrl-C) or Node exits on an uncaught error.
import { spawn } from 'node:child_process';

const live = new Set();

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal); // detached children lead their own process group: this reaches grandchildren too
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Spawns a command in its own process group and tracks it. Returns the child plus:
 *  exited: a promise of { code, signal }; stop(): SIGTERM the group, SIGKILL after graceMs.
 */
export function spawnTracked(command, args, options = {}) {
  const child = spawn(command, args, { ...options, detached: true });
  const entry = { child, pid: child.pid, done: false };
  live.add(entry);
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      entry.done = true;
      live.delete(entry);
      resolve({ code, signal });
    });
    child.once('error', (error) => {
      entry.done = true;
      live.delete(entry);
      resolve({ code: null, signal: null, error });
    });
  });
  async function stop({ signal = 'SIGTERM', graceMs = 10_000 } = {}) {
    if (entry.done || child.pid === undefined) return exited;
    killGroup(child.pid, signal);
    const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), graceMs);
    const result = await exited;
    clearTimeout(timer);
    killGroup(child.pid, 'SIGKILL'); // leftovers of the group (e.g. a child the leader did not wait for)
    return result;
  }
  return { child, pid: child.pid, exited, stop };
}

/** Runs a command to completion with a hard time limit; resolves { code, stdout, stderr, timedOut }. */
export function runBounded(command, args, { timeoutMs, ...options } = {}) {
  return new Promise((resolve) => {
    const proc = spawnTracked(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    proc.child.stdout.on('data', (d) => (stdout += d));
    proc.child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      proc.stop({ graceMs: 2000 });
    }, timeoutMs);
    proc.exited.then(({ code, error }) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr: error ? `${stderr}${error.message}` : stderr, timedOut });
    });
  });
}

const cleanups = new Set();

/** Registers an async clean-up (e.g. closing a browser) that stopAll() runs; returns an unregister function. */
export function onCleanup(fn) {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Stops everything still running; used at the end of a run and on the way out. */
export async function stopAll() {
  for (const fn of [...cleanups]) {
    cleanups.delete(fn);
    await Promise.race([
      Promise.resolve()
        .then(fn)
        .catch(() => {}),
      new Promise((r) => setTimeout(r, 10_000)),
    ]);
  }
  await Promise.all(
    [...live].map((entry) => {
      killGroup(entry.pid, 'SIGTERM');
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          killGroup(entry.pid, 'SIGKILL');
          resolve();
        }, 5000);
        entry.child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        if (entry.done) {
          clearTimeout(timer);
          resolve();
        }
      });
    }),
  );
}

/** Process group ids of everything the bench has running (each tracked child leads its own group). */
export function trackedGroups() {
  return [...live].map((entry) => entry.pid);
}

function killAllNow() {
  for (const entry of live) killGroup(entry.pid, 'SIGKILL');
}

process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`\nbench: ${signal}, stopping the processes it started`);
    killAllNow();
    process.exit(130);
  });
}
