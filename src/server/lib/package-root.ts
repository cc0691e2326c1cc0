import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The folder holding package.json: the same from src/ (tests) and dist/node/ (npm start). */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  cached = dir;
  return dir;
}
