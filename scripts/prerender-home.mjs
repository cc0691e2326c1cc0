// After `vite build`: renders the home page's first paint (src/client/prerender-home.tsx) into
// dist/client/home.html, which the server sends for `/` (docs/decisions/012), and every other page's first
// paint (the navigation, a spinner, the footer) into dist/client/shell.html, sent for the client's other
// routes. The client then renders over it; nothing is hydrated, so a difference can never be an
// error.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { build, minify } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientDir = path.join(root, 'dist/client');
// Inside the package, so the bundle's imports (react-dom...) resolve from node_modules.
const out = path.join(root, 'node_modules/.cache/pickreel-prerender');
try {
  await build({
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { ssr: 'prerender-home.tsx', outDir: out, emptyOutDir: true, copyPublicDir: false },
  });
  const { renderHome, renderShell } = await import(pathToFileURL(path.join(out, 'prerender-home.js')).href);
  const markup = renderHome();
  const shellMarkup = renderShell();
  const index = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  if (!index.includes('<div id="root"></div>')) throw new Error('dist/client/index.html has no empty #root');
  // The entry starts from home-boot.js after the first paint, and nothing of the app is requested before
  // it: a module preload would download during the paint and, in a slow network, hold it up (decision 012).
  const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
  const entry = entryTag.exec(index)?.[1];
  if (!entry) throw new Error('dist/client/index.html has no entry module script');
  // The loader (src/client/home-boot.js), minified, under a content-hashed name like the other assets.
  const boot = await minify(
    'home-boot.js',
    readFileSync(path.join(root, 'src/client/home-boot.js'), 'utf8'),
    {
      compress: true,
      mangle: true,
    },
  );
  const bootName = `assets/home-boot-${createHash('sha256').update(boot.code).digest('hex').slice(0, 10)}.js`;
  writeFileSync(path.join(clientDir, bootName), boot.code);
  const home = index
    .replace(entryTag, `<script type="module" src="/${bootName}" data-entry="${entry}"></script>`)
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
  writeFileSync(path.join(clientDir, 'home.html'), home);
  console.log(`prerendered the home page: dist/client/home.html (${markup.length} characters of markup)`);
  // Other pages start their code at once (their content is what it loads), with its module preloads; the
  // loader only carries over what the visitor does to the shell meanwhile.
  const shell = index
    .replace(entryTag, `<script type="module" src="/${bootName}" data-entry="${entry}" data-eager></script>`)
    .replace('<div id="root"></div>', `<div id="root">${shellMarkup}</div>`);
  writeFileSync(path.join(clientDir, 'shell.html'), shell);
  console.log(`prerendered the page shell: dist/client/shell.html (${shellMarkup.length} characters)`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
