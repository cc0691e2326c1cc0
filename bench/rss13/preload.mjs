// Measurement only (issue 13's idle-RSS A/B; never loaded by the product): started with
// `NODE_OPTIONS=--expose-gc --import=<this file>`. It does nothing until the harness writes a request
// file and sends SIGUSR2; then it runs two full collections, writes process.memoryUsage(), V8's heap
// statistics and the CommonJS modules loaded to RSS13_OUT, and, when asked, a heap snapshot.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const out = process.env.RSS13_OUT;
if (out) {
  process.on('SIGUSR2', () => {
    let request = {};
    try {
      request = JSON.parse(readFileSync(`${out}.req`, 'utf8'));
    } catch {
      // no request file: the figures only
    }
    globalThis.gc?.();
    globalThis.gc?.();
    const result = {
      memory: process.memoryUsage(),
      heap: v8.getHeapStatistics(),
      spaces: v8.getHeapSpaceStatistics().map((s) => ({ name: s.space_name, used: s.space_used_size })),
      cjsModules: Object.keys(createRequire(import.meta.url).cache),
    };
    if (request.snapshot) result.snapshot = v8.writeHeapSnapshot(request.snapshot);
    writeFileSync(out, JSON.stringify(result));
  });
}
