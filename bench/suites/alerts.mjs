// A capper with 100,000 followers posts a pick: how long until every follower's in-app alert is written
// (the fan-out is one set-based insert, so the last follower's alert appearing means all are) and every
// e-mail is queued (the outbox's newest id, read by an admin), the cached GET /api/videos p99 meanwhile
// against the same load alone, and how fast the e-mails then reach a local SMTP sink. Each on the embedded
// database (PGlite) and on PostgreSQL.
//
// The capper and one watching follower register through the API; the other followers are written straight
// into users and follows by SQL, each with a confirmed address (their alerts are what is measured, not their
// sign-ups). The post is a real multipart POST /api/videos with one leg, as the upload form sends it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { request } from '../lib/http.mjs';
import { findLoadTool, runLoad } from '../lib/load.mjs';
import { timedWindow } from '../lib/noise.mjs';
import { scratchPostgres } from '../lib/postgres.mjs';
import { runBounded } from '../lib/procs.mjs';
import { suiteParts } from '../lib/report.mjs';
import { seedDemo } from '../lib/seed.mjs';
import { ensureBuilt, root, startServer } from '../lib/server.mjs';
import { fmt, sleep, tempDir } from '../lib/util.mjs';
import { postFields, registerCappers, startsAtOf } from './pick-log/posts.mjs';

// --quick: 10,000 followers (figures not comparable); BENCH_ALERTS_FOLLOWERS overrides either.
let FOLLOWERS = 100_000;
const TARGET_MS = { postgres: 5_000, pglite: 20_000 };
const TARGET_STALL_RATIO = 2;
const TARGET_MAILS_PER_SECOND = 500;
/** How long the SMTP rate is watched at most: 100,000 mails at the target take 200 s. */
const MAIL_WINDOW_MS = 300_000;
const ADMIN = { username: 'benchadmin', password: 'bench-admin-password-1' };
const PG_DATABASE = 'pickreel_bench_alerts';
const distServer = path.join(root, 'dist/node/server');

// Runs in a child process with the server's own database code (as seed:demo does), server stopped.
const FILL_SCRIPT = `
const { loadConfig } = await import(process.env.BENCH_CONFIG_URL);
const { openConfiguredDatabase } = await import(process.env.BENCH_CLIENT_URL);
const { capper, watcher, followers } = JSON.parse(process.env.BENCH_FILL);
const database = await openConfiguredDatabase(loadConfig());
const run = (text) => database.db.execute(text);
try {
  await run(\`insert into users (username, password_hash, username_key, username_skeleton, email, email_confirmed_at)
    select 'follower_' || g, 'x', 'follower_' || g, 'follower_' || g, 'follower_' || g || '@example.com', now()
    from generate_series(1, \${followers - 1}) g\`);
  // Every follow began a day ago: only follows older than the post are alerted.
  await run(\`insert into follows (follower_id, capper_id, created_at)
    select u.id, c.id, now() - interval '1 day'
    from users u cross join (select id from users where username = '\${capper}') c
    where u.username like 'follower\\\\_%' or u.username = '\${watcher}'\`);
  await run('vacuum analyze');
  const [counts] = (await run(\`select count(*)::int as follows from follows f join users c on c.id = f.capper_id
    where c.username = '\${capper}'\`)).rows;
  console.log('BENCH_FILL ' + JSON.stringify(counts));
} finally {
  await database.close();
}
`;

export default {
  description:
    'A capper with 100,000 followers posts a pick: in-app alerts written and e-mails queued, the cached list p99 meanwhile, e-mails to an SMTP sink (PGlite and PostgreSQL)',
  async run(ctx) {
    const { log, result } = ctx;
    FOLLOWERS = Number(process.env.BENCH_ALERTS_FOLLOWERS ?? (ctx.quick ? 10_000 : 100_000));
    const logs = tempDir('pickreel-bench-logs-');
    ctx.logFile = (name) => path.join(logs, `${name.replace(/\W+/g, '-')}.log`);
    ctx.build = await ensureBuilt(log);
    result.notes.push(...ctx.build.notes);
    ctx.tool = findLoadTool();
    if (!ctx.tool) throw new Error('this suite needs wrk (apt-get install wrk) or autocannon');
    result.details.size = { followers: FOLLOWERS };
    const { part, finish } = suiteParts(ctx);
    ctx.sink = await startSink();
    try {
      await eachDatabase(ctx, part);
    } finally {
      await ctx.sink.close();
    }
    finish();
  },
};

