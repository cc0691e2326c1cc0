// Purchases per second end to end on the sandbox provider (create intent ->
// confirm with the test card, as the browser's card form does -> payment-complete) at 20 concurrent buyers,
// and the dashboard's data (/api/user/videos, /api/user/purchases, /api/user/sales) for a capper with
// 1,000 sales. Both on the embedded database (PGlite, the default) and on a PostgreSQL server.
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from '../lib/http.mjs';
import { findLoadTool, runLoad } from '../lib/load.mjs';
import { timedWindow } from '../lib/noise.mjs';
import { PG_ADMIN_URL } from '../lib/postgres.mjs';
import { ensureBuilt, root, startServer } from '../lib/server.mjs';
import { suiteParts } from '../lib/report.mjs';
import { fmt, tempDir } from '../lib/util.mjs';

const BUYERS = 20;
const TARGET_DASHBOARD_P99_MS = 20;
const PASSWORD = 'bench-password-123';
// The bench's own database on the shared server; CI uses `test`, which is never touched here.
const PG_BENCH_DB = 'pickreel_bench_money';
const PG_BENCH_URL = `postgres://postgres@127.0.0.1:5432/${PG_BENCH_DB}`;
// Stripe's succeeding test card, sent as the sandbox card form sends it (digits only, 4-digit year).
const TEST_CARD = {
  number: '4242424242424242',
  expMonth: 12,
  expYear: new Date().getFullYear() + 3,
  cvc: '123',
};
// Dashboard data set: the capper's 100 videos, 10 buyers who bought every one of them (1,000 sales), the
// capper's own 100 purchases from other cappers, and a collector with 1,000 purchases (GET /api/user/purchases
// returns up to 1,000 entries: its worst case).
const CAPPER_VIDEOS = 100;
const CAPPER_BUYERS = 10; // x 100 videos = 1,000 sales
const OTHER_SELLERS = 10;
const OTHER_SELLER_VIDEOS = 100; // x 10 sellers = the collector's 1,000 purchases
const CAPPER_PURCHASES = 100; // the first 100 of those, bought by the capper too
// Everyone else on the platform: 100 buyers with 500 purchases each, so that the tables hold 50,000 other
// sales and purchases and a query without the right index shows.
const OTHER_BUYERS = 100;
const OTHER_BUYER_PURCHASES = 500;

