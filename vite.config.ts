import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { Plugin } from 'vite';

/**
 * A feature's public entry (features/<f>/index.ts) only re-exports, so it has no side effects: saying so lets
 * the bundler bind each import to the module behind it. Otherwise an entry that the home page loads (auth's,
 * for useUser) would pull everything it re-exports (sign-out, for the lazy user menu) into the first chunk.
 */
function featureEntriesArePure(): Plugin {
  return {
    name: 'feature-entries-are-pure',
    transform(code, id) {
      if (/\/features\/[^/]+\/index\.ts$/.test(id)) return { code, moduleSideEffects: false };
    },
  };
}

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), featureEntriesArePure()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: false,
    // Read by scripts/route-preloads.mjs (each route's chunks), then removed.
    manifest: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:5000',
      '/media': 'http://localhost:5000',
    },
  },
});
