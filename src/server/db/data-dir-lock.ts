import { createHash } from 'node:crypto';
import { lstatSync, rmSync, unlinkSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * PGlite is a single-process database: two processes writing one data directory corrupt it, so one
 * PickReel (or `npm run seed:demo`) holds a lock on it while it runs.
 *
 * The lock is a listening socket named after the directory, not a pid file: the kernel owns it and closes
 * it the instant its holder dies, however it dies (kill -9 included), so a restart never waits out a stale
 * lock, and no pid is ever read back, so a recycled pid can never pass for a holder. Linux: an abstract Unix
 * socket (no file at all; per network namespace, like pids are per pid namespace); Windows: a named pipe;
 * elsewhere (macOS): a socket file in the temp folder, which can outlive its holder, so a name in use is
 * asked first: a refused connection is a stale file, removed; an answer is a live holder.
 * The holder answers each connection with its pid and closes it, so the refusal can name the process.
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  return lockDataDirAs(dataDir, process.platform);
}

/** lockDataDir with the platform's kind of socket chosen: tests run the socket-file kind on Linux too. */
export async function lockDataDirAs(dataDir: string, platform: NodeJS.Platform): Promise<() => void> {
  const hash = createHash('sha256')
    .update(await realpath(dataDir))
    .digest('hex');
  // A second lock in this process is refused like any other: the name is taken, and we answer our own pid.
  const server = await listenOnce(dataDir, lockAddress(hash, platform));
  // Older versions kept a pid file here; it locks nothing any more.
  try {
    rmSync(path.join(dataDir, 'pickreel.lock'), { force: true });
  } catch {
    // a file we cannot remove is still ignored
  }
  let locked = true;
  return () => {
    if (!locked) return;
    locked = false;
    // close() releases the name at once (and removes a socket file); only its 'close' event waits.
    server.close();
  };
}

interface LockAddress {
  path: string;
  /** A socket file can outlive its holder; abstract sockets and named pipes cannot. */
  file: boolean;
}

function lockAddress(hash: string, platform: NodeJS.Platform): LockAddress {
  if (platform === 'linux') return { path: `\0pickreel-${hash}`, file: false };
  if (platform === 'win32') return { path: `\\\\?\\pipe\\pickreel-${hash}`, file: false };
  // A socket path holds at most 104 bytes on macOS, and its temp folder is already ~50: 128 bits name a
  // directory well enough.
  const name = `pickreel-${hash.slice(0, 32)}.sock`;
  const dir = Buffer.byteLength(path.join(os.tmpdir(), name)) < 100 ? os.tmpdir() : '/tmp';
  return { path: path.join(dir, name), file: true };
}

async function listenOnce(dataDir: string, address: LockAddress): Promise<net.Server> {
  let lastError: unknown;
  // A name in use is asked who holds it; only a holder that vanished in between (or a stale socket file)
  // sends us round again, so a few rounds are enough.
  for (let round = 0; round < 3; round++) {
    try {
      return await listen(address.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      lastError = error;
    }
    const before = address.file ? inode(address.path) : undefined;
    const holder = await askHolder(address.path);
    if (holder.kind === 'answered') throw inUse(dataDir, holder.pid, lastError);
    if (holder.kind === 'silent') throw inUse(dataDir, undefined, lastError);
    // Nobody listens: a socket file left by a dead holder is removed, unless another starter has already
    // replaced it with its own (same inode or nothing).
    if (address.file && before !== undefined && inode(address.path) === before) {
      try {
        unlinkSync(address.path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}.`, { cause: lastError });
}

function listen(name: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    // Accepts nothing: every connection gets our pid and is closed.
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.unref();
      socket.end(String(process.pid));
    });
    server.once('error', reject);
    server.listen({ path: name }, () => {
      server.off('error', reject);
      server.on('error', () => {});
      // The lock never keeps the process alive.
      server.unref();
      resolve(server);
    });
  });
}

type Holder = { kind: 'answered'; pid: number } | { kind: 'silent' } | { kind: 'gone' };

/** Connects to the lock's name: a pid, no answer (a stopped holder, a stranger), or nobody there. */
function askHolder(name: string): Promise<Holder> {
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect({ path: name });
    const done = (holder: Holder) => {
      socket.destroy();
      resolve(holder);
    };
    // A holder stopped (SIGSTOP) or busy still holds the lock; it is not waited for.
    socket.setTimeout(2_000, () => done({ kind: 'silent' }));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (text.length < 32) text += chunk;
    });
    socket.on('end', () => {
      const pid = /^\d+$/.test(text) ? Number(text) : 0;
      done(pid > 0 ? { kind: 'answered', pid } : { kind: 'silent' });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const gone = error.code === 'ECONNREFUSED' || error.code === 'ENOENT';
      done(gone ? { kind: 'gone' } : { kind: 'silent' });
    });
  });
}

function inode(file: string): number | undefined {
  try {
    return lstatSync(file).ino;
  } catch {
    return undefined;
  }
}

function inUse(dataDir: string, pid: number | undefined, cause?: unknown): Error {
  const message =
    pid === process.pid
      ? `The embedded database in ${dataDir} is already open in this process (pid ${pid}). Close it first.`
      : `The embedded database in ${dataDir} is in use by another ` +
        (pid === undefined ? 'process, which did not answer' : `PickReel process (pid ${pid})`) +
        '. Stop it first, or point DATA_DIR elsewhere.';
  return new Error(message, cause === undefined ? undefined : { cause });
}
