// The demo's market stand-in keeps one schedule across restarts: its games follow from an anchor time kept
// in DATA_DIR, so a game a demo pick is on is still the same game (same id, start and score) after a restart.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const FILE = 'market-stand-in.json';

/** The anchor of the demo stand-in's schedule: made at the first demo start, then read. */
export function demoStandInAnchor(dataDir: string, now = new Date()): Date {
  const file = path.join(dataDir, FILE);
  if (existsSync(file)) {
    try {
      const anchor = new Date((JSON.parse(readFileSync(file, 'utf8')) as { anchor?: string }).anchor ?? '');
      if (Number.isFinite(anchor.getTime())) return anchor;
    } catch {
      // A damaged file: a new schedule, as on a first start.
    }
  }
  const anchor = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify({ anchor: anchor.toISOString() })}\n`);
  return anchor;
}
