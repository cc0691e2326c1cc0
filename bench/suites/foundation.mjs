// Cold start, signed-in GET /api/user beside nginx, home-page JavaScript,
// idle memory. Each part reports on its own: one failing part does not hide the others.
import { statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../lib/chromium.mjs';
import { rawGet, request } from '../lib/http.mjs';
import { findLoadTool, runLoad } from '../lib/load.mjs';
import { findNginx, nginxVersion, startNginx } from '../lib/nginx.mjs';
import { groupCpuSeconds, timedWindow } from '../lib/noise.mjs';
import { ensureBuilt, signIn, startServer } from '../lib/server.mjs';
import { suiteParts } from '../lib/report.mjs';
import { fmt, median, sleep, tempDir } from '../lib/util.mjs';

const TARGET_RATIO = 0.3;
const TARGET_JS_GZIP_BYTES = 110_000; // 110 KB, decimal (as Vite prints sizes)
const TARGET_RSS_BYTES = 256_000_000; // 256 MB, decimal: the embedded server's memory budget
const IDLE_WAIT_MS = 5000;

export default {
  description: 'Cold start, GET /api/user beside nginx, home-page JS (gzip), idle RSS',
  async run(ctx) {
    const { log, result } = ctx;
    const logs = tempDir('pickreel-bench-logs-');
    ctx.logFile = (name) => path.join(logs, `${name}.log`);
    // A timed window: first wait for the machine to calm down, then record what others used during it.
    ctx.timed = (fn) => timedWindow(ctx, fn);
    ctx.build = await ensureBuilt(log);
    result.details.build = ctx.build;
    result.notes.push(...ctx.build.notes);
    if (!ctx.build.serverBuilt)
      throw new Error('no server build (dist/node/server/main.js): nothing to measure');
    const { part, finish } = suiteParts(ctx);
    await part('Cold start and idle memory', () => coldStartAndMemory(ctx));
    await part('GET /api/user beside nginx', () => apiUserBesideNginx(ctx));
    await part('Home page JavaScript', () => homePageJs(ctx));
    finish();
  },
};

const maxShare = (noises) => Math.max(...noises.map((n) => n.share).filter(Number.isFinite));

/** Starts; retries a sample that start.mjs spent rebuilding (someone edited src/ during the run). */
async function startClean(ctx, options) {
  for (let attempt = 1; ; attempt++) {
    const { value: server, noise } = await ctx.timed(() => startServer(options));
    if (!server.rebuilt) return { server, noise };
    await server.stop();
    if (attempt === 3)
      throw new Error('npm start kept rebuilding (src/ is being edited): no clean cold start');
    ctx.log('npm start rebuilt dist/ during this start (src/ changed meanwhile): sample discarded, retrying');
  }
}

async function coldStartAndMemory(ctx) {
  const { quick, log, result, build, logFile } = ctx;
  const reps = quick ? 1 : 3;
  // Without a client build GET / cannot answer 200; the API health check is the next best 'ready'.
  const readyPath = build.clientBuilt ? '/' : '/api/health';
  const runs = [];
  for (let i = 1; i <= reps; i++) {
    const dataDir = tempDir('pickreel-bench-data-'); // exists, empty
    const first = await startClean(ctx, { dataDir, logFile: logFile(`cold-${i}`), readyPath });
    await sleep(IDLE_WAIT_MS);
    const emptyRss = first.server.rssBytes();
    const emptyPeak = first.server.peakRssBytes();
    await first.server.stop();
    const second = await startClean(ctx, { dataDir, logFile: logFile(`warm-${i}`), readyPath });
    await sleep(IDLE_WAIT_MS);
    const existingRss = second.server.rssBytes();
    await second.server.stop();
    runs.push({
      emptyMs: first.server.startMs,
      emptyStatus: first.server.readyStatus,
      emptyNoise: first.noise,
      existingMs: second.server.startMs,
      existingStatus: second.server.readyStatus,
      existingNoise: second.noise,
      emptyRss,
      emptyPeak,
      existingRss,
    });
    log(
      `run ${i}/${reps}: empty DATA_DIR ${fmt.ms(first.server.startMs)}, existing ${fmt.ms(second.server.startMs)}; ` +
        `idle RSS ${fmt.mb(emptyRss)} (peak ${fmt.mb(emptyPeak)}), with existing DATA_DIR ${fmt.mb(existingRss)}`,
    );
  }
  const col = (k) => runs.map((r) => r[k]);
  const all = (list, f) => `runs: ${list.map(f).join(' / ')}`;
  const bad = [...new Set([...col('emptyStatus'), ...col('existingStatus')])].filter((s) => s !== 200);
  let what = readyPath === '/' ? '200 on GET /' : '200 on GET /api/health (no client build)';
  if (bad.length) {
    what = `answer on GET ${readyPath} (${bad.join('/')}, NOT 200)`;
    result.notes.push(
      `GET ${readyPath} answered ${bad.join('/')} instead of 200: the cold-start figures are the time to that first answer (server up, database migrated)`,
    );
  }
  result.details.coldStart = { readyPath, reps, idleWaitMs: IDLE_WAIT_MS, runs };
  result.rows.push(
    {
      id: 'coldStartEmptyMs',
      label: `Cold start to first ${what}, empty DATA_DIR (median of ${reps})`,
      value: median(col('emptyMs')),
      display: fmt.ms(median(col('emptyMs'))),
      reference: all(col('emptyMs'), fmt.ms),
      othersCpuShare: maxShare(col('emptyNoise')),
    },
    {
      id: 'coldStartExistingMs',
      label: `Cold start to first ${what}, existing DATA_DIR (median of ${reps})`,
      value: median(col('existingMs')),
      display: fmt.ms(median(col('existingMs'))),
      reference: all(col('existingMs'), fmt.ms),
      othersCpuShare: maxShare(col('existingNoise')),
    },
    {
      id: 'idleRssBytes',
      label: `Server RSS ${IDLE_WAIT_MS / 1000} s after ready, empty DATA_DIR (median of ${reps})`,
      value: median(col('emptyRss')),
      display: fmt.mb(median(col('emptyRss'))),
      reference: `peak (VmHWM) ${fmt.mb(median(col('emptyPeak')))}`,
      target: `<= ${fmt.mb(TARGET_RSS_BYTES)}`,
      pass: median(col('emptyRss')) <= TARGET_RSS_BYTES,
    },
    {
      id: 'idleRssExistingBytes',
      label: `  same, existing DATA_DIR (extra line)`,
      value: median(col('existingRss')),
      display: fmt.mb(median(col('existingRss'))),
      reference: all(col('existingRss'), fmt.mb),
    },
  );
}

async function apiUserBesideNginx(ctx) {
  const { quick, rounds, log, result, logFile } = ctx;
  const tool = findLoadTool();
  if (!tool) {
    const message = 'no load generator: install wrk (apt-get install wrk) or autocannon (npm)';
    result.rows.push({
      label: 'GET /api/user req/s and p99',
      display: 'skipped',
      skipped: true,
      note: message,
    });
    result.notes.push(message);
    return;
  }
  const settings = { connections: 50, threads: 2, seconds: quick ? 3 : 10 };
  const warmup = { ...settings, seconds: quick ? 1 : 2 };
  result.details.load = { tool: tool.name, settings, warmupSeconds: warmup.seconds, rounds };
  // pgid: the target's process group, whose CPU time per request is steadier than req/s on a busy machine.
  const measure = async (name, url, headers, pgid) => {
    const { value: figures, noise } = await ctx.timed(async () => {
      await runLoad(tool, url, { ...warmup, headers });
      const cpuBefore = groupCpuSeconds(pgid);
      const measured = await runLoad(tool, url, { ...settings, headers });
      const cpuSeconds = groupCpuSeconds(pgid) - cpuBefore;
      return { ...measured, cpuSeconds, cpuUsPerRequest: (cpuSeconds * 1e6) / measured.requests };
    });
    if (figures.non2xx || figures.socketErrors) {
      throw new Error(
        `${name}: ${figures.non2xx} non-2xx responses, ${figures.socketErrors} socket errors\n${figures.raw}`,
      );
    }
    log(
      `${name}: ${fmt.rps(figures.rps)}, p50 ${fmt.ms(figures.p50Ms)}, p99 ${fmt.ms(figures.p99Ms)} ` +
        `(${figures.requests} requests, ${Math.round(figures.cpuUsPerRequest)} µs CPU each; ` +
        `others used ${Math.round(noise.share * 100)}% of the machine)`,
    );
    return { ...figures, raw: undefined, noise };
  };

  const serverRun = async (name, env) => {
    const file = logFile(name.replace(/\W+/g, '-'));
    const server = await startServer({
      dataDir: tempDir('pickreel-bench-data-'),
      logFile: file,
      env,
      readyPath: '/api/health',
    });
    try {
      const session = await signIn(server.url);
      const headers = { Cookie: session.cookie };
      const wire = await rawGet(`${server.url}/api/user`, headers);
      const before = statSync(file).size;
      const figures = await measure(name, `${server.url}/api/user`, headers, server.pid);
      // pino buffers 4 KB, so this is approximate until the flush at shutdown; good enough per request.
      const logBytes = statSync(file).size - before;
      return {
        ...figures,
        session,
        headerBytes: wire.headerBytes,
        logBytesPerRequest: logBytes / figures.requests,
      };
    } finally {
      await server.stop();
    }
  };

  const nginxBinary = findNginx();
  const nginxVersionText = nginxBinary ? await nginxVersion(nginxBinary) : null;
  const nginxRun = async (name, session) => {
    const server = await startNginx({
      binary: nginxBinary,
      files: { '/api/user': session.body },
      contentType: session.contentType,
    });
    try {
      const check = await request(`${server.url}/api/user`);
      if (!check.body.equals(session.body))
        throw new Error('nginx does not serve the same bytes as /api/user');
      const wire = await rawGet(`${server.url}/api/user`, { Cookie: session.cookie });
      const figures = await measure(name, `${server.url}/api/user`, { Cookie: session.cookie }, server.pid);
      return { ...figures, headerBytes: wire.headerBytes };
    } finally {
      await server.stop();
    }
  };

  // One round: server (info), nginx, server (warn), back to back. More rounds (--rounds) give medians.
  const perRound = [];
  for (let r = 1; r <= rounds; r++) {
    const tag = rounds > 1 ? ` [round ${r}/${rounds}]` : '';
    const info = await serverRun(`server (LOG_LEVEL unset = info)${tag}`, {});
    const nginx = nginxBinary
      ? await nginxRun(`nginx ${nginxVersionText} (static file)${tag}`, info.session)
      : null;
    const warn = await serverRun(`server (LOG_LEVEL=warn)${tag}`, { LOG_LEVEL: 'warn' });
    perRound.push({ info, nginx, warn });
  }
  if (!nginxBinary) {
    result.notes.push(
      'nginx not found (/usr/sbin/nginx, or NGINX_PATH): reference and ratio skipped. On Debian: apt-get install nginx-light',
    );
  }

  const pick = (key, field) => median(perRound.map((r) => r[key]?.[field]));
  const ratioOf = (key) => (nginxBinary ? median(perRound.map((r) => r[key].rps / r.nginx.rps)) : NaN);
  const busy = (key) =>
    maxShare(perRound.flatMap((r) => [r[key].noise, ...(r.nginx ? [r.nginx.noise] : [])]));
  const first = perRound[0];
  result.details.apiUser = {
    bodyBytes: first.info.session.body.length,
    responseHeaderBytes: {
      server: first.info.headerBytes,
      nginx: first.nginx?.headerBytes ?? null,
    },
    logBytesPerRequest: { info: first.info.logBytesPerRequest, warn: first.warn.logBytesPerRequest },
    nginxVersion: nginxVersionText,
    rounds: perRound.map((r) => ({
      server: { ...r.info, session: undefined },
      nginx: r.nginx,
      serverWarn: { ...r.warn, session: undefined },
    })),
  };
  const of = rounds > 1 ? `, median of ${rounds} rounds` : '';
  const ref = nginxBinary ? `nginx ${fmt.rps(pick('nginx', 'rps'))}` : 'nginx missing';
  const refP99 = nginxBinary ? `nginx ${fmt.ms(pick('nginx', 'p99Ms'))}` : '';
  const conn = `${settings.connections} conns, ${settings.seconds} s, ${tool.name}${of}`;
  result.rows.push(
    {
      id: 'apiUserRps',
      label: `GET /api/user signed in: throughput (${conn})`,
      value: pick('info', 'rps'),
      display: `${fmt.rps(pick('info', 'rps'))} (ratio ${fmt.ratio(ratioOf('info'))})`,
      reference: ref,
      target: `ratio >= ${TARGET_RATIO}`,
      pass: nginxBinary ? ratioOf('info') >= TARGET_RATIO : null,
      skipped: !nginxBinary,
      ratio: ratioOf('info'),
      othersCpuShare: busy('info'),
    },
    {
      id: 'apiUserP99Ms',
      label: 'GET /api/user signed in: p99 latency',
      value: pick('info', 'p99Ms'),
      display: fmt.ms(pick('info', 'p99Ms')),
      reference: refP99,
      othersCpuShare: busy('info'),
    },
    {
      id: 'apiUserWarnRps',
      label: '  same, server with LOG_LEVEL=warn: throughput',
      value: pick('warn', 'rps'),
      display: `${fmt.rps(pick('warn', 'rps'))} (ratio ${fmt.ratio(ratioOf('warn'))})`,
      reference: ref,
      target: '(extra line)',
      ratio: ratioOf('warn'),
      othersCpuShare: busy('warn'),
    },
    {
      id: 'apiUserWarnP99Ms',
      label: '  same, server with LOG_LEVEL=warn: p99 latency',
      value: pick('warn', 'p99Ms'),
      display: fmt.ms(pick('warn', 'p99Ms')),
      reference: refP99,
      othersCpuShare: busy('warn'),
    },
  );
  const cpu = (key) => `${Math.round(pick(key, 'cpuUsPerRequest'))} µs`;
  result.rows.push(
    {
      id: 'apiUserCpuUs',
      label: '  CPU time per request, server process (info)',
      value: pick('info', 'cpuUsPerRequest'),
      display: cpu('info'),
      reference: nginxBinary ? `nginx ${cpu('nginx')} (all workers)` : '',
      othersCpuShare: busy('info'),
    },
    {
      id: 'apiUserWarnCpuUs',
      label: '  CPU time per request, server process (warn)',
      value: pick('warn', 'cpuUsPerRequest'),
      display: cpu('warn'),
      reference: nginxBinary ? `nginx ${cpu('nginx')} (all workers)` : '',
      othersCpuShare: busy('warn'),
    },
  );
  result.notes.push(
    `/api/user body ${first.info.session.body.length} bytes on both; response headers: server ${first.info.headerBytes} bytes, ` +
      `nginx ${first.nginx?.headerBytes ?? 'n/a'} bytes; server log ~${Math.round(first.info.logBytesPerRequest)} bytes/request at info, ` +
      `~${Math.round(first.warn.logBytesPerRequest)} at warn`,
  );
}

async function homePageJs(ctx) {
  const { log, result, build, logFile } = ctx;
  if (!build.clientBuilt) {
    const message =
      'client not built (dist/client/index.html missing, npm run build:client failed?): home-page JS not measured';
    result.rows.push({
      id: 'homeJsGzipBytes',
      label: 'Home page JavaScript, gzip',
      display: 'skipped',
      skipped: true,
      note: message,
    });
    result.notes.push(message);
    return;
  }
  const server = await startServer({
    dataDir: tempDir('pickreel-bench-data-'),
    logFile: logFile('home'),
    readyPath: '/',
  });
  let browser;
  try {
    const launched = await launchChromium();
    browser = launched.browser;
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = [];
    const offsite = [];
    const consoleErrors = [];
    page.on('request', (req) => {
      if (new URL(req.url()).hostname !== '127.0.0.1' && !req.url().startsWith('data:'))
        offsite.push(req.url());
    });
    page.on('console', (msg) => msg.type() === 'error' && consoleErrors.push(msg.text()));
    page.on('response', (res) => {
      const type = res.request().resourceType();
      const contentType = res.headers()['content-type'] ?? '';
      if (type === 'script' || /javascript/.test(contentType)) scripts.push(res);
    });
    if (server.readyStatus !== 200) {
      // GET / is broken (e.g. 403): load the document the server sends for every other client route in its
      // place, so the figure still describes the home page's JavaScript. Reported as a note.
      const html = await request(`${server.url}/bench-any-client-route`);
      if (html.status !== 200 || !/<script/i.test(html.body.toString())) {
        throw new Error(`GET / answered ${server.readyStatus} and no client route serves index.html either`);
      }
      await page.route(`${server.url}/`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html.body }),
      );
      result.notes.push(
        `GET / answered ${server.readyStatus}: the home-page figure loads / with the index.html the server sends for client routes`,
      );
    }
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle', timeout: 30_000 });
    const files = [];
    for (const res of scripts) {
      const body = await res.body();
      const sizes = await res.request().sizes();
      files.push({
        url: new URL(res.url()).pathname,
        status: res.status(),
        rawBytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
        transferredBodyBytes: sizes.responseBodySize,
        contentEncoding: res.headers()['content-encoding'] ?? 'identity',
      });
    }
    const sum = (k) => files.reduce((a, f) => a + f[k], 0);
    const gzip = sum('gzipBytes');
    const encodings = [...new Set(files.map((f) => f.contentEncoding))].join(', ') || 'none';
    result.details.homeJs = {
      chromium: launched.executablePath,
      files,
      offsiteRequests: offsite,
      consoleErrors,
    };
    for (const f of files) {
      log(
        `${f.url}: ${f.rawBytes} raw, ${f.gzipBytes} gzip -9, ${f.transferredBodyBytes} sent (${f.contentEncoding})`,
      );
    }
    result.rows.push({
      id: 'homeJsGzipBytes',
      label: `Home page JavaScript, gzip -9 (${files.length} files)`,
      value: gzip,
      display: fmt.kb(gzip),
      reference: `raw ${fmt.kb(sum('rawBytes'))}; as sent ${fmt.kb(sum('transferredBodyBytes'))} (${encodings})`,
      target: `<= ${fmt.kb(TARGET_JS_GZIP_BYTES)}`,
      pass: files.length > 0 && gzip <= TARGET_JS_GZIP_BYTES,
    });
    if (files.length === 0)
      result.notes.push('the home page loaded no JavaScript at all: is dist/client complete?');
    if (offsite.length)
      result.notes.push(`the home page tried to reach other hosts (blocked): ${offsite.join(', ')}`);
    if (consoleErrors.length)
      result.notes.push(`console messages of type error on the home page: ${consoleErrors.join(' | ')}`);
  } finally {
    await browser?.close();
    await server.stop();
  }
}
