// Several instances and object storage, on this one machine.
//  1. Two web instances behind nginx beside one instance: signed-out GET /api/videos and GET /api/videos/{id}
//     (1,000 videos on the PostgreSQL server), throughput ratio and errors. nginx runs the deployment's own
//     config (deploy/nginx-pickreel.conf.template) minus TLS and the per-client limits (wrk is one client).
//  2. A 1 GB tus upload into the bucket through the app beside a 1 GB PUT straight into the S3-compatible
//     server (target >= 0.5x).
//  3. Range streaming of that original through the app (/media/, the streaming proxy of decision 022) beside
//     the same ranges read straight from the store (target >= 0.8x).
// Parts 2 and 3 run against the tests' S3-compatible server (@20minutes/s3rver, tests/setup/s3-server.ts) in a
// process of its own, keeping objects on this machine's disk, a stand-in; and, when Debian's Ceph packages are
// installed, against a real S3 store: Ceph's RADOS Gateway on a one-node cluster (../lib/ceph-rgw.mjs).
import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from '../lib/http.mjs';
import { findLoadTool, runLoad } from '../lib/load.mjs';
import { findNginx } from '../lib/nginx.mjs';
import { groupCpuSeconds, timedWindow } from '../lib/noise.mjs';
import { scratchPostgres } from '../lib/postgres.mjs';
import { runBounded, spawnTracked } from '../lib/procs.mjs';
import { suiteParts } from '../lib/report.mjs';
import { ensureBuilt, root, signIn, startServer } from '../lib/server.mjs';
import { radosGatewayMissing, startRadosGateway } from '../lib/ceph-rgw.mjs';
import { presignedUrl } from '../lib/s3-presign.mjs';
import { makeLargeMov, MB, warm } from '../lib/upload.mjs';
import { fmt, freePort, median, tempDir } from '../lib/util.mjs';
import { writeWrkScript } from '../lib/wrk-script.mjs';

const VIDEOS = 1_000;
const BIG_BYTES = 1e9;
const RANGE_BYTES = 64 * 1024 * 1024; // a player or a resumed download asks for pieces; 16 of them per GB
const TARGET_UPLOAD = 0.5;
const TARGET_RANGE = 0.8;
const SECRET = 'bench-deploy-session-secret-0123456789abcdef';
const S3 = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', bucket: 'pickreel-bench' };
const STORE_NAMES = { s3rver: '@20minutes/s3rver', radosgw: 'Ceph RADOS Gateway' };

export default {
  description:
    '2 web instances behind nginx vs 1 (catalog, video), 1 GB upload into the bucket vs a PUT, Range via the app vs the store',
  async run(ctx) {
    const { log, result } = ctx;
    const build = await ensureBuilt(log);
    result.notes.push(...build.notes);
    if (!build.serverBuilt) throw new Error('no server build: nothing to measure');
    ctx.tool = findLoadTool();
    ctx.nginx = findNginx();
    ctx.logs = tempDir('pickreel-bench-deploy-');
    ctx.logFile = (name) => path.join(ctx.logs, `${name.replace(/\W+/g, '-')}.log`);
    ctx.timed = (fn) => timedWindow(ctx, fn);
    const { part, finish } = suiteParts(ctx);
    // BENCH_DEPLOY_ONLY=instances or =storage runs only that part (while developing).
    const only = process.env.BENCH_DEPLOY_ONLY;
    if (!only || only === 'instances') await part('Instances behind nginx', () => instances(ctx));
    // Two stores: the tests' s3rver (always), and Ceph's RADOS Gateway when Debian's Ceph packages are
    // installed (a real store: multipart uploads completed without copying the bytes). BENCH_DEPLOY_STORE=
    // s3rver or =radosgw runs one.
    const stores = process.env.BENCH_DEPLOY_STORE?.split(',') ?? [
      's3rver',
      ...(radosGatewayMissing() ? [] : ['radosgw']),
    ];
    if (!process.env.BENCH_DEPLOY_STORE && radosGatewayMissing())
      result.notes.push(`storage against a real store skipped: ${radosGatewayMissing()}`);
    if (!only || only === 'storage')
      for (const store of stores) await part(`Object storage (${store})`, () => objectStorage(ctx, store));
    finish();
  },
};

// ---------------------------------------------------------------------------------------------------------
// 1. Two web instances behind nginx beside one

