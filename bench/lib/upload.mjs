// A 1 GB tus upload with the server's RSS sampled meanwhile, and what it needs (a test MOV, the page-cache warm-up,
// a minimal tus client). Shared by the media suite and the hardening suite's memory row.
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fmt, sleep } from './util.mjs';

export const MB = 1e6;
const CHUNK = 2 * 1024 * 1024;
const FIELDS = {
  title: 'Bench upload',
  description: 'Bench',
  emailInformation: 'Bench selections',
  price: '10',
  category: 'General',
  isPremium: 'true',
  isExternalVideo: 'false',
  filename: 'bench.mov',
};

/**
 * Reads a file once so that the transfer after it finds it in the page cache, and says how much of it was
 * cached before (fincore, when installed). Both sides of a comparison are warmed alike: this machine pages
 * out file pages untouched for about a minute (DAMON), which otherwise lands on whichever file waited longest.
 */
export function warm(file) {
  let cachedBefore = null;
  try {
    const out = execFileSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    cachedBefore = Number(out.trim()) / statSync(file).size;
  } catch {
    // fincore (util-linux) not installed: warm without saying
  }
  const fd = openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  try {
    while (readSync(fd, buffer, 0, buffer.length, null) > 0);
  } finally {
    closeSync(fd);
  }
  return cachedBefore;
}

export const pct = (share) => (share === null ? '?' : `${Math.round(share * 100)}%`);

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Closes the kept-alive connection `send` uses (a later `send` opens a new one). */
export function closeConnections() {
  agent.destroy();
}

export function send(url, { method, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body && typeof body.pipe === 'function') body.pipe(req);
    else req.end(body);
  });
}

/** A minimal tus client, as tus-js-client sends: one POST, then 2 MB PATCHes on one kept-alive connection. */
export async function tusUpload(base, cookie, file) {
  const size = statSync(file).size;
  const metadata = Object.entries(FIELDS)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
  const started = performance.now();
  const created = await send(`${base}/api/uploads`, {
    method: 'POST',
    headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size), 'upload-metadata': metadata, cookie },
  });
  if (created.status !== 201) throw new Error(`tus create answered ${created.status}: ${created.body}`);
  const location = `${base}${created.headers.location}`;
  const handle = await open(file, 'r');
  const buffer = Buffer.alloc(CHUNK);
  let last;
  try {
    for (let offset = 0; offset < size;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, offset);
      last = await send(location, {
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
  }
  const completedAt = performance.now();
  return { videoId: JSON.parse(last.body).videoId, ms: completedAt - started, completedAt, size };
}

export function makeMov(ffmpeg, file, { seconds, size, h264 }) {
  execFileSync(ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${size}:rate=30:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
    ...(h264
      ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac']
      : ['-c:v', 'mpeg4', '-q:v', '4', '-c:a', 'pcm_s16le']),
    '-f',
    'mov',
    file,
  ]);
}

/** A valid MOV of about `bytes`: a short real one plus a QuickTime 'free' atom of random bytes. */
export function makeLargeMov(ffmpeg, file, bytes) {
  const head = path.join(path.dirname(file), 'head.mov');
  makeMov(ffmpeg, head, { seconds: 2, size: '320x240', h264: true });
  const fd = openSync(file, 'w');
  const block = randomBytes(16 * 1024 * 1024);
  try {
    const headBytes = readFileSync(head);
    writeSync(fd, headBytes);
    const payload = bytes - headBytes.length - 8;
    const header = Buffer.alloc(8);
    header.writeUInt32BE(payload + 8, 0);
    header.write('free', 4, 'latin1');
    writeSync(fd, header);
    for (let left = payload; left > 0; left -= block.length)
      writeSync(fd, block, 0, Math.min(block.length, left));
  } finally {
    closeSync(fd);
  }
}

/**
 * Waits for the server to be at rest. V8 keeps the young generation that start-up (or the last upload) grew
 * (~30 MB: two 16 MB semi-spaces) until its memory reducer finds the process idle, usually 10 to 25 s later
 * here, not always. At rest: idle for `idleMs` and RSS within 1 MB over the last `stableMs`.
 */
export async function settle(server, { idleMs = 30_000, stableMs = 5_000, maxMs = 90_000 } = {}) {
  const started = performance.now();
  const samples = [];
  for (;;) {
    const at = performance.now() - started;
    samples.push({ at, rss: server.rssBytes() ?? NaN });
    const recent = samples.filter((s) => s.at >= at - stableMs).map((s) => s.rss);
    const steady = Math.max(...recent) - Math.min(...recent) < MB;
    if ((at >= idleMs && steady) || at >= maxMs) {
      return { ms: at, fromRss: samples[0].rss, toRss: samples.at(-1).rss, steady };
    }
    await sleep(1000);
  }
}

/**
 * Uploads `file` while sampling the server's VmRSS every 100 ms; the upload-versus-PUT row pair.
 * The upload starts 3 s after the previous step (sign-in, the previous round), or with `atRest` once the
 * server has settled (an extra line: what the same upload costs a server that has been idle a while).
 */
export async function measureUpload(server, cookie, file, timed, { atRest = false } = {}) {
  let rest = null;
  if (atRest) rest = await settle(server);
  else await sleep(3000);
  const idleRss = server.rssBytes() ?? NaN;
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rssBytes() ?? 0)), 100);
  let cachedBefore = null;
  const upload = await timed(() => {
    cachedBefore = warm(file);
    return tusUpload(server.url, cookie, file);
  });
  clearInterval(sampler);
  return {
    ...upload,
    rest,
    idleRss,
    peakRss,
    cachedBefore,
    MBps: upload.value.size / MB / (upload.value.ms / 1000),
  };
}

export const restNote = (rest) =>
  rest
    ? `at rest after ${(rest.ms / 1000).toFixed(0)} s (RSS ${fmt.mb(rest.fromRss)} -> ${fmt.mb(rest.toRss)}${rest.steady ? '' : ', not steady'})`
    : '3 s after the previous step';
