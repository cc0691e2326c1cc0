// The witness's memory: per log origin, the latest checkpoint it cosigned. It is what makes a fork
// impossible to cosign, so it is written durably before any answer (C2SP tlog-witness: "MUST persist the new
// checkpoint before responding") and a damaged file stops the witness instead of starting it afresh.
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fromBase64 } from '../common/pick-log/base64.js';

export interface CosignedCheckpoint {
  size: number;
  /** The root hash, standard base64. */
  root: string;
  /** The checkpoint as cosigned: its text, the log's signature lines it verified, and its cosignature. */
  note: string;
  cosignedAt: string;
}

export interface WitnessState {
  version: 1;
  /** The witness's key name, fixed at its first start: it is part of its verifier key. */
  name: string;
  /** By log origin. */
  logs: Record<string, CosignedCheckpoint>;
}

export class WitnessStateError extends Error {
  override readonly name = 'WitnessStateError';
}

/** The state in the file; null when there is no file yet (a new witness). */
export async function loadWitnessState(file: string): Promise<WitnessState | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new WitnessStateError(`cannot read the state file ${file}: ${(error as Error).message}`);
  }
  // Starting afresh on a damaged file would let the witness cosign a fork of what it cosigned before.
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw damaged(file, (error as Error).message);
  }
  const problem = stateProblem(value);
  if (problem) throw damaged(file, problem);
  return value as WitnessState;
}

function damaged(file: string, why: string): WitnessStateError {
  return new WitnessStateError(
    `the state file ${file} is damaged (${why}). Restore it from a backup: a witness that forgets what it ` +
      'cosigned could cosign a fork.',
  );
}

function stateProblem(value: unknown): string | null {
  if (!isObject(value) || value.version !== 1) return 'not a version 1 witness state';
  if (typeof value.name !== 'string' || value.name === '') return 'no witness name';
  if (!isObject(value.logs)) return 'no logs';
  for (const [origin, log] of Object.entries(value.logs)) {
    if (!isObject(log)) return `the log ${origin} is not an object`;
    if (!Number.isSafeInteger(log.size) || (log.size as number) < 0) return `the log ${origin} has no size`;
    if (typeof log.root !== 'string' || !isRoot(log.root)) return `the log ${origin} has no root hash`;
    if (typeof log.note !== 'string' || typeof log.cosignedAt !== 'string')
      return `the log ${origin} has no cosigned note`;
  }
  return null;
}

function isRoot(text: string): boolean {
  try {
    return fromBase64(text).length === 32;
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Writes the whole state durably: a temporary file beside it, flushed to disk, renamed over the old one,
 * then the folder flushed, so that a crash leaves either the old state or the new one, never a mix.
 */
export async function saveWitnessState(file: string, state: WitnessState): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(state, null, 2)}\n`);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncFolder(path.dirname(file));
}

/** fsync of the folder, so the rename itself survives a power cut (where the platform allows it). */
async function syncFolder(folder: string): Promise<void> {
  let handle;
  try {
    handle = await open(folder, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch (error) {
    // Some platforms refuse fsync on a folder; the rename is then as durable as they make it.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM') throw error;
  } finally {
    await handle.close();
  }
}

/**
 * One witness process per state file: two would each remember only their own cosignatures, and between them
 * could cosign a fork. Takes `<file>.lock` (holding the pid); a lock whose process is gone is taken over.
 */
export async function lockStateFile(file: string): Promise<() => Promise<void>> {
  const lock = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
    if (Number.isSafeInteger(pid) && pid > 0 && isAlive(pid))
      throw new WitnessStateError(
        `another witness (pid ${pid}) uses the state file ${file}; if it is gone, delete ${lock}`,
      );
    await rm(lock, { force: true });
  }
  throw new WitnessStateError(`cannot take the lock ${lock}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
