import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../lib/package-root.js';
import { lockDataDir, lockDataDirAs } from './data-dir-lock.js';

const lockModule = path.join(packageRoot(), 'src/server/db/data-dir-lock.ts');
const children: ChildProcess[] = [];
const dirs: string[] = [];

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-lock-'));
  dirs.push(dir);
  return dir;
}

// The holder: another process that locks `dir` and stays up (the lock itself never keeps it alive).
function holderScript(platform?: NodeJS.Platform): string {
  return [
    `import { lockDataDir, lockDataDirAs } from ${JSON.stringify(lockModule)};`,
    platform
      ? 'await lockDataDirAs(process.env.LOCK_DIR, process.env.LOCK_PLATFORM);'
      : 'await lockDataDir(process.env.LOCK_DIR);',
    "console.log('locked');",
  ].join('\n');
}

function startHolder(dir: string, platform?: NodeJS.Platform): Promise<ChildProcess> {
  const script = `${holderScript(platform)}\nsetInterval(() => {}, 1 << 30);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: packageRoot(),
    env: { ...process.env, LOCK_DIR: dir, LOCK_PLATFORM: platform ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('locked')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}:\n${output}`)));
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

function refusal(dir: string, pid: number | undefined): string {
  return (
    `The embedded database in ${dir} is in use by another PickReel process (pid ${pid}). ` +
    'Stop it first, or point DATA_DIR elsewhere.'
  );
}

// The socket-file kind's name for a directory (macOS; tested here too).
function socketFile(dir: string): string {
  const hash = createHash('sha256').update(realpathSync.native(dir)).digest('hex');
  return path.join(os.tmpdir(), `pickreel-${hash.slice(0, 32)}.sock`);
}

afterEach(async () => {
  await Promise.all(children.splice(0).map(kill));
  for (const dir of dirs.splice(0)) {
    rmSync(socketFile(dir), { force: true }); // what a killed socket-file holder leaves
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('lockDataDir', { timeout: 30_000 }, () => {
  it('refuses while another process holds the directory, naming its pid; it leaves no file there', async () => {
    const dir = dataDir();
    const holder = await startHolder(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(refusal(dir, holder.pid));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is free the moment its holder dies by SIGKILL, even before it is reaped', async () => {
    const dir = dataDir();
    // The holder's parent becomes `sleep`, which never reaps it: killed, it stays a zombie, which a pid check
    // still finds alive, so a restart right after kill -9 would fail.
    const script = `${holderScript()}\nconsole.log(process.pid);\nsetInterval(() => {}, 1 << 30);`;
    const parent = spawn(
      'sh',
      [
        '-c',
        '"$0" --import tsx --input-type=module -e "$1" & exec sleep 1000 </dev/null >/dev/null 2>&1',
        process.execPath,
        script,
      ],
      { cwd: packageRoot(), env: { ...process.env, LOCK_DIR: dir }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(parent);
    let output = '';
    const holderPid = await new Promise<number>((resolve, reject) => {
      parent.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /locked\n(\d+)\n/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      parent.stdout!.once('end', () => reject(new Error(`holder ended:\n${output}`)));
    });
    const died = new Promise((resolve) => parent.stdout!.once('end', resolve));
    process.kill(holderPid, 'SIGKILL');
    await died; // its stdout closes as it dies
    expect(() => process.kill(holderPid, 0)).not.toThrow(); // not reaped: its pid still answers
    const unlock = await lockDataDir(dir);
    unlock();
  });

  it('ignores and removes an old pid file, even one naming a live process (pid reuse)', async () => {
    const dir = dataDir();
    // Not PickReel: a process that merely has the pid an old lock file names.
    const stranger = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    children.push(stranger);
    writeFileSync(path.join(dir, 'pickreel.lock'), String(stranger.pid));
    const unlock = await lockDataDir(dir);
    expect(existsSync(path.join(dir, 'pickreel.lock'))).toBe(false);
    expect(stranger.exitCode).toBeNull();
    unlock();
  });

  it('refuses a second lock in the same process; unlock frees it at once and only once', async () => {
    const dir = dataDir();
    const unlockFirst = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(
      `The embedded database in ${dir} is already open in this process (pid ${process.pid}). Close it first.`,
    );
    unlockFirst();
    const unlockSecond = await lockDataDir(dir);
    unlockFirst(); // idempotent: the old unlock must not release the new holder's lock
    await expect(lockDataDir(dir)).rejects.toThrow('already open in this process');
    unlockSecond();
    (await lockDataDir(dir))();
  });

  it('locks two directories at once, and knows a directory by its real path', async () => {
    const first = dataDir();
    const second = dataDir();
    const unlockFirst = await lockDataDir(first);
    const unlockSecond = await lockDataDir(second);
    const link = path.join(dataDir(), 'link');
    symlinkSync(first, link);
    await expect(lockDataDir(link)).rejects.toThrow('already open in this process');
    unlockFirst();
    unlockSecond();
  });

  it('never keeps its process alive', () => {
    const dir = dataDir();
    // No timer in this script: it ends by itself unless the lock holds the event loop.
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', holderScript()],
      {
        cwd: packageRoot(),
        env: { ...process.env, LOCK_DIR: dir },
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(result.stderr).toBe('');
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('locked\n');
  });
});

// macOS has no abstract sockets: the lock is a socket file, which a killed holder leaves behind. The same
// code runs here on Linux.
describe('lockDataDir with a socket file (macOS)', { timeout: 30_000 }, () => {
  it('refuses while the holder lives, naming its pid', async () => {
    const dir = dataDir();
    const holder = await startHolder(dir, 'darwin');
    expect(existsSync(socketFile(dir))).toBe(true);
    await expect(lockDataDirAs(dir, 'darwin')).rejects.toThrow(refusal(dir, holder.pid));
  });

  it('takes over the socket file a killed holder left', async () => {
    const dir = dataDir();
    const holder = await startHolder(dir, 'darwin');
    await kill(holder);
    expect(existsSync(socketFile(dir))).toBe(true);
    const unlock = await lockDataDirAs(dir, 'darwin');
    unlock();
    expect(existsSync(socketFile(dir))).toBe(false);
  });

  it('refuses a second lock in the same process', async () => {
    const dir = dataDir();
    const unlock = await lockDataDirAs(dir, 'darwin');
    await expect(lockDataDirAs(dir, 'darwin')).rejects.toThrow('already open in this process');
    unlock();
  });
});
