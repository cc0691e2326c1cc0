// Our onSend compression (src/server/plugins/compression.ts, as built) against @fastify/compress set up
// alike (br q5 text mode, gzip 6, 1 KB threshold, JSON only), on real API JSON, over loopback; decision 030.
// Usage, after `npm run build:server` and saving a built server's GET /api/openapi.json to a file:
//   node bench/library-checks/compression.mjs "$PWD/dist/node" /tmp/openapi.json
// Three rounds a run, the two taking turns; each: 32 clients for 3 s on 4 KB, 20 KB and the whole document,
// then a tiny answer's latency while the 20 KB one is under load. Needs @fastify/compress installed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { constants as z } from 'node:zlib';

const [, , dist, docFile, role, mode, portArg] = process.argv;
const doc = readFileSync(docFile);
const bodies = {
  small: doc.subarray(0, 4_000),
  page: doc.subarray(0, 20_000),
  doc,
  tiny: Buffer.from('{"ok":true}'),
};

async function serve() {
  const { default: Fastify } = await import(`${process.cwd()}/node_modules/fastify/fastify.js`);
  const app = Fastify();
  if (mode === 'ours') {
    const { registerCompression } = await import(`${dist}/server/plugins/compression.js`);
    registerCompression(app);
  } else {
    const { default: compress } = await import(`${process.cwd()}/node_modules/@fastify/compress/index.js`);
    await app.register(compress, {
      encodings: ['br', 'gzip'],
      threshold: 1024,
      globalDecompression: false,
      customTypes: /^application\/json/,
      brotliOptions: { params: { [z.BROTLI_PARAM_QUALITY]: 5, [z.BROTLI_PARAM_MODE]: z.BROTLI_MODE_TEXT } },
      zlibOptions: { level: 6 },
    });
  }
  const delay = monitorEventLoopDelay({ resolution: 1 });
  for (const [name, body] of Object.entries(bodies)) {
    app.get(`/api/${name}`, (_req, reply) => {
      reply.type('application/json; charset=utf-8').send(body);
    });
  }
  let cpu = process.cpuUsage();
  app.get('/api/cpu', (_req, reply) => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    reply.send({ us: used.user + used.system });
  });
  app.get('/api/loop', (_req, reply) => {
    const out = { p99ms: delay.percentile(99) / 1e6, maxms: delay.max / 1e6 };
    delay.reset();
    reply.send(out);
  });
  app.get('/api/loop-start', (_req, reply) => {
    delay.enable();
    delay.reset();
    reply.send({});
  });
  await app.listen({ port: Number(portArg), host: '127.0.0.1' });
  process.send?.('ready');
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function get(port, path) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    http
      .get({ host: '127.0.0.1', port, path, agent, headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (c) => (bytes += c.length));
        res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, bytes }));
      })
      .on('error', reject);
  });
}
async function load(port, path, clients, ms) {
  const times = [];
  let bytes = 0;
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        const r = await get(port, path);
        times.push(r.ms);
        bytes = r.bytes;
      }
    }),
  );
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
  return { rps: Math.round(times.length / (ms / 1000)), p50: q(0.5), p99: q(0.99), bytes };
}

async function run() {
  const results = {};
  for (const round of [1, 2, 3]) {
    for (const m of round % 2 ? ['ours', 'lib'] : ['lib', 'ours']) {
      const port = 4100 + round * 10 + (m === 'ours' ? 0 : 1);
      const child = spawn(process.execPath, [process.argv[1], dist, docFile, 'serve', m, String(port)], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      await new Promise((r) => child.once('message', r));
      for (const name of ['small', 'page', 'doc']) await load(port, `/api/${name}`, 8, 1000); // warm-up
      const row = (results[m] ??= []);
      const json = (path) =>
        new Promise((resolve) =>
          http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
            let t = '';
            res.on('data', (c) => (t += c)).on('end', () => resolve(JSON.parse(t)));
          }),
        );
      for (const name of ['small', 'page', 'doc']) {
        await json('/api/cpu');
        const r = await load(port, `/api/${name}`, 32, 3000);
        const { us } = await json('/api/cpu');
        const count = Math.round((r.rps * 3000) / 1000);
        row.push({ round, name, ...r, cpuUsPerReq: Math.round(us / count) });
      }
      // A tiny answer's latency while 32 clients fetch the 20 KB page: what compression costs everyone else.
      await get(port, '/api/loop-start');
      const [, probe] = await Promise.all([
        load(port, '/api/page', 32, 4000),
        load(port, '/api/tiny', 4, 4000),
      ]);
      const loop = await new Promise((resolve) =>
        http.get({ host: '127.0.0.1', port, path: '/api/loop', agent }, (res) => {
          let t = '';
          res.on('data', (c) => (t += c)).on('end', () => resolve(JSON.parse(t)));
        }),
      );
      row.push({ round, name: 'tiny beside page', ...probe, loop });
      child.kill();
      await new Promise((r) => child.once('exit', r));
    }
  }
  for (const [m, rows] of Object.entries(results)) for (const r of rows) console.log(m, JSON.stringify(r));
  agent.destroy();
}

if (role === 'serve') await serve();
else await run();
