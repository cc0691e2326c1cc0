// Workers as real processes (docs/decisions/023). On PostgreSQL: a web instance (this test's app,
// ROLE=web) queues an upload's job; a ROLE=worker process takes it and is SIGKILLed in the middle; another
// worker process runs it to the end, once (several processes on one database: PostgreSQL only). A ROLE=worker
// start without DATABASE_URL is refused with a message saying to use it, the embedded database being one
// process's (a server killed mid-job on the embedded database is uploads-restart.test.ts's).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, like, sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '#server/db/schema.js';
import { findVideoRow } from '#server/features/videos/videos-repository.js';
import { packageRoot } from '#server/lib/package-root.js';
import { freePort } from '../setup/free-port.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { storedBytes } from '../setup/stored-media.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';
import { waitFor } from '../setup/wait-for.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

interface Worker {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `node src/server/main.ts` through tsx, as `npm start` runs the build, with these settings. */
function startServer(env: Record<string, string>): Worker {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'production', ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  // Its own process group: a kill takes ffmpeg with it, as a machine that dies would.
  const child = spawn(
    process.execPath,
    ['--liftoff-only', '--import', 'tsx', path.join('src', 'server', 'main.ts')],
    { cwd: packageRoot(), env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function killGroup(worker: Worker | null): Promise<void> {
  if (!worker || worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  try {
    process.kill(-worker.child.pid!, 'SIGKILL');
  } catch {
    // gone already
  }
  await worker.exited;
}

describe.runIf(onPostgres)('a worker process killed mid-job (PostgreSQL)', () => {
  let web: TestApp;
  let first: Worker | null = null;
  let second: Worker | null = null;
  let scratch: string;

  beforeAll(async () => {
    web = await createTestApp({ role: 'web' });
    scratch = mkdtempSync(path.join(os.tmpdir(), 'pickreel-workers-'));
  }, 60_000);
  afterAll(async () => {
    await killGroup(first);
    await killGroup(second);
    await web?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** The settings of a worker beside the test's web instance: same database, same media, same log key. */
  const workerEnv = async (extra: Record<string, string> = {}): Promise<Record<string, string>> => {
    const s3 = web.config.s3;
    return {
      ROLE: 'worker',
      DATABASE_URL: web.databaseUrl!,
      DATA_DIR: web.config.dataDir,
      SESSION_SECRET: web.config.sessionSecret,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      ...(s3
        ? {
            S3_BUCKET: s3.bucket,
            S3_ENDPOINT: s3.endpoint ?? '',
            S3_REGION: s3.region,
            S3_ACCESS_KEY_ID: s3.credentials?.accessKeyId ?? '',
            S3_SECRET_ACCESS_KEY: s3.credentials?.secretAccessKey ?? '',
            S3_FORCE_PATH_STYLE: String(s3.forcePathStyle),
          }
        : {}),
      ...extra,
    };
  };

  it('runs the job again in another worker, once, and the video ends up ready', async () => {
    const owner = await registerUser(web.app, {}, '10.16.1.1');
    const upload = await postVideo(web.app, owner.cookie, VALID_FIELDS, {
      name: 'pick.mov',
      content: readFileSync(mediaFixture('h264Mov')),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const videoId = upload.json<{ id: number }>().id;
    const db = web.database.db;
    const [job] = await db
      .select()
      .from(jobs)
      .where(sql`(${jobs.payload}->>'videoId')::int = ${videoId}`);
    expect(job).toMatchObject({ status: 'queued', attempts: 0 });

    // The first worker's ffmpeg never finishes: the job is surely mid-way when the worker is killed.
    const stuckFfmpeg = path.join(scratch, 'ffmpeg-that-hangs');
    writeFileSync(stuckFfmpeg, '#!/bin/sh\nexec sleep 600\n');
    chmodSync(stuckFfmpeg, 0o755);
    first = startServer(await workerEnv({ FFMPEG_PATH: stuckFfmpeg }));
    const taken = await waitFor(
      'the first worker to take the job',
      async () => {
        const [row] = await db
          .select()
          .from(jobs)
          .where(
            and(
              eq(jobs.id, job!.id),
              eq(jobs.status, 'running'),
              like(jobs.lockedBy, `w-${first!.child.pid}-%`),
            ),
          );
        return row;
      },
      first.output,
    );
    expect(taken.attempts).toBe(1);
    await killGroup(first);
    expect(first.child.signalCode).toBe('SIGKILL');
    // The dead worker's lease would run out within 30 s; the test moves its end to now instead of waiting.
    await db
      .update(jobs)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, job!.id));

    const secondEnv = await workerEnv();
    second = startServer(secondEnv);
    const done = await waitFor(
      'the second worker to finish the job',
      async () => {
        const [row] = await db
          .select()
          .from(jobs)
          .where(and(eq(jobs.id, job!.id), eq(jobs.status, 'done')));
        return row;
      },
      second.output,
    );
    expect(done.attempts).toBe(2);
    expect(done.lockedBy).toBeNull();
    expect(
      await db
        .select()
        .from(jobs)
        .where(sql`(${jobs.payload}->>'videoId')::int = ${videoId}`),
    ).toHaveLength(1);
    expect((await findVideoRow(db, videoId))?.transcodingStatus).toBe('ready');
    expect((await storedBytes(web, `videos/${videoId}/video.mp4`))?.length).toBeGreaterThan(0);
    // The worker answers its health check on its port, and nothing else.
    const base = `http://127.0.0.1:${secondEnv.PORT}`;
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const videos = await fetch(`${base}/api/videos`);
    expect(videos.status).toBe(404);
    expect(((await videos.json()) as { message: string }).message).toMatch(/ROLE=worker/);
  }, 180_000);
});

// Both passes: the child is given no DATABASE_URL whatever this run's database is.
describe('ROLE=worker on the embedded database', () => {
  it('is refused at start with a message saying to use DATABASE_URL', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-role-'));
    try {
      const server = startServer({ ROLE: 'worker', DATA_DIR: dataDir, PORT: String(await freePort()) });
      const code = await server.exited;
      expect(code).toBe(1);
      expect(server.output()).toMatch(/PickReel cannot start\. Invalid settings:/);
      expect(server.output()).toMatch(
        /ROLE: worker needs DATABASE_URL: the embedded database belongs to one process/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
