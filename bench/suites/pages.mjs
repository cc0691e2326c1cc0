// The browser's own checks: Lighthouse's four categories (performance, accessibility, best
// practices, SEO) and CLS on every page a newcomer sees first: `/`, `/videos`, `/video/{id}`,
// `/leaderboard`, a capper's page, `/auth` signed out, `/dashboard` signed in and a buyer's receipt. Mobile
// preset (Lighthouse's defaults), median of 3 runs per page.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { chromiumPath } from '../lib/chromium.mjs';
import { request } from '../lib/http.mjs';
import { lighthouseOnce } from '../lib/lighthouse.mjs';
import { timedWindow } from '../lib/noise.mjs';
import { seedDemo } from '../lib/seed.mjs';
import { IMAGE_HOSTS, standInFlags, startImageStandIn } from '../lib/stand-ins.mjs';
import { ensureBuilt, startServer } from '../lib/server.mjs';
import { suiteParts } from '../lib/report.mjs';
import { fmt, median, tempDir } from '../lib/util.mjs';

const RUNS = 3;
const VIDEOS = 1_000;
const TARGET = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 };
const TARGET_CLS = 0.02;
// The seed's demo capper: videos, sales and purchases of others, so the dashboard shows every section.
const DASHBOARD_USER = { username: 'sharpshooter', password: 'demo-password' };
// A demo bettor: the seed gives them purchases, so a receipt to open.
const BUYER = { username: 'bettor_bob', password: 'demo-password' };
const SHORT = { performance: 'perf', accessibility: 'a11y', 'best-practices': 'BP', seo: 'SEO' };

export default {
  description:
    'Lighthouse (4 categories and CLS, mobile, median of 3) on /, /videos, /video/{id}, /leaderboard, /cappers/{name}, /auth, signed-in /dashboard and a receipt',
  async run(ctx) {
    const { log, result } = ctx;
    const logs = tempDir('pickreel-bench-logs-');
    ctx.logFile = (name) => path.join(logs, `${name.replace(/\W+/g, '-')}.log`);
    ctx.build = await ensureBuilt(log);
    result.details.build = ctx.build;
    result.notes.push(...ctx.build.notes);
    if (!ctx.build.serverBuilt || !ctx.build.clientBuilt)
      throw new Error('no build (dist/node/server/main.js and dist/client/index.html): nothing to measure');
    const { part, finish } = suiteParts(ctx);
    await part('Pages under Lighthouse', () => pages(ctx));
    finish();
  },
};

async function pages(ctx) {
  const { log, result, quick } = ctx;
  const env = { DATA_DIR: tempDir('pickreel-bench-pages-') };
  result.details.seed = await seedDemo(log, env, VIDEOS);
  const executablePath = await chromiumPath();
  // YouTube's thumbnails of the link videos come from a local stand-in serving one of the seed's JPEGs.
  const videosDir = path.join(env.DATA_DIR, 'media', 'videos');
  const someThumb = readdirSync(videosDir).map((id) => path.join(videosDir, id, 'thumb.jpg'))[0];
  const standIn = await startImageStandIn(someThumb);
  const chromiumFlags = standInFlags(standIn.port);
  const server = await startServer({ dataDir: env.DATA_DIR, logFile: ctx.logFile('pages'), env });
  const runs = {};
  let targets;
  try {
    targets = await pageList(server.url);
    const reps = quick ? 1 : RUNS;
    // Round by round (every page once, then again), so a noisy minute does not land on one page only.
    for (let i = 1; i <= reps; i++) {
      for (const target of targets) {
        const { value, noise } = await timedWindow(ctx, () =>
          lighthouseOnce(server.url + target.path, {
            executablePath,
            extraHeaders: target.headers,
            chromiumFlags,
          }),
        );
        value.othersCpuShare = noise.share;
        (runs[target.label] ??= []).push(value);
        const s = value.scores;
        log(
          `${target.label} ${i}/${reps}: ${Object.keys(TARGET)
            .map((c) => `${SHORT[c]} ${s[c]}`)
            .join(
              ', ',
            )}, CLS ${value.cls?.toFixed(3)}, LCP ${fmt.ms(value.lcpMs)}, TBT ${fmt.ms(value.tbtMs)}` +
            ` (others used ${Math.round(noise.share * 100)}%)` +
            failingText(value.failing),
        );
        for (const error of value.consoleErrors) log(`  console: ${error}`);
        if (value.finalUrl !== server.url + target.path)
          throw new Error(`${target.label} ended at ${value.finalUrl} (a redirect: signed out?)`);
      }
    }
  } finally {
    await server.stop();
    await standIn.stop();
  }
  result.details.pages = { chromium: executablePath, targets, runs };
  const of = `median of ${runs[targets[0].label].length}`;
  for (const target of targets) {
    const pageRuns = runs[target.label];
    const scores = Object.fromEntries(
      Object.keys(TARGET).map((c) => [c, median(pageRuns.map((r) => r.scores[c]))]),
    );
    const cls = median(pageRuns.map((r) => r.cls));
    const busy = Math.max(...pageRuns.map((r) => r.othersCpuShare).filter(Number.isFinite));
    const scoresPass = Object.entries(TARGET).every(([c, t]) => scores[c] >= t);
    result.rows.push(
      {
        id: `scores:${target.label}`,
        label: `${target.label}: perf / a11y / BP / SEO (${of})`,
        value: scores,
        display: Object.keys(TARGET)
          .map((c) => String(scores[c]))
          .join(' / '),
        reference: `runs: ${pageRuns
          .map((r) =>
            Object.keys(TARGET)
              .map((c) => r.scores[c])
              .join('/'),
          )
          .join(', ')}`,
        target: `>= ${Object.values(TARGET).join(' / ')}`,
        pass: scoresPass,
        othersCpuShare: busy,
      },
      {
        id: `cls:${target.label}`,
        label: `  CLS; LCP`,
        value: cls,
        display: `${cls.toFixed(3)}; ${fmt.ms(median(pageRuns.map((r) => r.lcpMs)))}`,
        reference: `CLS runs: ${pageRuns.map((r) => r.cls.toFixed(3)).join(' / ')}`,
        target: `CLS <= ${TARGET_CLS}`,
        pass: cls <= TARGET_CLS,
        othersCpuShare: busy,
      },
    );
    // Every audit that failed in any run, so a missed 100 says why.
    const failed = new Map();
    for (const r of pageRuns)
      for (const [category, audits] of Object.entries(r.failing))
        for (const a of audits) failed.set(`${SHORT[category]}: ${a.id}`, a.displayValue);
    if (failed.size)
      result.notes.push(
        `${target.label} audits not passed: ${[...failed].map(([k, v]) => (v ? `${k} (${v})` : k)).join(', ')}`,
      );
  }
  const first = runs[targets[0].label][0];
  result.notes.push(
    `Lighthouse ${first.lighthouseVersion}, mobile preset (simulated throttling), ${VIDEOS.toLocaleString('en-US')} videos (seed:demo); ` +
      `/video/{id}: ${targets.find((t) => t.label.startsWith('/video/'))?.path}; /dashboard as ${DASHBOARD_USER.username}; ` +
      `${IMAGE_HOSTS.join(', ')} served by a local HTTPS stand-in (one of the seed's JPEGs)`,
  );
}