async function eachDatabase(ctx, part) {
  const { result } = ctx;
  for (const [kind, label] of [
    ['pglite', 'PGlite'],
    ['postgres', 'PostgreSQL'],
  ]) {
    if (process.env.BENCH_ALERTS_ONLY && process.env.BENCH_ALERTS_ONLY !== kind) continue;
    const db = { kind, label };
    result.details[kind] = db.details = {};
    await part(`${label}: followers seeded`, () => prepare(ctx, db));
    if (!db.ready) {
      await db.drop?.();
      continue;
    }
    try {
      await part(`${label}: a pick to ${FOLLOWERS.toLocaleString('en-US')} followers`, () =>
        fanOutPart(ctx, db),
      );
    } finally {
      await db.server?.stop();
      await db.drop?.();
    }
  }
}

/** A local SMTP server that takes every mail and counts it, with the times of the first and the last. */
async function startSink() {
  const sink = { count: 0, firstAt: null, lastAt: null };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        sink.count += 1;
        sink.lastAt = performance.now();
        sink.firstAt ??= sink.lastAt;
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.port = server.server.address().port;
  sink.reset = () => Object.assign(sink, { count: 0, firstAt: null, lastAt: null });
  sink.close = () => new Promise((resolve) => server.close(resolve));
  return sink;
}

const serverOptions = (ctx, db, name) => ({
  dataDir: db.dataDir,
  logFile: ctx.logFile(`${db.kind}-${name}`),
  env: {
    ...db.env,
    TRUST_PROXY: 'true',
    SMTP_URL: `smtp://127.0.0.1:${ctx.sink.port}`,
    PUBLIC_URL: 'http://127.0.0.1',
  },
  readyPath: '/api/health',
  deadlineMs: 120_000,
});

async function prepare(ctx, db) {
  const { log, result } = ctx;
  db.dataDir = tempDir(`pickreel-bench-alerts-${db.kind}-`);
  db.env = {};
  if (db.kind === 'postgres') {
    const scratch = await scratchPostgres(PG_DATABASE);
    if (scratch.error) {
      result.rows.push({ label: `${db.label}: every row`, display: 'skipped', skipped: true });
      result.notes.push(scratch.error);
      return;
    }
    db.env.DATABASE_URL = scratch.url;
    db.drop = scratch.drop;
  }
  const env = { ...db.env, DATA_DIR: db.dataDir };
  await seedDemo(log, env, 300); // a catalog for the cached-list load
  // The capper and the watching follower sign up through the API; their sessions outlive the restart.
  const first = await startServer(serverOptions(ctx, db, 'sign-up'));
  try {
    [db.capperCookie] = await registerCappers(first.url, 1, 'alertcapper');
    [db.watcherCookie] = await registerCappers(first.url, 1, 'alertwatcher');
  } finally {
    await first.stop();
  }
  const started = performance.now();
  const out = await runBounded(
    process.execPath,
    ['--liftoff-only', '--input-type=module', '-e', FILL_SCRIPT],
    {
      cwd: root,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        ...env,
        BENCH_CONFIG_URL: pathToFileURL(path.join(distServer, 'config.js')).href,
        BENCH_CLIENT_URL: pathToFileURL(path.join(distServer, 'db/client.js')).href,
        BENCH_FILL: JSON.stringify({
          capper: 'alertcapper01',
          watcher: 'alertwatcher01',
          followers: FOLLOWERS,
        }),
      },
      timeoutMs: 900_000,
    },
  );
  const line = /^BENCH_FILL (.*)$/m.exec(out.stdout);
  if (out.code !== 0 || !line) throw new Error(`filling the followers failed: ${out.stderr || out.stdout}`);
  db.fill = JSON.parse(line[1]);
  if (db.fill.follows !== FOLLOWERS)
    throw new Error(`the capper has ${db.fill.follows} followers, not ${FOLLOWERS}`);
  db.details.fill = { ...db.fill, seconds: (performance.now() - started) / 1000 };
  log(
    `${db.label}: ${db.fill.follows.toLocaleString('en-US')} followers in ${db.details.fill.seconds.toFixed(0)} s`,
  );
  const admin = await runBounded(
    process.execPath,
    [path.join(distServer, 'scripts/admin.js'), 'create', ADMIN.username, '--password', ADMIN.password],
    { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, timeoutMs: 120_000 },
  );
  if (admin.code !== 0) throw new Error(`creating the bench admin failed: ${admin.stderr || admin.stdout}`);
  db.server = await startServer(serverOptions(ctx, db, 'server'));
  const login = await request(`${db.server.url}/api/login`, {
    method: 'POST',
    body: ADMIN,
    headers: { 'x-forwarded-for': '198.51.100.9' },
  });
  if (login.status !== 200) throw new Error(`admin login answered ${login.status}: ${login.body}`);
  db.adminCookie = [login.headers['set-cookie'] ?? []]
    .flat()
    .find((c) => c.startsWith('pickreel_sid='))
    .split(';')[0];
  db.ready = true;
}

