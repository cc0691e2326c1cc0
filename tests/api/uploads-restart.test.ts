// Crashes: the real server process is SIGKILLed in the middle of a tus upload and in the
// middle of a processing job, then started again on the same DATA_DIR; both finish as if nothing happened.
// The server runs from the sources through tsx, as `npm start` would run the build, on the embedded database.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResult } from '#common/schemas/uploads.js';
import type { Video } from '#common/schemas/videos.js';
import { resolveMediaTools } from '#server/media/ffmpeg.js';
import { packageRoot } from '#server/lib/package-root.js';
import { largeMovFixture, sha256File } from '../setup/media-fixtures.js';
import { freePort } from '../setup/free-port.js';
import { inBucket, testBucketEnv } from '../setup/stored-media.js';
import { multipart, VALID_FIELDS } from '../setup/upload-requests.js';

let dataDir: string;
let port: number;
let server: ChildProcess | null = null;
let serverLog = '';
let cookie: string;
/** TEST_MEDIA_STORAGE=s3: the bucket every start of the server keeps its media in. */
let bucketEnv: Record<string, string> = {};

const base = () => `http://127.0.0.1:${port}`;

async function startServer(): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'restart-test-secret-that-is-long-enough-012345',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...bucketEnv,
  };
  delete env.DATABASE_URL; // the embedded database: the default deployment, and the one a kill can hurt
  const child = spawn(
    process.execPath,
    ['--liftoff-only', '--import', 'tsx', path.join('src', 'server', 'main.ts')],
    {
      cwd: packageRoot(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  server = child;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${serverLog}`);
    try {
      if ((await fetch(`${base()}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not start:\n${serverLog}`);
}

async function killServer(): Promise<void> {
  const child = server;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  server = null;
}

async function getVideo(id: number): Promise<Video> {
  const response = await fetch(`${base()}/api/videos/${id}`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return (await response.json()) as Video;
}

/**
 * What a stored file that is not the source looks like, for the failure's message: its length, where it first
 * differs, and where the bytes found there sit in the source (a skip or a repeat shows as a shift).
 */
function storedDiagnosis(got: Buffer, want: Buffer, killedAt: number): string {
  if (got.equals(want)) return 'equal';
  let at = 0;
  while (at < Math.min(got.length, want.length) && got[at] === want[at]) at++;
  const foundAt = want.indexOf(got.subarray(at, at + 256));
  return `stored ${got.length} bytes of ${want.length}; first difference at ${at}; the bytes there are the source's at ${foundAt}; the kill came at ${killedAt}`;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}\n${serverLog}`);
}

// The child server always runs the embedded database (a PostgreSQL server would wait out the 30 s lease
// instead, docs/decisions/008): on the PostgreSQL pass of the suite this file simply runs again.
describe('a server killed mid-way', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-restart-'));
    port = await freePort();
    bucketEnv = await testBucketEnv();
    await startServer();
    const response = await fetch(`${base()}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `restart${process.pid}`, password: 'correct-horse', phoneNumber: '' }),
    });
    expect(response.status).toBe(201);
    cookie = response.headers.getSetCookie()[0]!.split(';')[0]!;
  }, 90_000);

  afterAll(async () => {
    await killServer();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes a tus upload after SIGKILL and a restart; the stored bytes are the source bytes', async () => {
    const source = largeMovFixture(60 * 1024 * 1024);
    const content = readFileSync(source);
    let killedAt = -1;
    let restarting: Promise<void> | null = null;

    const result = await new Promise<{ videoId: number; header: string | undefined }>((resolve, reject) => {
      const upload = new tus.Upload(content, {
        endpoint: `${base()}/api/uploads`,
        chunkSize: 2 * 1024 * 1024,
        headers: { cookie },
        metadata: { ...VALID_FIELDS, filename: 'big.mov', filetype: 'video/quicktime' },
        // Keep retrying while the server is down; the resume asks it where to go on.
        retryDelays: Array.from({ length: 40 }, () => 500),
        onProgress(sent) {
          if (killedAt < 0 && sent > content.length / 3) {
            killedAt = sent;
            restarting = killServer().then(startServer);
          }
        },
        onSuccess({ lastResponse }) {
          const body = JSON.parse(lastResponse.getBody() || '{}') as Partial<UploadResult>;
          if (!body.videoId) return reject(new Error(`no video id in ${lastResponse.getBody()}`));
          resolve({ videoId: body.videoId, header: lastResponse.getHeader('Upload-Video-Id') });
        },
        onError: reject,
      });
      upload.start();
    });
    await restarting;
    expect(killedAt).toBeGreaterThan(0);
    expect(killedAt).toBeLessThan(content.length);
    expect(result.header).toBe(String(result.videoId));

    // The stored original, as its owner downloads it (from local disk or from the bucket).
    const original = await fetch(`${base()}/media/videos/${result.videoId}/original.mov`, {
      headers: { cookie },
    });
    expect(original.status).toBe(200);
    const got = Buffer.from(await original.arrayBuffer());
    const stored = createHash('sha256').update(got).digest('hex');
    expect(stored, storedDiagnosis(got, readFileSync(source), killedAt)).toBe(await sha256File(source));
    // In a bucket, nothing of it is on the server's disk (the tus chunks included).
    if (inBucket()) {
      expect(existsSync(path.join(dataDir, 'media'))).toBe(false);
      expect(readdirSync(path.join(dataDir, 'uploads', 'incoming'))).toEqual([]);
      expect(existsSync(path.join(dataDir, 'uploads', 'tus'))).toBe(false);
    }
    const video = await waitFor('the upload to be processed', async () => {
      const v = await getVideo(result.videoId);
      return v.transcodingStatus === 'ready' ? v : undefined;
    });
    // The URL names the file's version (`?v=`, for long caching) after its path.
    expect(video.videoUrl?.split('?')[0]).toBe(`/media/videos/${result.videoId}/video.mp4`);
  }, 180_000);

  it('finishes a processing job interrupted by SIGKILL after the restart', async () => {
    // Long enough to be caught under way: 10 s of MPEG-4 part 2, re-encoded to H.264.
    const file = path.join(dataDir, 'slow.mov');
    execFileSync(resolveMediaTools().ffmpeg, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=480x270:rate=30:duration=10',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=300:duration=10',
      '-c:v',
      'mpeg4',
      '-q:v',
      '4',
      '-c:a',
      'pcm_s16le',
      '-f',
      'mov',
      file,
    ]);
    const { payload, headers } = multipart(VALID_FIELDS, { name: 'slow.mov', content: readFileSync(file) });
    const created = await fetch(`${base()}/api/videos`, {
      method: 'POST',
      headers: { ...headers, cookie },
      body: payload,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as Video;

    await waitFor('the job to be under way', async () => {
      const v = await getVideo(id);
      return v.transcodingStatus === 'processing' ? v : undefined;
    });
    await killServer();
    await startServer();

    const video = await waitFor(
      'the job to finish after the restart',
      async () => {
        const v = await getVideo(id);
        if (v.transcodingStatus === 'failed') throw new Error(`failed: ${v.transcodingError}`);
        return v.transcodingStatus === 'ready' ? v : undefined;
      },
      120_000,
    );
    expect(video).toMatchObject({ isTranscoded: true, duration: 10, transcodingError: null });
    const mp4 = await fetch(`${base()}${video.videoUrl}`, { method: 'HEAD' });
    expect(mp4.status).toBe(200);
    // The killed run's scratch folder went when its job was taken again, not a day later.
    expect(readdirSync(path.join(dataDir, 'work'))).toEqual([]);
  }, 180_000);
});
