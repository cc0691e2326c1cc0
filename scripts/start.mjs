// `npm start`: builds what is missing or stale (a fresh clone has no dist/), then runs the server.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverEntry = path.join(root, 'dist/node/server/main.js');
const clientEntry = path.join(root, 'dist/client/index.html');
// The build's package scope, which maps its `#` imports to the built files (scripts/write-dist-package.mjs).
const serverScope = path.join(root, 'dist/node/package.json');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function stale(output, ...sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((source) => existsSync(source) && newestMtime(source) > built);
}

function run(script) {
  console.log(`> npm run ${script}`);
  const result = spawnSync('npm', ['run', script], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const src = (p) => path.join(root, 'src', p);
if (stale(clientEntry, src('client'), src('common'))) run('build:client');
if (stale(serverEntry, src('server'), src('common')) || !existsSync(serverScope)) run('build:server');

await import(serverEntry);
