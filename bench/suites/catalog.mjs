// GET /api/videos for a signed-out visitor beside nginx serving the same bytes,
// with 1,000 and 100,000 videos, on the embedded database (PGlite) and on PostgreSQL; and the home page
// with 1,000 videos under Lighthouse (mobile emulation, median of 5). Each part reports on its own.
import path from 'node:path';
import { chromiumPath } from '../lib/chromium.mjs';
import { rawGet, request } from '../lib/http.mjs';
import { lighthouseOnce as lighthouseRun } from '../lib/lighthouse.mjs';
import { findLoadTool, runLoad } from '../lib/load.mjs';
import { findNginx, nginxVersion, startNginx } from '../lib/nginx.mjs';
import { groupCpuSeconds, timedWindow } from '../lib/noise.mjs';
import { scratchPostgres } from '../lib/postgres.mjs';
import { runBounded } from '../lib/procs.mjs';
import { ensureBuilt, root, startServer } from '../lib/server.mjs';
import { suiteParts } from '../lib/report.mjs';
import { fmt, median, tempDir } from '../lib/util.mjs';

const TARGET_RATIO = 0.5;
const TARGET_P99_GROWTH = 2; // 100,000-video p99 within 2x of the 1,000-video p99
const TARGET_LCP_MS = 1500;
const TARGET_SCORE = 95;
const SMALL = 1_000;
const LARGE = 100_000;
const LIGHTHOUSE_RUNS = 5;
const PG_DATABASE = 'pickreel_bench_catalog'; // our own; never `test` (CI's)
const seedScript = path.join(root, 'dist/node/server/scripts/seed-demo.js');

export default {
  description:
    'Signed-out GET /api/videos beside nginx (1,000 and 100,000 videos; PGlite and PostgreSQL), home page Lighthouse',
  async run(ctx) {
    const { log, result } = ctx;
    const logs = tempDir('pickreel-bench-logs-');
    ctx.logFile = (name) => path.join(logs, `${name.replace(/\W+/g, '-')}.log`);
    ctx.timed = (fn) => timedWindow(ctx, fn);
    ctx.build = await ensureBuilt(log);
    result.details.build = ctx.build;
    result.notes.push(...ctx.build.notes);
    if (!ctx.build.serverBuilt)
      throw new Error('no server build (dist/node/server/main.js): nothing to measure');
    ctx.tool = findLoadTool();
    ctx.nginx = findNginx();
    ctx.nginxVersion = ctx.nginx ? await nginxVersion(ctx.nginx) : null;
    if (!ctx.nginx)
      result.notes.push('nginx not found (/usr/sbin/nginx, or NGINX_PATH): reference and ratio skipped');

    const { part, finish } = suiteParts(ctx);
    await part('Embedded database (PGlite)', () => catalogOn(ctx, { kind: 'pglite', label: 'PGlite' }));
    await part('PostgreSQL', () => catalogOn(ctx, { kind: 'postgres', label: 'PostgreSQL' }));
    finish();
  },
};

const maxShare = (noises) => Math.max(...noises.map((n) => n.share).filter(Number.isFinite));

/** `seed:demo --total N` on the database the server will use (the server is stopped meanwhile). */
async function seed(ctx, env, total) {
  const started = performance.now();
  const out = await runBounded(process.execPath, [seedScript, '--total', String(total)], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    timeoutMs: 600_000,
  });
  if (out.code !== 0) throw new Error(`seed:demo --total ${total} failed: ${out.stderr || out.stdout}`);
  const holds = /The catalog holds (\d+) videos/.exec(out.stdout);
  const seconds = (performance.now() - started) / 1000;
  ctx.log(`seeded ${holds?.[1] ?? '?'} videos in ${seconds.toFixed(1)} s`);
  if (Number(holds?.[1]) !== total) throw new Error(`seed:demo left ${holds?.[1]} videos, not ${total}`);
  return { videos: total, seconds };
}