/** The deployment's nginx file for a plain-HTTP bench: no TLS, no per-client limits, `webs` upstream servers. */
function benchNginxConf(dir, listenPort, webs) {
  const template = readFileSync(path.join(root, 'deploy/nginx-pickreel.conf.template'), 'utf8');
  const site = template
    .split('\n')
    .filter((line) => !/^\s*(limit_req|limit_conn)\s/.test(line) && !/^\s*ssl_/.test(line))
    .filter((line) => !line.includes('${PICKREEL_WEB_2}'))
    .map((line) =>
      line.includes('${PICKREEL_WEB_1}')
        ? webs.map((w) => line.replace('${PICKREEL_WEB_1}', w)).join('\n')
        : line,
    )
    .join('\n')
    .replace('listen ${PICKREEL_HTTPS_LISTEN} ssl;', `listen 127.0.0.1:${listenPort};`)
    .replace(/server \{\s*# plain HTTP only redirects[\s\S]*$/, '')
    .replace(/\$\{PICKREEL_DOMAIN\}/g, '127.0.0.1');
  if (/\$\{PICKREEL_[A-Z0-9_]+\}/.test(site))
    throw new Error('deploy/nginx-pickreel.conf.template: a name left unfilled');
  const t = (name) => path.join(dir, name);
  writeFileSync(t('pickreel.conf'), site);
  writeFileSync(
    t('nginx.conf'),
    `worker_processes auto;
daemon off;
pid ${t('nginx.pid')};
error_log ${t('error.log')} warn;
events { worker_connections 768; }
http {
  sendfile on;
  tcp_nopush on;
  access_log off;
  client_body_temp_path ${t('client_body')};
  proxy_temp_path ${t('proxy')};
  fastcgi_temp_path ${t('fastcgi')};
  uwsgi_temp_path ${t('uwsgi')};
  scgi_temp_path ${t('scgi')};
  include ${t('pickreel.conf')};
}
`,
  );
  return t('nginx.conf');
}

async function startBalancer(ctx, webs) {
  const dir = tempDir('pickreel-bench-deploy-nginx-');
  const port = await freePort();
  const conf = benchNginxConf(dir, port, webs);
  const proc = spawnTracked(ctx.nginx, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', conf], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const ok = await request(`${url}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { url, pid: proc.pid, stop: () => proc.stop({ signal: 'SIGQUIT', graceMs: 5000 }) };
    await new Promise((r) => setTimeout(r, 100));
  }
  await proc.stop();
  throw new Error(`nginx did not answer on ${url}`);
}

async function measureLoad(ctx, name, url, { script, pgids }) {
  const settings = { connections: 50, threads: 2, seconds: ctx.quick ? 3 : 10, script, scriptArgs: [0, 97] };
  const warmup = { ...settings, seconds: ctx.quick ? 1 : 2 };
  const { value, noise } = await ctx.timed(async () => {
    await runLoad(ctx.tool, url, warmup);
    const before = pgids.map(groupCpuSeconds);
    const figures = await runLoad(ctx.tool, url, settings);
    const cpu = pgids.map((p, i) => groupCpuSeconds(p) - before[i]);
    return { ...figures, cpuSeconds: cpu };
  });
  const errors = value.non2xx + value.socketErrors;
  ctx.log(
    `${name}: ${fmt.rps(value.rps)}, p99 ${fmt.ms(value.p99Ms)}, ${value.requests} requests, ` +
      `${errors} errors, CPU s ${value.cpuSeconds.map((c) => c.toFixed(1)).join(' + ')} ` +
      `(others used ${Math.round(noise.share * 100)}% of the machine)`,
  );
  return { ...value, raw: undefined, errors, settings, othersCpuShare: noise.share };
}

async function instances(ctx) {
  const { log, result } = ctx;
  if (!ctx.tool || ctx.tool.name !== 'wrk') throw new Error('needs wrk (apt-get install wrk)');
  if (!ctx.nginx) throw new Error('needs nginx (apt-get install nginx-light)');
  const pgScratch = await scratchPostgres('pickreel_bench_deploy');
  if (pgScratch.error) throw new Error(pgScratch.error);
  try {
    const seedDir = tempDir('pickreel-bench-deploy-seed-');
    // What instances on one database share (deploy/pickreel.env): the secret and the pick log's key.
    const env = {
      DATABASE_URL: pgScratch.url,
      SESSION_SECRET: SECRET,
      TRUST_PROXY: 'loopback',
      PICK_LOG_KEY_FILE: path.join(seedDir, 'pick-log-key.pem'),
    };
    const seeded = await runBounded(
      process.execPath,
      [path.join(root, 'dist/node/server/scripts/seed-demo.js'), '--total', String(VIDEOS)],
      {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: 'warn', DATA_DIR: seedDir, ...env },
        timeoutMs: 600_000,
      },
    );
    if (seeded.code !== 0)
      throw new Error(`seed:demo --total ${VIDEOS} failed: ${seeded.stderr || seeded.stdout}`);
    log(`seeded ${VIDEOS} videos on PostgreSQL`);

    const start = (name) =>
      startServer({
        dataDir: tempDir(`pickreel-bench-deploy-${name}-`),
        logFile: ctx.logFile(name),
        env,
        readyPath: '/api/health',
      });
    const a = await start('web-a');
    const catalog = await request(`${a.url}/api/videos`);
    const ids = JSON.parse(catalog.body.toString()).map((v) => v.id);
    if (ids.length === 0) throw new Error('GET /api/videos returned no videos');
    // Every video of the first pages, in turn: a video's page is cached per instance for 2 s.
    const pages = await Promise.all(
      [0, 1, 2, 3, 4, 5, 6, 7].map((p) =>
        request(`${a.url}/api/videos?offset=${p * ids.length}`).then((r) => JSON.parse(r.body.toString())),
      ),
    );
    const videoIds = [...new Set(pages.flat().map((v) => v.id))];
    const scripts = {
      catalog: writeWrkScript([{ path: '/api/videos' }], { name: 'catalog' }),
      video: writeWrkScript(
        videoIds.map((id) => ({ path: `/api/videos/${id}` })),
        { name: 'video' },
      ),
    };
    const figures = { one: {}, oneLb: {}, two: {} };
    let b;
    try {
      for (const [key, script] of Object.entries(scripts)) {
        figures.one[key] = await measureLoad(ctx, `1 instance, ${key}`, a.url, { script, pgids: [a.pid] });
      }
      const lb1 = await startBalancer(ctx, [`127.0.0.1:${a.port}`]);
      try {
        for (const [key, script] of Object.entries(scripts))
          figures.oneLb[key] = await measureLoad(ctx, `1 instance behind nginx, ${key}`, lb1.url, {
            script,
            pgids: [a.pid, lb1.pid],
          });
      } finally {
        await lb1.stop();
      }
      b = await start('web-b');
      const lb2 = await startBalancer(ctx, [`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]);
      try {
        for (const [key, script] of Object.entries(scripts))
          figures.two[key] = await measureLoad(ctx, `2 instances behind nginx, ${key}`, lb2.url, {
            script,
            pgids: [a.pid, b.pid, lb2.pid],
          });
      } finally {
        await lb2.stop();
      }
    } finally {
      await a.stop();
      await b?.stop();
    }
    result.details.instances = { videos: VIDEOS, videoIds: videoIds.length, figures };
    const conn = `${figures.one.catalog.settings.connections} conns, ${figures.one.catalog.settings.seconds} s, wrk`;
    for (const [key, label] of [
      ['catalog', 'GET /api/videos signed out'],
      ['video', `GET /api/videos/{id} signed out, ${videoIds.length} ids in turn`],
    ]) {
      const one = figures.one[key];
      const oneLb = figures.oneLb[key];
      const two = figures.two[key];
      const errors = one.errors + oneLb.errors + two.errors;
      result.rows.push({
        id: `deploy${key}`,
        label: `2 web instances behind nginx vs 1: ${label} (${conn})`,
        value: two.rps / one.rps,
        display: `${fmt.rps(two.rps)} (ratio ${fmt.ratio(two.rps / one.rps)}; ${fmt.ratio(two.rps / oneLb.rps)} vs 1 behind nginx), ${errors} errors`,
        reference: `1 instance ${fmt.rps(one.rps)}; behind nginx ${fmt.rps(oneLb.rps)}`,
        target: 'no loss (ratio >= 1), no errors',
        pass: two.rps >= one.rps && errors === 0,
        othersCpuShare: Math.max(one.othersCpuShare, oneLb.othersCpuShare, two.othersCpuShare),
      });
    }
  } finally {
    await pgScratch.drop();
  }
}

// ---------------------------------------------------------------------------------------------------------
// 2 and 3. Object storage

/** The tests' S3-compatible server in a process of its own (tsx runs its TypeScript). */
async function startS3(dir) {
  const script = `
const { startTestS3Server } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'tests/setup/s3-server.ts')).href)});
const server = await startTestS3Server(${JSON.stringify(dir)});
console.log('S3_ENDPOINT ' + server.endpoint);
`;
  const proc = spawnTracked(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const endpoint = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the S3 server did not start: ${out}`)), 30_000);
    const read = (chunk) => {
      out += chunk;
      const match = /^S3_ENDPOINT (\S+)$/m.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    proc.child.stdout.on('data', read);
    proc.child.stderr.on('data', (chunk) => (out += chunk));
    void proc.exited.then(() => reject(new Error(`the S3 server exited: ${out}`)));
  });
  return {
    name: "@20minutes/s3rver (the tests' store, objects on disk)",
    endpoint,
    accessKeyId: S3.accessKeyId,
    secretAccessKey: S3.secretAccessKey,
    pids: [proc.pid],
    stop: () => proc.stop({ graceMs: 5000 }),
  };
}