/** One client's own kept-alive connection (a browser tab), its address, its cookie. */
function client(base, ip) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let cookie = '';
  const send = (method, urlPath, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = http.request(
        `${base}${urlPath}`,
        {
          method,
          agent,
          headers: {
            'x-forwarded-for': ip,
            'sec-fetch-site': 'same-origin',
            ...(cookie ? { cookie } : {}),
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            const setCookie = [res.headers['set-cookie'] ?? []]
              .flat()
              .find((c) => c.startsWith('pickreel_sid='));
            if (setCookie) cookie = setCookie.split(';')[0];
            resolve({ status: res.statusCode, text });
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${method} ${urlPath}`)));
      req.on('error', reject);
      req.end(payload);
    });
  return {
    send,
    get cookie() {
      return cookie;
    },
    close: () => agent.destroy(),
  };
}

function expectOk(res, what) {
  if (res.status < 200 || res.status > 299)
    throw Object.assign(new Error(`${what} answered ${res.status}: ${res.text.slice(0, 200)}`), {
      status: res.status,
    });
  return JSON.parse(res.text);
}

function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The database a row runs on: a fresh embedded one under a new DATA_DIR, or the bench's own on the server. */
export async function freshDatabase(kind, dist) {
  const { openDatabase } = await import(dist('db/client.js'));
  if (kind === 'pglite') {
    const dataDir = tempDir('pickreel-bench-money-');
    return {
      dataDir,
      env: {},
      open: () => openDatabase({ dataDir: path.join(dataDir, 'db') }),
      drop: async () => {},
    };
  }
  const { default: pg } = await import('pg');
  const admin = async (statement) => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await admin(`drop database if exists ${PG_BENCH_DB} with (force)`);
  await admin(`create database ${PG_BENCH_DB}`);
  return {
    dataDir: tempDir('pickreel-bench-money-'), // session secret, media: the server still wants a DATA_DIR
    env: { DATABASE_URL: PG_BENCH_URL },
    open: () => openDatabase({ databaseUrl: PG_BENCH_URL, poolSize: 2 }),
    drop: () => admin(`drop database if exists ${PG_BENCH_DB} with (force)`),
  };
}

/** Migrates, runs the seed statements, refreshes the planner's statistics. */
export async function seed(database, statements) {
  const opened = await database.open();
  try {
    await opened.migrate();
    for (const statement of statements) await opened.exec(statement);
    await opened.exec('analyze');
  } finally {
    await opened.close();
  }
}

const quote = (text) => `'${text.replace(/'/g, "''")}'`;

/** Ready videos as uploads and links leave them: every third an external link, the rest with media URLs. */
function videosSql(ownerCondition, perOwner, titlePrefix) {
  const media = (file) =>
    `case when g % 3 = 0 then null else '/media/videos/bench-' || u.id || '-' || g || '/${file}' end`;
  return `
    insert into videos (user_id, title, description, email_information, price_cents, category,
                        thumbnail_url, video_url, hls_url, original_file_key, original_file_name,
                        transcoding_status, transcoding_progress, is_transcoded, available_formats,
                        is_external_video, external_video_url, is_premium, duration, views, created_at)
    select u.id, ${quote(titlePrefix)} || u.id || ' #' || g, 'Bench video ' || g || ': line, injuries and the number.',
           'Selection ' || g || ': Home -3.5 (2 units)', 99 + (g % 50) * 100, 'NBA',
           ${media('thumbnail.jpg')}, ${media('video.mp4')}, ${media('hls/index.m3u8')},
           case when g % 3 = 0 then null else 'videos/bench-' || u.id || '-' || g || '/original.mov' end,
           case when g % 3 = 0 then null else 'pick.mov' end,
           'ready', 100, true,
           case when g % 3 = 0 then '{}'::text[] else array['mp4', 'hls'] end,
           g % 3 = 0, case when g % 3 = 0 then 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' end,
           true, case when g % 3 = 0 then null else 30 + g % 200 end, g % 1000,
           now() - (g || ' minutes')::interval
    from users u cross join generate_series(1, ${perOwner}) as g
    where ${ownerCondition}`;
}

async function startOn(database, logFile) {
  return startServer({
    dataDir: database.dataDir,
    logFile,
    // Every buyer presents its own address, as the browser tests do: the sign-up limit is per visitor.
    env: {
      TRUST_PROXY: 'true',
      ...database.env,
    },
    readyPath: '/api/health',
  });
}

/** Row 1: 20 buyers, each signs up, then buys one video after another until the window closes. */
async function purchases(ctx, kind, label) {
  const { quick, waitQuiet, log, result, dist } = ctx;
  const warmupMs = quick ? 1000 : 2000;
  const windowMs = quick ? 3000 : 10_000;
  const videoCount = quick ? 1000 : 3000;
  const database = await freshDatabase(kind, dist);
  await seed(database, [
    `insert into users (username, password_hash) values ('bench_capper', 'seeded: never signs in')`,
    videosSql(`u.username = 'bench_capper'`, videoCount, 'Bench pick '),
  ]);
  const server = await startOn(database, ctx.logFile(`purchases-${kind}`));
  const buyers = [];
  try {
    // A fresh database: the seeded videos are ids 1..videoCount (checked at both ends).
    const first = 1;
    for (const id of [first, videoCount]) {
      const res = await request(`${server.url}/api/videos/${id}`, {
        headers: { 'x-forwarded-for': '10.5.0.1' },
      });
      if (res.status !== 200)
        throw new Error(`seeded video ${id}: GET /api/videos/${id} answered ${res.status}`);
    }
    for (let i = 0; i < BUYERS; i++) buyers.push(client(server.url, `10.5.1.${i + 1}`));
    await Promise.all(
      buyers.map(async (buyer, i) =>
        expectOk(
          await buyer.send('POST', '/api/register', { username: `bench_buyer_${i}`, password: PASSWORD }),
          'POST /api/register',
        ),
      ),
    );

    const samples = [];
    const errors = [];
    let exhausted = 0;
    const buyOne = async (buyer, videoId) => {
      const t0 = performance.now();
      const intent = expectOk(
        await buyer.send('POST', '/api/create-payment-intent', { videoId }),
        'POST /api/create-payment-intent',
      );
      const t1 = performance.now();
      const confirmed = expectOk(
        await buyer.send('POST', '/api/payments/sandbox/confirm', {
          clientSecret: intent.clientSecret,
          card: TEST_CARD,
        }),
        'POST /api/payments/sandbox/confirm',
      );
      if (confirmed.status !== 'succeeded')
        throw new Error(`sandbox confirm: ${confirmed.status} ${confirmed.error?.message ?? ''}`);
      const t2 = performance.now();
      const done = expectOk(
        await buyer.send('POST', '/api/payment-complete', {
          paymentIntentId: confirmed.paymentIntentId,
          videoId,
        }),
        'POST /api/payment-complete',
      );
      if (!done.purchased) throw new Error(`payment-complete: ${JSON.stringify(done)}`);
      return { t0, t1, t2, t3: performance.now() };
    };

    const run = await timedWindow({ waitQuiet, log }, async () => {
      const start = performance.now();
      const measureFrom = start + warmupMs;
      const stopAt = measureFrom + windowMs;
      await Promise.all(
        buyers.map(async (buyer, i) => {
          // Each buyer walks the catalog from its own starting point: a different video every time.
          const offset = Math.floor((i * videoCount) / BUYERS);
          for (let k = 0; k < videoCount && performance.now() < stopAt; k++) {
            const videoId = first + ((offset + k) % videoCount);
            try {
              samples.push(await buyOne(buyer, videoId));
            } catch (error) {
              errors.push(error.message);
              if (errors.length > 50) return;
            }
            if (k === videoCount - 1) exhausted += 1;
          }
        }),
      );
      return { measureFrom, stopAt };
    });
    const inWindow = samples.filter((s) => s.t3 >= run.value.measureFrom && s.t3 <= run.value.stopAt);
    const total = inWindow.map((s) => s.t3 - s.t0);
    const rate = inWindow.length / (windowMs / 1000);
    const step = (a, b) => {
      const d = inWindow.map((s) => s[b] - s[a]);
      return { p50Ms: percentile(d, 50), p99Ms: percentile(d, 99) };
    };
    const figures = {
      buyers: BUYERS,
      warmupMs,
      windowMs,
      purchases: inWindow.length,
      purchasesPerSecond: rate,
      p50Ms: percentile(total, 50),
      p99Ms: percentile(total, 99),
      maxMs: Math.max(...total),
      steps: {
        createIntent: step('t0', 't1'),
        confirm: step('t1', 't2'),
        paymentComplete: step('t2', 't3'),
      },
      errors: errors.length,
      firstErrors: [...new Set(errors)].slice(0, 5),
      exhaustedBuyers: exhausted,
      noise: run.noise,
    };
    result.details[`purchases_${kind}`] = figures;
    log(
      `${label}: ${rate.toFixed(1)} purchases/s (${inWindow.length} in ${windowMs / 1000} s), p50 ${fmt.ms(figures.p50Ms)}, ` +
        `p99 ${fmt.ms(figures.p99Ms)}; steps p50 intent ${fmt.ms(figures.steps.createIntent.p50Ms)}, ` +
        `confirm ${fmt.ms(figures.steps.confirm.p50Ms)}, complete ${fmt.ms(figures.steps.paymentComplete.p50Ms)}; ` +
        `${errors.length} errors; others used ${Math.round(run.noise.share * 100)}% of the machine`,
    );
    if (exhausted)
      result.notes.push(`${label}: ${exhausted} buyers ran out of videos before the window closed`);
    if (errors.length)
      throw new Error(
        `${errors.length} failed purchases (non-2xx or refused):\n${figures.firstErrors.join('\n')}`,
      );
    result.rows.push(
      {
        id: `purchasesPerSecond_${kind}`,
        label: `Purchases/s end to end, sandbox provider, ${BUYERS} buyers, ${label}`,
        value: rate,
        display: `${rate.toFixed(1)}/s`,
        reference: `${inWindow.length} purchases in ${windowMs / 1000} s, 0 errors`,
        othersCpuShare: run.noise.share,
      },
      {
        id: `purchaseP99_${kind}`,
        label: `  one purchase (3 requests): p50 / p99, ${label}`,
        value: figures.p99Ms,
        display: `${fmt.ms(figures.p50Ms)} / ${fmt.ms(figures.p99Ms)}`,
        reference: `intent ${fmt.ms(figures.steps.createIntent.p99Ms)}, confirm ${fmt.ms(figures.steps.confirm.p99Ms)}, complete ${fmt.ms(figures.steps.paymentComplete.p99Ms)} (p99)`,
        othersCpuShare: run.noise.share,
      },
    );
  } finally {
    for (const buyer of buyers) buyer.close();
    await server.stop();
    await database.drop();
  }
}

/** The dashboard data set as the real flow leaves it: users, videos, succeeded intents, purchases, sales. */
export async function dashboardSeed(dist) {
  const { hashPassword } = await import(dist('features/auth/passwords.js'));
  const hash = quote(await hashPassword(PASSWORD));
  const intentId = `'pi_sandbox_seed_' || b.id || '_' || v.id`;
  return [
    `insert into users (username, password_hash) values ('bench_capper', ${hash}), ('bench_collector', ${hash})`,
    `insert into users (username, password_hash)
       select 'bench_buyer_' || g, ${hash} from generate_series(1, ${CAPPER_BUYERS}) as g
       union all select 'bench_seller_' || g, ${hash} from generate_series(1, ${OTHER_SELLERS}) as g
       union all select 'bench_other_' || g, 'seeded: never signs in' from generate_series(1, ${OTHER_BUYERS}) as g`,
    videosSql(`u.username = 'bench_capper'`, CAPPER_VIDEOS, 'Capper pick '),
    videosSql(`u.username like 'bench_seller_%'`, OTHER_SELLER_VIDEOS, 'Seller pick '),
    // What the sandbox flow leaves behind: a succeeded intent, the purchase, the sale, at the same moment.
    `insert into payment_intents (id, provider, client_secret, video_id, buyer_id, amount_cents, currency, status,
                                  created_at, updated_at)
       select ${intentId}, 'sandbox', ${intentId} || '_secret_seed', v.id, b.id, v.price_cents, 'usd', 'succeeded',
              now() - ((b.id * 7919 + v.id * 104729) % (60 * 24 * 90) || ' minutes')::interval,
              now() - ((b.id * 7919 + v.id * 104729) % (60 * 24 * 90) || ' minutes')::interval
       from users b join videos v on true join users s on s.id = v.user_id
       where (b.username like 'bench_buyer_%' and s.username = 'bench_capper')
          or (b.username = 'bench_collector' and s.username like 'bench_seller_%')
          or (b.username = 'bench_capper' and s.username = 'bench_seller_1' and v.id in (
                select id from videos where user_id = s.id order by id limit ${CAPPER_PURCHASES}))
          or (b.username like 'bench_other_%' and s.username like 'bench_seller_%'
              and (v.id + b.id) % ${(OTHER_SELLERS * OTHER_SELLER_VIDEOS) / OTHER_BUYER_PURCHASES} = 0)`,
    `insert into purchases (user_id, video_id, video_title, selections_snapshot, amount_cents, payment_intent_id,
                            created_at)
       select pi.buyer_id, pi.video_id, v.title, v.email_information, pi.amount_cents, pi.id, pi.updated_at
       from payment_intents pi join videos v on v.id = pi.video_id order by pi.updated_at, pi.id`,
    `insert into sales (seller_id, video_id, purchase_id, buyer_id, amount_cents, created_at)
       select v.user_id, p.video_id, p.id, p.user_id, p.amount_cents, p.created_at
       from purchases p join videos v on v.id = p.video_id order by p.id`,
  ];
}

/**
 * Rows 2-5: the capper with 1,000 sales opening the dashboard (its three calls), then a collector with 1,000
 * purchases. Judged one request at a time (wrk -c1: what one user waits for); -c10 beside it for load.
 */
async function dashboard(ctx, kind, label, tool) {
  const { quick, waitQuiet, log, result, dist } = ctx;
  const seconds = quick ? 3 : 10;
  const database = await freshDatabase(kind, dist);
  await seed(database, await dashboardSeed(dist));
  const server = await startOn(database, ctx.logFile(`dashboard-${kind}`));
  const capper = client(server.url, '10.6.0.1');
  const collector = client(server.url, '10.6.0.2');
  try {
    expectOk(
      await capper.send('POST', '/api/login', { username: 'bench_capper', password: PASSWORD }),
      'login',
    );
    expectOk(
      await collector.send('POST', '/api/login', { username: 'bench_collector', password: PASSWORD }),
      'login',
    );
    const endpoints = [
      { path: '/api/user/videos', who: capper, ip: '10.6.0.1', whoLabel: 'capper', expect: CAPPER_VIDEOS },
      {
        path: '/api/user/sales',
        who: capper,
        ip: '10.6.0.1',
        whoLabel: 'capper',
        expect: CAPPER_VIDEOS * CAPPER_BUYERS,
      },
      {
        path: '/api/user/purchases',
        who: capper,
        ip: '10.6.0.1',
        whoLabel: 'capper',
        expect: CAPPER_PURCHASES,
      },
      {
        path: '/api/user/purchases',
        who: collector,
        ip: '10.6.0.2',
        whoLabel: 'collector',
        expect: OTHER_SELLERS * OTHER_SELLER_VIDEOS,
        extra: true,
      },
    ];
    for (const e of endpoints) {
      const res = await e.who.send('GET', e.path);
      const body = expectOk(res, `GET ${e.path}`);
      if (body.length !== e.expect)
        throw new Error(`GET ${e.path} returned ${body.length} entries, not ${e.expect}`);
      const bytes = Buffer.byteLength(res.text);
      const headers = { Cookie: e.who.cookie, 'X-Forwarded-For': e.ip };
      const url = `${server.url}${e.path}`;
      const load = async (connections) => {
        await runLoad(tool, url, { connections, threads: 1, seconds: quick ? 1 : 2, headers }); // warm-up
        const { value: figures, noise } = await timedWindow({ waitQuiet, log }, () =>
          runLoad(tool, url, { connections, threads: 1, seconds, headers }),
        );
        if (figures.non2xx || figures.socketErrors)
          throw new Error(
            `GET ${e.path}: ${figures.non2xx} non-2xx responses, ${figures.socketErrors} socket errors\n${figures.raw}`,
          );
        return { ...figures, raw: undefined, noise };
      };
      const one = await load(1);
      const ten = await load(10);
      log(
        `${label} GET ${e.path} (${e.whoLabel}, ${body.length} entries, ${fmt.kb(bytes)}): ` +
          `-c1 ${fmt.rps(one.rps)}, p50 ${fmt.ms(one.p50Ms)}, p99 ${fmt.ms(one.p99Ms)}; ` +
          `-c10 ${fmt.rps(ten.rps)}, p50 ${fmt.ms(ten.p50Ms)}, p99 ${fmt.ms(ten.p99Ms)}; ` +
          `others used ${Math.round(Math.max(one.noise.share, ten.noise.share) * 100)}%`,
      );
      const key = `${e.whoLabel}_${e.path.split('/').at(-1)}`;
      result.details[`dashboard_${kind}_${key}`] = { bytes, entries: body.length, c1: one, c10: ten };
      const judged = kind === 'postgres' && !e.extra;
      result.rows.push({
        id: `dashboardP99_${kind}_${key}`,
        label: `${e.extra ? '  extra: ' : ''}GET ${e.path} p99, ${e.whoLabel} (${body.length} entries, ${fmt.kb(bytes)}), ${label}`,
        value: one.p99Ms,
        display: fmt.ms(one.p99Ms),
        reference: `p50 ${fmt.ms(one.p50Ms)}; -c10: p99 ${fmt.ms(ten.p99Ms)}, ${fmt.rps(ten.rps)}`,
        target: judged ? `<= ${TARGET_DASHBOARD_P99_MS} ms` : undefined,
        pass: judged ? one.p99Ms <= TARGET_DASHBOARD_P99_MS : undefined,
        othersCpuShare: Math.max(one.noise.share, ten.noise.share),
      });
    }
  } finally {
    capper.close();
    collector.close();
    await server.stop();
    await database.drop();
  }
}

async function postgresReachable() {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

export default {
  description: `Purchases/s end to end at ${BUYERS} buyers (sandbox), dashboard data for a capper with 1,000 sales`,
  async run(ctx) {
    const { log, result } = ctx;
    const build = await ensureBuilt(log);
    result.notes.push(...build.notes);
    if (!build.serverBuilt) throw new Error('no server build (dist/node/server/main.js): nothing to measure');
    ctx.dist = (p) => pathToFileURL(path.join(root, 'dist/node/server', p)).href;
    const logs = tempDir('pickreel-bench-logs-');
    ctx.logFile = (name) => path.join(logs, `${name}.log`);
    const tool = findLoadTool();
    const databases = [['pglite', 'PGlite']];
    if (await postgresReachable()) databases.push(['postgres', 'PostgreSQL']);
    else result.notes.push(`no PostgreSQL at ${PG_ADMIN_URL}: the PostgreSQL rows are skipped`);
    if (!tool) result.notes.push('neither wrk nor autocannon found: the dashboard rows are skipped');

    const { part, finish } = suiteParts(ctx);
    // BENCH_MONEY_ONLY=dashboard:postgres (comma-separated part:database pairs) runs only those parts.
    const only = process.env.BENCH_MONEY_ONLY?.split(',');
    const wanted = (name, kind) => !only || only.includes(`${name}:${kind}`);
    for (const [kind, label] of databases) {
      if (wanted('purchases', kind)) await part(`Purchases, ${label}`, () => purchases(ctx, kind, label));
      if (tool && wanted('dashboard', kind))
        await part(`Dashboard data, ${label}`, () => dashboard(ctx, kind, label, tool));
    }
    finish();
  },
};