async function catalogOn(ctx, { kind, label }) {
  const { result, log } = ctx;
  const env = {};
  let pgScratch;
  if (kind === 'postgres') {
    pgScratch = await scratchPostgres(PG_DATABASE);
    if (pgScratch.error) {
      result.rows.push({ label: `${label}: GET /api/videos`, display: 'skipped', skipped: true });
      result.notes.push(pgScratch.error);
      return;
    }
    env.DATABASE_URL = pgScratch.url;
  }
  try {
    const dataDir = tempDir(`pickreel-bench-catalog-${kind}-`); // media (thumbnails), session secret; PGlite's data
    env.DATA_DIR = dataDir;
    const details = (result.details[kind] = {});
    details.seedSmall = await seed(ctx, env, SMALL);
    const small = await loadRounds(ctx, { env, label: `${label}, ${SMALL.toLocaleString('en-US')} videos` });
    details.small = small;
    if (kind === 'pglite') await lighthouseHome(ctx, env);
    details.seedLarge = await seed(ctx, env, LARGE);
    const large = await loadRounds(ctx, {
      env,
      label: `${label}, ${LARGE.toLocaleString('en-US')} videos`,
      withNginx: false,
    });
    details.large = large;
    pushLoadRows(ctx, label, small, large);
  } finally {
    if (pgScratch?.drop) await pgScratch.drop();
  }
  log(`${label}: done`);
}

