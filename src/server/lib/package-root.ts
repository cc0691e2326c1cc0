import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** Whether `dir` holds the project's package.json (named), not dist/node's (a nameless scope for `#` imports). */
function holdsProjectPackage(dir: string): boolean {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return false;
  return typeof (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'string';
}

/**
 * The folder holding the project's package.json: the same from src/ (tests) and dist/node/ (npm start), whose
 * own package.json only maps the build's `#common/*` and `#server/*` imports (docs/decisions/019).
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!holdsProjectPackage(dir)) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  cached = dir;
  return dir;
}
