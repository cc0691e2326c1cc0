// Writes dist/node/package.json after `tsc -p tsconfig.server.json`: the built server's own package scope, so
// that Node resolves its `#common/*.js` and `#server/*.js` imports to the built files beside it, where the
// project's package.json sends them to the TypeScript sources (docs/decisions/019).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist/node'); // tsconfig.server.json: rootDir src, outDir dist/node
const { imports } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const built = {};
for (const [specifier, target] of Object.entries(imports)) {
  // Only what tsc compiles for the server: src/common and src/server (the client is bundled by Vite).
  const match = /^\.\/src\/((?:common|server)\/.*)\.ts$/.exec(target);
  if (match) built[specifier] = `./${match[1]}.js`;
}
if (Object.keys(built).length === 0)
  throw new Error('package.json "imports" maps nothing into src/common or src/server');

mkdirSync(outDir, { recursive: true });
// No "name": packageRoot() (src/server/lib/package-root.ts) looks past this file for the project's own.
const pkg = { private: true, type: 'module', imports: built };
writeFileSync(path.join(outDir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