const failingText = (failing) => {
  const ids = Object.entries(failing).flatMap(([c, audits]) => audits.map((a) => `${SHORT[c]}:${a.id}`));
  return ids.length ? `; not passed: ${ids.join(', ')}` : '';
};

/** A session cookie (`name=value`) for a demo account. */
async function signIn(url, account) {
  const login = await request(`${url}/api/login`, { method: 'POST', body: account });
  if (login.status !== 200) throw new Error(`POST /api/login answered ${login.status}: ${login.body}`);
  const setCookie = [login.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('pickreel_sid='));
  if (!setCookie) throw new Error('POST /api/login sent no pickreel_sid cookie');
  return setCookie.split(';')[0];
}

/** The pages, with the newest ready uploaded video and session cookies for the dashboard and a receipt. */
async function pageList(url) {
  const list = await request(`${url}/api/videos?limit=48`);
  if (list.status !== 200) throw new Error(`GET /api/videos answered ${list.status}`);
  const body = JSON.parse(list.body.toString());
  const videos = Array.isArray(body) ? body : body.videos;
  const video = videos.find((v) => !v.isExternalVideo && v.thumbnailUrl) ?? videos[0];
  if (!video) throw new Error('the seeded catalog lists no video');
  const capperCookie = await signIn(url, DASHBOARD_USER);
  // A receipt: the demo bettor's newest purchase, seen by that bettor.
  const buyer = await signIn(url, BUYER);
  const bought = await request(`${url}/api/user/purchases`, { headers: { Cookie: buyer } });
  if (bought.status !== 200) throw new Error(`GET /api/user/purchases answered ${bought.status}`);
  const purchase = [JSON.parse(bought.body.toString())].flat()[0];
  if (!purchase) throw new Error(`the demo bettor ${BUYER.username} has no purchase`);
  return [
    { label: '/', path: '/' },
    { label: '/videos', path: '/videos' },
    { label: '/video/{id}', path: `/video/${video.id}` },
    { label: '/leaderboard', path: '/leaderboard' },
    // A capper's storefront: the seeded capper of the video above, else the demo capper.
    {
      label: '/cappers/{name}',
      path: `/cappers/${encodeURIComponent(video.capper?.username ?? DASHBOARD_USER.username)}`,
    },
    { label: '/auth', path: '/auth' },
    { label: '/dashboard (signed in)', path: '/dashboard', headers: { Cookie: capperCookie } },
    { label: '/purchases/{id} (receipt)', path: `/purchases/${purchase.id}`, headers: { Cookie: buyer } },
  ];
}
