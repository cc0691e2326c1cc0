// After `vite build`: which built files each client route needs beyond the entry, so the server can name
// them in a `Link: <…>; rel=modulepreload` header with the page, so a page's code arrives with the
// app's instead of after it. Reads the routes from src/client/app/routes.tsx and the chunks from Vite's
// manifest; writes dist/client/route-preloads.json. Fails the build when a route's page cannot be found.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientDir = path.join(root, 'dist/client');
const manifestFile = path.join(clientDir, '.vite/manifest.json');
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const routesSource = readFileSync(path.join(root, 'src/client/app/routes.tsx'), 'utf8');

// `const AuthPage = lazyPage(() => import('../features/auth/pages/auth-page'), …)`: component -> module.
const modules = new Map();
for (const m of routesSource.matchAll(/const (\w+) = lazyPage\(\s*\(\) => import\('([^']+)'\)/g)) {
  modules.set(m[1], path.posix.join('app', m[2]).replace(/^app\/\.\.\//, '') + '.tsx');
}
// `<Route path="/x" component={X} />` or `<Route path="/x"> … <X /> … </Route>`: path -> component.
const routes = [];
for (const m of routesSource.matchAll(
  /<Route path="([^"]+)"(?: component=\{(\w+)\} \/>|>([\s\S]*?)<\/Route>)/g,
)) {
  const inner = m[3] ? [...m[3].matchAll(/<(\w+) \/>/g)].map((c) => c[1]) : [];
  const component = m[2] ?? inner.find((name) => modules.has(name));
  routes.push({ path: m[1], component });
}
if (modules.size === 0 || routes.length === 0)
  throw new Error('route-preloads: no lazy pages or routes found in routes.tsx');

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
/** Every chunk a manifest entry imports statically, itself included. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}
const withEntry = closure(entryKey);

const table = [];
for (const route of routes) {
  const key = modules.get(route.component);
  if (!key) continue; // the home page: in the entry
  if (!manifest[key]) throw new Error(`route-preloads: ${key} (${route.path}) is not in Vite's manifest`);
  const files = [...closure(key)].filter((k) => !withEntry.has(k)).map((k) => `/${manifest[k].file}`);
  // wouter's patterns: a parameter is one path segment; a trailing slash and letter case do not matter.
  const pattern = `^${route.path.replace(/:\w+/g, '[^/]+')}/?$`;
  table.push({ path: route.path, pattern, files });
}
// Pages that validate no form must not load the validation library (zod): one value imported from a schema
// module brings every schema with it. Import such values from a module without zod (common/leagues.ts…).
const NO_VALIDATION = [
  '/videos',
  '/video/:id',
  '/cappers/:username',
  '/leaderboard',
  '/log',
  '/purchases/:id',
];
for (const route of table.filter((r) => NO_VALIDATION.includes(r.path))) {
  const heavy = route.files.filter((file) =>
    readFileSync(path.join(clientDir, file), 'utf8').includes('ZodError'),
  );
  if (heavy.length)
    throw new Error(`route-preloads: ${route.path} loads the validation library (${heavy.join(', ')})`);
}
writeFileSync(path.join(clientDir, 'route-preloads.json'), `${JSON.stringify(table, null, 2)}\n`);
// The manifest was only for this; the server does not serve it.
rmSync(path.join(clientDir, '.vite'), { recursive: true, force: true });
console.log(`route preloads: ${table.map((r) => `${r.path} (${r.files.length})`).join(', ')}`);