/** A multipart POST /api/videos of an external link with one leg, as the upload form sends it. */
async function postPick(url, cookie) {
  const boundary = `----pickreel-bench-alerts`;
  const fields = { ...postFields(1, startsAtOf()), title: 'Bench alert pick: Home 1 at Away 1' };
  const body = [
    ...Object.entries(fields).map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
    `--${boundary}--\r\n`,
  ].join('');
  const res = await request(`${url}/api/videos`, {
    method: 'POST',
    body,
    headers: {
      cookie,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'x-forwarded-for': '198.51.100.7',
    },
    timeoutMs: 60_000,
  });
  if (res.status !== 201) throw new Error(`POST /api/videos answered ${res.status}: ${res.body}`);
  return JSON.parse(res.body.toString());
}

/** Polls the watcher's alerts every 20 ms until the new pick's is there; the time it first was. */
async function alertSeen(url, cookie, videoId, deadlineMs) {
  const end = performance.now() + deadlineMs;
  while (performance.now() < end) {
    const res = await request(`${url}/api/notifications`, {
      headers: { cookie, 'x-forwarded-for': '198.51.100.8' },
      timeoutMs: 30_000,
    });
    if (res.status !== 200) throw new Error(`GET /api/notifications answered ${res.status}: ${res.body}`);
    const page = JSON.parse(res.body.toString());
    if (page.items.some((item) => item.url === `/video/${videoId}`)) return performance.now();
    await sleep(20);
  }
  throw new Error(`no alert of video ${videoId} after ${deadlineMs} ms`);
}

/** The outbox's newest mail id (0 when empty), as the admin's Mail tab reads it. */
async function newestMailId(url, cookie) {
  const res = await request(`${url}/api/admin/mail?limit=1`, {
    headers: { cookie, 'x-forwarded-for': '198.51.100.9' },
    timeoutMs: 30_000,
  });
  if (res.status !== 200) throw new Error(`GET /api/admin/mail answered ${res.status}: ${res.body}`);
  return JSON.parse(res.body.toString()).mails[0]?.id ?? 0;
}

/** Polls until the outbox holds `count` mails after `afterId`; the time it first did. */
async function mailsQueued(url, cookie, afterId, count, deadlineMs) {
  const end = performance.now() + deadlineMs;
  while (performance.now() < end) {
    if ((await newestMailId(url, cookie)) - afterId >= count) return performance.now();
    await sleep(50);
  }
  throw new Error(`fewer than ${count} mails were queued after ${deadlineMs} ms`);
}

/** Watches the sink until every mail arrived or the window ends: mails a second from the first to the last. */
async function mailRate(sink, count) {
  const end = performance.now() + MAIL_WINDOW_MS;
  let last = -1;
  let still = 0;
  while (performance.now() < end && sink.count < count) {
    still = sink.count === last ? still + 1 : 0;
    last = sink.count;
    if (still >= 60) break; // a minute without a mail: delivery has stopped
    await sleep(1000);
  }
  const seconds = sink.firstAt === null ? NaN : (sink.lastAt - sink.firstAt) / 1000;
  return { delivered: sink.count, seconds, perSecond: sink.count > 1 ? (sink.count - 1) / seconds : 0 };
}

