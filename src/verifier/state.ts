// Trust on first use: per site, the log's key and the last checkpoint this verifier checked, so
// that a later run can tell a changed key or a rewritten history from an honest log that grew.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { VerificationError, messageOf } from './verification-error.js';

export interface RememberedSite {
  /** The verifier key string, as the site served it (or as --key gave it). */
  key: string;
  checkpoint: { size: number; root: string };
  verifiedAt: string;
}

export interface VerifierState {
  version: 1;
  /** By the site URL's origin ('https://pickreel.example'). */
  sites: Record<string, RememberedSite>;
}

export const STATE_FILE_NAME = 'state.json';
/** A SHA-256 root in standard base64. */
const ROOT_BASE64 = /^[A-Za-z0-9+/]{43}=$/;

/** `PICKREEL_VERIFY_HOME` if set (tests use a temporary folder), else `~/.pickreel-verify`. */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.PICKREEL_VERIFY_HOME;
  return override ? path.resolve(override) : path.join(homedir(), '.pickreel-verify');
}

export function stateFile(dir: string): string {
  return path.join(dir, STATE_FILE_NAME);
}

/** The remembered state; an empty one when the file does not exist yet. A damaged file is an error, not a reset. */
export async function loadState(dir: string): Promise<VerifierState> {
  const file = stateFile(dir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, sites: {} };
    throw new VerificationError('key', `cannot read ${file}: ${messageOf(error)}`);
  }
  // Silently starting afresh would turn a damaged file into a fresh trust on first use: refuse instead.
  const damaged = (why: string) =>
    new VerificationError(
      'key',
      `${file} is damaged (${why}); repair it or delete it to trust the sites again`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw damaged(messageOf(error));
  }
  if (!isState(value)) throw damaged('not the shape this verifier writes');
  return value;
}

export function rememberedSite(state: VerifierState, origin: string): RememberedSite | undefined {
  return Object.hasOwn(state.sites, origin) ? state.sites[origin] : undefined;
}

/** Records a site's key and verified checkpoint, keeping the other sites; written whole, then renamed into place. */
export async function rememberSite(dir: string, origin: string, site: RememberedSite): Promise<void> {
  const state = await loadState(dir);
  state.sites[origin] = site;
  await mkdir(dir, { recursive: true });
  const file = stateFile(dir);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
  await rename(temporary, file);
}

function isState(value: unknown): value is VerifierState {
  if (!isObject(value) || value.version !== 1 || !isObject(value.sites)) return false;
  return Object.values(value.sites).every(
    (site) =>
      isObject(site) &&
      typeof site.key === 'string' &&
      typeof site.verifiedAt === 'string' &&
      isObject(site.checkpoint) &&
      Number.isSafeInteger(site.checkpoint.size) &&
      (site.checkpoint.size as number) >= 0 &&
      typeof site.checkpoint.root === 'string' &&
      ROOT_BASE64.test(site.checkpoint.root),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
