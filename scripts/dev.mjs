// `npm run dev`: the server recompiled and restarted on change, plus Vite's dev server (HMR) on :5173,
// which proxies /api and /media to the server on :5000.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const first = spawnSync(bin('tsc'), ['-p', 'tsconfig.server.json'], { cwd: root, stdio: 'inherit' });
if (first.status !== 0) process.exit(first.status ?? 1);
// The build's own package.json, which maps its `#common/*` and `#server/*` imports to the built files.
const scope = spawnSync(process.execPath, ['scripts/write-dist-package.mjs'], {
  cwd: root,
  stdio: 'inherit',
});
if (scope.status !== 0) process.exit(scope.status ?? 1);

const env = { ...process.env, NODE_ENV: 'development' };
const children = [
  spawn(bin('tsc'), ['-p', 'tsconfig.server.json', '--watch', '--preserveWatchOutput'], {
    cwd: root,
    stdio: 'inherit',
  }),
  spawn(process.execPath, [...SERVER_NODE_FLAGS, '--watch', 'dist/node/server/main.js'], {
    cwd: root,
    stdio: 'inherit',
    env,
  }),
  spawn(bin('vite'), [], { cwd: root, stdio: 'inherit', env }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
