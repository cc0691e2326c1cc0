// The demo history route writes picks on past games, so it must answer only the machine that runs the server:
// the server keeps a random token in its DATA_DIR, and a seed on the same machine reads it from there.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const FILE = 'demo-token';

/** This data directory's token, made on first use (readable by its owner only). */
export function ensureDemoToken(dataDir: string): string {
  const existing = readDemoToken(dataDir);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(32).toString('hex');
  writeFileSync(path.join(dataDir, FILE), token, { mode: 0o600 });
  return token;
}

/** The token of a data directory on this machine, or null when it has none. */
export function readDemoToken(dataDir: string): string | null {
  try {
    const token = readFileSync(path.join(dataDir, FILE), 'utf8').trim();
    return token || null;
  } catch {
    return null;
  }
}

export function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