async function fanOutPart(ctx, db) {
  const { result, quick, tool } = ctx;
  const url = db.server.url;
  const settings = { connections: 50, threads: 2, seconds: quick ? 6 : 15 };
  await runLoad(tool, `${url}/api/videos`, { ...settings, seconds: 2 });
  const { value: alone } = await timedWindow(ctx, () => runLoad(tool, `${url}/api/videos`, settings));
  const mailsBefore = await newestMailId(url, db.adminCookie);
  ctx.sink.reset();
  const { value: measured, noise } = await timedWindow(ctx, async () => {
    const beside = runLoad(tool, `${url}/api/videos`, settings);
    await sleep(2_000);
    const started = performance.now();
    const video = await postPick(url, db.capperCookie);
    const postedMs = performance.now() - started;
    const [seenAt, queuedAt] = await Promise.all([
      alertSeen(url, db.watcherCookie, video.id, 120_000),
      // Every follower but the watcher (registered without an address) has a confirmed one.
      mailsQueued(url, db.adminCookie, mailsBefore, FOLLOWERS - 1, 300_000),
    ]);
    return { postedMs, fanOutMs: seenAt - started, queuedMs: queuedAt - started, during: await beside };
  });
  const { postedMs, fanOutMs, queuedMs, during } = measured;
  const mail = await mailRate(ctx.sink, FOLLOWERS - 1);
  db.details.fanOut = { postedMs, fanOutMs, queuedMs, alone, during, mail, othersCpuShare: noise.share };
  ctx.log(
    `${db.label}: ${FOLLOWERS} alerts written ${fmt.ms(fanOutMs)} and e-mails queued ${fmt.ms(queuedMs)} after the post began (POST ${fmt.ms(postedMs)}); cached list p99 ${fmt.ms(during.p99Ms)} (alone ${fmt.ms(alone.p99Ms)}); ${mail.delivered} mails delivered at ${mail.perSecond.toFixed(0)}/s`,
  );
  const ratio = during.p99Ms / alone.p99Ms;
  result.rows.push(
    {
      id: `${db.kind}FanOutMs`,
      label: `${db.label}: a pick posted to ${FOLLOWERS.toLocaleString('en-US')} followers: last in-app alert written`,
      value: fanOutMs,
      display: `${fmt.ms(fanOutMs)} (POST answered in ${fmt.ms(postedMs)})`,
      target: `<= ${fmt.ms(TARGET_MS[db.kind])}`,
      pass: fanOutMs <= TARGET_MS[db.kind],
      othersCpuShare: noise.share,
    },
    {
      id: `${db.kind}MailsQueuedMs`,
      label: '  and every e-mail queued (the outbox)',
      value: queuedMs,
      display: fmt.ms(queuedMs),
      target: `<= ${fmt.ms(TARGET_MS[db.kind])}`,
      pass: queuedMs <= TARGET_MS[db.kind],
      othersCpuShare: noise.share,
    },
    {
      id: `${db.kind}FanOutStallRatio`,
      label: '  cached GET /api/videos meanwhile, 50 conns: p99',
      value: during.p99Ms,
      display: `${fmt.ms(during.p99Ms)} (x${ratio.toFixed(2)} of alone)`,
      reference: `alone ${fmt.ms(alone.p99Ms)}`,
      target: `<= ${TARGET_STALL_RATIO}x alone`,
      pass: ratio <= TARGET_STALL_RATIO,
    },
    {
      id: `${db.kind}MailsPerSecond`,
      label: `${db.label}: the alert e-mails to a local SMTP sink (smtp-server): rate`,
      value: mail.perSecond,
      display: `${mail.perSecond.toFixed(0)} mails/s (${mail.delivered.toLocaleString('en-US')} in ${mail.seconds.toFixed(1)} s)`,
      target: `>= ${TARGET_MAILS_PER_SECOND}/s`,
      pass: mail.perSecond >= TARGET_MAILS_PER_SECOND,
    },
  );
}