/** wrk against one URL, after a warm-up; CPU of the target's process group per request. */
async function measure(ctx, name, url, pgid) {
  const { quick, log, tool } = ctx;
  const settings = { connections: 50, threads: 2, seconds: quick ? 3 : 10 };
  const warmup = { ...settings, seconds: quick ? 1 : 2 };
  const { value: figures, noise } = await ctx.timed(async () => {
    await runLoad(tool, url, warmup);
    const cpuBefore = groupCpuSeconds(pgid);
    const measured = await runLoad(tool, url, settings);
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
  return { ...figures, raw: undefined, settings, noise };
}

/** Server then nginx (same bytes), `rounds` times; medians. */
async function loadRounds(ctx, { env, label, withNginx = true }) {
  if (!ctx.tool) throw new Error('no load generator: install wrk (apt-get install wrk)');
  const perRound = [];
  for (let r = 1; r <= ctx.rounds; r++) {
    const tag = ctx.rounds > 1 ? ` [round ${r}/${ctx.rounds}]` : '';
    const server = await startServer({
      dataDir: env.DATA_DIR,
      logFile: ctx.logFile(`${label}${tag}`),
      env,
      readyPath: '/api/health',
    });
    let serverFigures;
    let body;
    let contentType;
    let headerBytes;
    try {
      const res = await request(`${server.url}/api/videos`);
      if (res.status !== 200) throw new Error(`GET /api/videos answered ${res.status}: ${res.body}`);
      body = res.body;
      contentType = res.headers['content-type'];
      const videos = JSON.parse(body.toString());
      if (!Array.isArray(videos) || videos.length === 0)
        throw new Error('GET /api/videos returned no videos');
      if (videos.some((v) => 'emailInformation' in v && v.emailInformation))
        throw new Error('a signed-out visitor was sent winning selections');
      headerBytes = (await rawGet(`${server.url}/api/videos`)).headerBytes;
      serverFigures = await measure(ctx, `server, ${label}${tag}`, `${server.url}/api/videos`, server.pid);
      serverFigures.videosInPage = videos.length;
    } finally {
      await server.stop();
    }
    let nginxFigures = null;
    if (withNginx && ctx.nginx) {
      const nginx = await startNginx({ binary: ctx.nginx, files: { '/api/videos': body }, contentType });
      try {
        const check = await request(`${nginx.url}/api/videos`);
        if (!check.body.equals(body)) throw new Error('nginx does not serve the same bytes as /api/videos');
        const nginxHeaderBytes = (await rawGet(`${nginx.url}/api/videos`)).headerBytes;
        nginxFigures = await measure(
          ctx,
          `nginx ${ctx.nginxVersion} (static file, same bytes)${tag}`,
          `${nginx.url}/api/videos`,
          nginx.pid,
        );
        nginxFigures.headerBytes = nginxHeaderBytes;
      } finally {
        await nginx.stop();
      }
    }
    perRound.push({ server: serverFigures, nginx: nginxFigures, bodyBytes: body.length, headerBytes });
  }
  const pick = (key, field) => median(perRound.map((r) => r[key]?.[field]));
  const ratio = perRound[0].nginx ? median(perRound.map((r) => r.server.rps / r.nginx.rps)) : NaN;
  return {
    rounds: perRound,
    rps: pick('server', 'rps'),
    p99Ms: pick('server', 'p99Ms'),
    cpuUs: pick('server', 'cpuUsPerRequest'),
    nginxRps: pick('nginx', 'rps'),
    nginxP99Ms: pick('nginx', 'p99Ms'),
    nginxCpuUs: pick('nginx', 'cpuUsPerRequest'),
    ratio,
    bodyBytes: perRound[0].bodyBytes,
    headerBytes: perRound[0].headerBytes,
    nginxHeaderBytes: perRound[0].nginx?.headerBytes,
    videosInPage: perRound[0].server.videosInPage,
    settings: perRound[0].server.settings,
    othersCpuShare: maxShare(perRound.flatMap((r) => [r.server.noise, ...(r.nginx ? [r.nginx.noise] : [])])),
  };
}

function pushLoadRows(ctx, label, small, large) {
  const { result, rounds, tool } = ctx;
  const hasNginx = Number.isFinite(small.ratio);
  const of = rounds > 1 ? `, median of ${rounds} rounds` : '';
  const conn = `${small.settings.connections} conns, ${small.settings.seconds} s, ${tool.name}${of}`;
  const growth = large.p99Ms / small.p99Ms;
  result.rows.push(
    {
      id: `${label}VideosRps`,
      label: `${label}: GET /api/videos signed out, ${SMALL.toLocaleString('en-US')} videos (${conn})`,
      value: small.rps,
      display: `${fmt.rps(small.rps)} (ratio ${fmt.ratio(small.ratio)})`,
      reference: hasNginx ? `nginx ${fmt.rps(small.nginxRps)}` : 'nginx missing',
      target: `ratio >= ${TARGET_RATIO}`,
      pass: hasNginx ? small.ratio >= TARGET_RATIO : null,
      skipped: !hasNginx,
      ratio: small.ratio,
      othersCpuShare: small.othersCpuShare,
    },
    {
      id: `${label}VideosP99Ms`,
      label: '  p99 latency',
      value: small.p99Ms,
      display: fmt.ms(small.p99Ms),
      reference: hasNginx ? `nginx ${fmt.ms(small.nginxP99Ms)}` : '',
      othersCpuShare: small.othersCpuShare,
    },
    {
      id: `${label}VideosCpuUs`,
      label: '  CPU time per request, server process',
      value: small.cpuUs,
      display: `${Math.round(small.cpuUs)} µs`,
      reference: hasNginx ? `nginx ${Math.round(small.nginxCpuUs)} µs (all workers)` : '',
      othersCpuShare: small.othersCpuShare,
    },
    {
      id: `${label}VideosLargeP99Ms`,
      label: `${label}: same, ${LARGE.toLocaleString('en-US')} videos: p99 latency`,
      value: large.p99Ms,
      display: `${fmt.ms(large.p99Ms)} (${growth.toFixed(2)}x)`,
      reference: `${fmt.rps(large.rps)}; ${Math.round(large.cpuUs)} µs CPU each`,
      target: `<= ${TARGET_P99_GROWTH}x the ${SMALL.toLocaleString('en-US')}-video p99`,
      pass: growth <= TARGET_P99_GROWTH,
      othersCpuShare: large.othersCpuShare,
    },
  );
  result.notes.push(
    `${label}: /api/videos body ${small.bodyBytes} bytes (${small.videosInPage} videos), response headers: server ` +
      `${small.headerBytes} bytes, nginx ${small.nginxHeaderBytes ?? 'n/a'} bytes`,
  );
}

/** One Lighthouse performance run (bench/lib/lighthouse.mjs), its score as this suite reports it. */
async function lighthouseOnce(url, executablePath) {
  const value = await lighthouseRun(url, { executablePath, categories: ['performance'] });
  return { ...value, score: value.scores.performance };
}

async function lighthouseHome(ctx, env) {
  const { result, log, build, quick } = ctx;
  if (!build.clientBuilt) {
    result.rows.push({ label: 'Home page Lighthouse', display: 'skipped', skipped: true });
    result.notes.push('client not built (dist/client/index.html missing): Lighthouse skipped');
    return;
  }
  const executablePath = await chromiumPath();
  const server = await startServer({
    dataDir: env.DATA_DIR,
    logFile: ctx.logFile('lighthouse'),
    env,
    readyPath: '/',
  });
  const runs = [];
  const noises = [];
  const reps = quick ? 1 : LIGHTHOUSE_RUNS;
  try {
    for (let i = 1; i <= reps; i++) {
      const { value, noise } = await ctx.timed(() => lighthouseOnce(`${server.url}/`, executablePath));
      runs.push(value);
      noises.push(noise);
      log(
        `Lighthouse ${i}/${reps}: score ${value.score}, LCP ${fmt.ms(value.lcpMs)}, FCP ${fmt.ms(value.fcpMs)}, ` +
          `TBT ${fmt.ms(value.tbtMs)}, CLS ${value.cls.toFixed(3)}, JS ${fmt.kb(value.jsTransferBytes)} sent ` +
          `(${value.jsFiles} files); LCP element ${value.lcpElement?.selector ?? '?'} ` +
          `(others used ${Math.round(noise.share * 100)}%)`,
      );
    }
  } finally {
    await server.stop();
  }
  const col = (k) => runs.map((r) => r[k]);
  const all = (k, f) => `runs: ${col(k).map(f).join(' / ')}`;
  const busy = maxShare(noises);
  result.details.lighthouse = { chromium: executablePath, runs };
  const of = `median of ${reps}`;
  result.rows.push(
    {
      id: 'homeLcpMs',
      label: `Home page, ${SMALL.toLocaleString('en-US')} videos: Lighthouse LCP, mobile (${of})`,
      value: median(col('lcpMs')),
      display: fmt.ms(median(col('lcpMs'))),
      reference: all('lcpMs', fmt.ms),
      target: `<= ${fmt.ms(TARGET_LCP_MS)}`,
      pass: median(col('lcpMs')) <= TARGET_LCP_MS,
      othersCpuShare: busy,
    },
    {
      id: 'homeScore',
      label: `  Lighthouse performance score (${of})`,
      value: median(col('score')),
      display: String(median(col('score'))),
      reference: all('score', String),
      target: `>= ${TARGET_SCORE}`,
      pass: median(col('score')) >= TARGET_SCORE,
      othersCpuShare: busy,
    },
    {
      id: 'homeJsBytes',
      label: `  total JavaScript as sent (${runs[0].jsFiles} files; ${of})`,
      value: median(col('jsTransferBytes')),
      display: fmt.kb(median(col('jsTransferBytes'))),
      reference: `uncompressed ${fmt.kb(median(col('jsResourceBytes')))}; page total ${fmt.kb(median(col('totalBytes')))}`,
      othersCpuShare: busy,
    },
  );
  result.notes.push(
    `Lighthouse ${runs[0].lighthouseVersion}: FCP ${fmt.ms(median(col('fcpMs')))}, TBT ${fmt.ms(median(col('tbtMs')))}, ` +
      `CLS ${median(col('cls')).toFixed(3)}, Speed Index ${fmt.ms(median(col('speedIndexMs')))} (medians); LCP element: ` +
      `${runs.at(-1).lcpElement?.selector ?? 'unknown'}`,
  );
}