/** The store to measure against: the tests' s3rver, or a one-node Ceph cluster's RADOS Gateway. */
async function startStore(kind, dir) {
  if (kind === 's3rver') return startS3(dir);
  if (kind === 'radosgw') return startRadosGateway(dir);
  throw new Error(`BENCH_DEPLOY_STORE: unknown store ${kind} (s3rver or radosgw)`);
}

/** One plain request with a streamed body or a counted answer; keep-alive off. */
function send(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let bytes = 0;
      const chunks = [];
      res.on('data', (c) => {
        bytes += c.length;
        if (chunks.length < 64) chunks.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          bytes,
          text: Buffer.concat(chunks).toString().slice(0, 500),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body && typeof body.pipe === 'function') body.pipe(req);
    else req.end(body);
  });
}

/** A tus upload in `chunk`-byte PATCHes on one kept-alive connection, as a client sends it. */
async function tusUpload(base, cookie, file, chunk) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const call = (url, { method, headers, body }) =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method, headers, agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  const size = statSync(file).size;
  const fields = {
    title: 'Bench upload',
    description: 'Bench',
    emailInformation: 'Bench selections',
    price: '10',
    category: 'General',
    isPremium: 'true',
    isExternalVideo: 'false',
    filename: 'bench.mov',
  };
  const metadata = Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
  const started = performance.now();
  const created = await call(`${base}/api/uploads`, {
    method: 'POST',
    headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size), 'upload-metadata': metadata, cookie },
  });
  if (created.status !== 201) throw new Error(`tus create answered ${created.status}: ${created.body}`);
  const handle = await open(file, 'r');
  const buffer = Buffer.alloc(chunk);
  let last;
  let lastStarted = 0;
  try {
    for (let offset = 0; offset < size;) {
      const { bytesRead } = await handle.read(buffer, 0, chunk, offset);
      lastStarted = performance.now();
      last = await call(`${base}${created.headers.location}`, {
        method: 'PATCH',
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(bytesRead),
          cookie,
        },
        body: buffer.subarray(0, bytesRead),
      });
      if (last.status !== 204 && last.status !== 200)
        throw new Error(`PATCH answered ${last.status}: ${last.body}`);
      offset += bytesRead;
    }
  } finally {
    await handle.close();
    agent.destroy();
  }
  const ended = performance.now();
  // The last PATCH also completes the multipart upload and moves it to the video's key (server-side copies).
  return {
    videoId: JSON.parse(last.body).videoId,
    seconds: (ended - started) / 1000,
    lastPatchSeconds: (ended - lastStarted) / 1000,
    size,
  };
}

/** Waits (up to 5 minutes) for the video's media job to end; its final status. */
async function waitProcessed(base, cookie, videoId) {
  const until = Date.now() + 5 * 60_000;
  for (;;) {
    const res = await request(`${base}/api/videos/${videoId}`, { headers: { cookie } });
    const status =
      res.status === 200 ? JSON.parse(res.body.toString()).transcodingStatus : `HTTP ${res.status}`;
    if (status === 'ready' || status === 'failed' || Date.now() > until) return status;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Reads `url` whole in RANGE_BYTES ranges, one after another; MB/s. */
async function rangeRead(url, size, headers = {}) {
  const started = performance.now();
  for (let from = 0; from < size; from += RANGE_BYTES) {
    const to = Math.min(size, from + RANGE_BYTES) - 1;
    const res = await send(url, { headers: { ...headers, range: `bytes=${from}-${to}` } });
    if (res.status !== 206 || res.bytes !== to - from + 1)
      throw new Error(`${url} bytes=${from}-${to}: ${res.status}, ${res.bytes} bytes ${res.text}`);
  }
  return size / MB / ((performance.now() - started) / 1000);
}

/**
 * The file as the store's own multipart upload, 8 MiB parts one after another from the file (the SDK),
 * then CompleteMultipartUpload, then a CopyObject of the result (what finishing a tus upload adds): seconds
 * of each.
 */
async function storeMultipartUpload(sdk, client, file, size) {
  const key = 'bench/direct-multipart.mov';
  const partSize = 8 * 1024 * 1024;
  const started = performance.now();
  const { UploadId } = await client.send(
    new sdk.CreateMultipartUploadCommand({ Bucket: S3.bucket, Key: key, ContentType: 'video/quicktime' }),
  );
  const parts = [];
  for (let start = 0, PartNumber = 1; start < size; start += partSize, PartNumber++) {
    const end = Math.min(size, start + partSize);
    const { ETag } = await client.send(
      new sdk.UploadPartCommand({
        Bucket: S3.bucket,
        Key: key,
        UploadId,
        PartNumber,
        Body: createReadStream(file, { start, end: end - 1, highWaterMark: 1024 * 1024 }),
        ContentLength: end - start,
      }),
    );
    parts.push({ PartNumber, ETag });
  }
  const partsDone = performance.now();
  await client.send(
    new sdk.CompleteMultipartUploadCommand({
      Bucket: S3.bucket,
      Key: key,
      UploadId,
      MultipartUpload: { Parts: parts },
    }),
  );
  const completed = performance.now();
  await client.send(
    new sdk.CopyObjectCommand({ Bucket: S3.bucket, Key: `${key}.copy`, CopySource: `${S3.bucket}/${key}` }),
  );
  const copied = performance.now();
  await client.send(
    new sdk.DeleteObjectsCommand({
      Bucket: S3.bucket,
      Delete: { Objects: [{ Key: key }, { Key: `${key}.copy` }] },
    }),
  );
  return {
    seconds: (completed - started) / 1000,
    partsSeconds: (partsDone - started) / 1000,
    completeSeconds: (completed - partsDone) / 1000,
    copySeconds: (copied - completed) / 1000,
  };
}

async function objectStorage(ctx, kind) {
  const { log, result, quick } = ctx;
  if (kind === 'radosgw' && radosGatewayMissing()) throw new Error(radosGatewayMissing());
  const work = tempDir('pickreel-bench-deploy-s3-');
  const s3 = await startStore(kind, path.join(work, 'store'));
  const creds = { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };
  const storeCpu = () => s3.pids.reduce((sum, pid) => sum + groupCpuSeconds(pid), 0);
  log(`store: ${s3.name} at ${s3.endpoint}`);
  const sdk = await import('@aws-sdk/client-s3');
  const { S3Client, CreateBucketCommand } = sdk;
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: creds,
    // As the app's client (s3-storage.ts): s3rver takes no streamed CRC32 trailer.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await client.send(new CreateBucketCommand({ Bucket: S3.bucket }));
  const pgScratch = await scratchPostgres('pickreel_bench_deploy');
  if (pgScratch.error) throw new Error(pgScratch.error);
  let server;
  try {
    const bytes = quick ? 200e6 : BIG_BYTES;
    const big = path.join(work, 'big.mov');
    const { resolveMediaTools } = await import(
      pathToFileURL(path.join(root, 'dist/node/server/media/ffmpeg.js')).href
    );
    makeLargeMov(resolveMediaTools().ffmpeg, big, bytes);
    const size = statSync(big).size;
    server = await startServer({
      dataDir: tempDir('pickreel-bench-deploy-data-'),
      logFile: ctx.logFile('s3-instance'),
      readyPath: '/api/health',
      env: {
        DATABASE_URL: pgScratch.url,
        SESSION_SECRET: SECRET,
        S3_BUCKET: S3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
    const { cookie } = await signIn(server.url, `benchs3${process.pid}`);
    // CPU seconds of the app, the store and this bench process during `fn` (2 cores: 3 busy processes share
    // them where a direct transfer has 2).
    const withCpu = async (fn) => {
      const before = [groupCpuSeconds(server.pid), storeCpu(), process.cpuUsage()];
      const value = await fn();
      const bench = process.cpuUsage(before[2]);
      const cpu = {
        app: groupCpuSeconds(server.pid) - before[0],
        store: storeCpu() - before[1],
        bench: (bench.user + bench.system) / 1e6,
      };
      return typeof value === 'number' ? { MBps: value, cpu } : { ...value, cpu };
    };
    const fmtCpu = (cpu) =>
      `app ${cpu.app.toFixed(1)}, store ${cpu.store.toFixed(1)}, client ${cpu.bench.toFixed(1)}`;

    // The reference: the whole file in one PUT straight into the store (a presigned URL, so the SDK's
    // per-request work is not in it).
    const put = await ctx.timed(async () => {
      warm(big);
      const target = await presignedUrl(`${s3.endpoint}/${S3.bucket}/bench/direct-put.mov`, 'PUT', creds);
      const started = performance.now();
      const res = await send(target, {
        method: 'PUT',
        headers: { 'content-length': String(size), 'content-type': 'video/quicktime' },
        body: createReadStream(big, { highWaterMark: 1024 * 1024 }),
      });
      if (res.status !== 200) throw new Error(`PUT into the store answered ${res.status}: ${res.text}`);
      return size / MB / ((performance.now() - started) / 1000);
    });
    log(`store's own PUT: ${put.value.toFixed(0)} MB/s (others ${Math.round(put.noise.share * 100)}%)`);

    // What the store itself takes for the same file as a multipart upload (the SDK, 8 MiB parts one after
    // another, as tus writes them), and for its completion and a server-side copy alone: the work of the
    // last PATCH, which a direct PUT does not have.
    const storeMultipart = await ctx.timed(async () => {
      warm(big);
      return storeMultipartUpload(sdk, client, big, size);
    });
    log(
      `store's own multipart upload: ${(size / MB / storeMultipart.value.seconds).toFixed(0)} MB/s ` +
        `(parts ${storeMultipart.value.partsSeconds.toFixed(1)} s, CompleteMultipartUpload ${storeMultipart.value.completeSeconds.toFixed(1)} s, ` +
        `CopyObject ${storeMultipart.value.copySeconds.toFixed(1)} s)`,
    );

    // The browser's chunk size is what the page's app config says (the server picks it for a bucket).
    const page = await request(`${server.url}/`);
    const configMeta = /<meta name="pickreel-config" content="([^"]*)">/.exec(page.body.toString());
    const browserChunk = configMeta
      ? JSON.parse(configMeta[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&')).uploadChunkBytes
      : undefined;
    if (!Number.isSafeInteger(browserChunk)) throw new Error('the page carries no uploadChunkBytes');
    const chunkRows = [
      [
        'browser',
        browserChunk,
        `${browserChunk / 1024 / 1024} MiB chunks (what the browser sends with a bucket)`,
      ],
      ['part', 8 * 1024 * 1024, '8 MiB chunks (one S3 part each)'],
    ];
    // The 2 MiB chunks the browser sent before (and other tus clients may): the library's slow path, ~5 min
    // for 1 GB, so only when asked.
    if (process.env.BENCH_DEPLOY_SMALL_CHUNKS === '1')
      chunkRows.push(['small', 2 * 1024 * 1024, '2 MiB chunks (the browser before; smaller than a part)']);
    const uploads = {};
    for (const [key, chunk] of chunkRows) {
      const up = await ctx.timed(async () => {
        warm(big);
        return withCpu(() => tusUpload(server.url, cookie, big, chunk));
      });
      uploads[key] = { ...up.value, MBps: size / MB / up.value.seconds, othersCpuShare: up.noise.share };
      // Its media job (a download of the original from the store, ffmpeg) runs in the app's process group:
      // let it end before the next measurement rather than under it.
      uploads[key].processed = await waitProcessed(server.url, cookie, up.value.videoId);
      log(`  its media job ended: ${uploads[key].processed}`);
      log(
        `tus into the bucket, ${chunk / 1024 / 1024} MiB chunks: ${uploads[key].MBps.toFixed(0)} MB/s in ` +
          `${up.value.seconds.toFixed(1)} s, the last PATCH (complete + move) ${up.value.lastPatchSeconds.toFixed(1)} s, ` +
          `CPU s ${fmtCpu(up.value.cpu)} ` +
          `(others ${Math.round(up.noise.share * 100)}%)`,
      );
    }

    // Range streaming of the stored original: through the app (its owner) and straight from the store, twice
    // each, in turn.
    const videoId = uploads.part.videoId;
    const viaApp = `${server.url}/media/videos/${videoId}/original.mov`;
    // Presigned, as a real store checks signatures (s3rver ignores them); signed once, as a client would.
    const direct = await presignedUrl(
      `${s3.endpoint}/${S3.bucket}/videos/${videoId}/original.mov`,
      'GET',
      creds,
    );
    const app = [];
    const store = [];
    const rangeCpu = [];
    let rangeNoise = 0;
    for (let round = 0; round < 2; round++) {
      const s = await ctx.timed(() => withCpu(() => rangeRead(direct, size)));
      const a = await ctx.timed(() => withCpu(() => rangeRead(viaApp, size, { cookie })));
      store.push(s.value.MBps);
      app.push(a.value.MBps);
      rangeCpu.push({ store: s.value.cpu, app: a.value.cpu });
      rangeNoise = Math.max(rangeNoise, s.noise.share, a.noise.share);
      log(
        `Range ${RANGE_BYTES / 1024 / 1024} MiB pieces: store ${s.value.MBps.toFixed(0)} MB/s, via the app ${a.value.MBps.toFixed(0)} MB/s ` +
          `(CPU s: store alone ${fmtCpu(s.value.cpu)}; via the app ${fmtCpu(a.value.cpu)})`,
      );
    }
    result.details[kind === 's3rver' ? 'objectStorage' : `objectStorage_${kind}`] = {
      store: s3.name,
      bytes: size,
      putMBps: put.value,
      storeMultipart: storeMultipart.value,
      uploads,
      rangeApp: app,
      rangeCpu,
      rangeStore: store,
    };

    const sizeText = `${(size / 1e9).toFixed(size >= 1e9 ? 0 : 1)} GB`;
    const idSuffix = kind === 's3rver' ? '' : `_${kind}`;
    for (const [key, , text] of chunkRows) {
      const ratio = uploads[key].MBps / put.value;
      result.rows.push({
        id: `deployUpload_${key}${idSuffix}`,
        label: `${sizeText} tus upload into the bucket (${STORE_NAMES[kind]}) through the app, ${text}`,
        value: ratio,
        display: `${uploads[key].MBps.toFixed(0)} MB/s (ratio ${fmt.ratio(ratio)}; last PATCH ${uploads[key].lastPatchSeconds.toFixed(1)} s)`,
        reference:
          `one PUT into the store ${put.value.toFixed(0)} MB/s; the store's own multipart upload ` +
          `${(size / MB / storeMultipart.value.seconds).toFixed(0)} MB/s, of which CompleteMultipartUpload ` +
          `${storeMultipart.value.completeSeconds.toFixed(1)} s; a CopyObject ${storeMultipart.value.copySeconds.toFixed(1)} s`,
        target: `ratio >= ${TARGET_UPLOAD}`,
        pass: ratio >= TARGET_UPLOAD,
        othersCpuShare: Math.max(put.noise.share, uploads[key].othersCpuShare),
      });
    }
    const ratio = median(app) / median(store);
    result.rows.push({
      id: `deployRange${idSuffix}`,
      label: `Range streaming of the ${sizeText} original (${STORE_NAMES[kind]}), ${RANGE_BYTES / 1024 / 1024} MiB pieces in turn, via /media/ (owner)`,
      value: ratio,
      display: `${median(app).toFixed(0)} MB/s (ratio ${fmt.ratio(ratio)})`,
      reference: `GET from the store ${median(store).toFixed(0)} MB/s (median of 2)`,
      target: `ratio >= ${TARGET_RANGE}`,
      pass: ratio >= TARGET_RANGE,
      othersCpuShare: rangeNoise,
    });
  } finally {
    client.destroy();
    await server?.stop();
    await s3.stop();
    await pgScratch.drop();
  }
}
