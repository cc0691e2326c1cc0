// ROLE=web|worker|all and the media job queue's guarantees (docs/decisions/023), on the embedded
// database and on PostgreSQL: a web instance queues and runs nothing; a worker serves only its health; a job
// whose worker died is run again; two workers never run the same job; failures retry with growing delays,
// then fail for good.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, sql } from '#server/db/drizzle.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.js';
import { rowsOf } from '#server/db/rows.js';
import { jobs } from '#server/db/schema.js';
import { mediaVideoRecords } from '#server/features/videos/index.js';
import { findVideoRow } from '#server/features/videos/videos-repository.js';
import { JobRunner } from '#server/jobs/index.js';
import { claimJob } from '#server/jobs/jobs-repository.js';
import { handleMediaJobs, PROCESS_VIDEO, REMOVE_MEDIA } from '#server/media/media-jobs.js';
import { queueMediaRemoval } from '#server/media/media-removal.js';
import type { MediaStorage } from '#server/media/storage.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

let web: TestApp;
/** A second app on the same database, as a ROLE=worker instance builds it. */
let worker: FastifyInstance;

beforeAll(async () => {
  web = await createTestApp({ role: 'web' });
  worker = await buildApp({
    config: { ...web.config, role: 'worker' },
    database: web.database,
    logger: false,
    clientDir: null,
  });
  await worker.ready();
});
afterAll(async () => {
  await worker?.close();
  await web?.close();
});

const jobRow = async (id: number) => (await web.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

/** A removal job due now, for a folder holding one file. */
async function dueRemoval(prefix: string, storage: MediaStorage = web.app.storage): Promise<number> {
  await storage.putStream(`${prefix}/thumb.jpg`, Readable.from([Buffer.from('x')]));
  const [queued] = await queueMediaRemoval(web.database.db, [prefix]);
  await web.database.db
    .update(jobs)
    .set({ runAt: sql`now()` })
    .where(eq(jobs.id, queued!.jobId));
  return queued!.jobId;
}

/** A runner of its own on the test database (another worker process, as far as the queue can tell). */
function runner(storage: MediaStorage): JobRunner {
  const jobRunner = new JobRunner({ db: web.database.db, log: web.app.log, reclaimOnStart: false });
  handleMediaJobs(jobRunner, {
    videos: mediaVideoRecords(web.database.db),
    storage,
    tools: () => {
      throw new Error('no media tools in this test');
    },
    workRoot: path.join(web.config.dataDir, 'work'),
  });
  return jobRunner;
}

describe('ROLE=web and ROLE=worker', () => {
  it('a web instance queues an upload’s job and runs none; a worker on the same database runs it once', async () => {
    const owner = await registerUser(web.app, {}, '10.16.0.1');
    const upload = await postVideo(web.app, owner.cookie, VALID_FIELDS, {
      name: 'pick.mov',
      content: readFileSync(mediaFixture('h264Mov')),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const videoId = upload.json<{ id: number }>().id;
    const [job] = await web.database.db
      .select()
      .from(jobs)
      .where(sql`(${jobs.payload}->>'videoId')::int = ${videoId}`);
    expect(job).toMatchObject({ kind: PROCESS_VIDEO.kind, status: 'queued', attempts: 0 });

    web.app.mediaJobs.start();
    expect(web.app.mediaJobs.started).toBe(false);
    await expect(web.app.mediaJobs.runUntilIdle()).rejects.toThrow(/ROLE=web/);
    expect(await jobRow(job!.id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });

    expect(await worker.mediaJobs.runUntilIdle()).toBe(1);
    expect(await worker.mediaJobs.runUntilIdle()).toBe(0);
    expect(await jobRow(job!.id)).toMatchObject({ status: 'done', attempts: 1 });
    expect((await findVideoRow(web.database.db, videoId))?.transcodingStatus).toBe('ready');
  });

  it('a web instance numbers the pick-log entries its requests append before it answers', async () => {
    const logSize = async () =>
      Number(
        rowsOf<{ size: string | number }>(await web.database.db.execute(sql`select size from log_state`))[0]!
          .size,
      );
    const before = await logSize();
    const capper = await registerUser(web.app, {}, '10.16.0.2');
    const startsAt = new Date(Date.now() + 24 * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const posted = await postVideo(web.app, capper.cookie, {
      ...VALID_FIELDS,
      isExternalVideo: 'true',
      externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      duration: '',
      legs: JSON.stringify([
        {
          league: 'NBA',
          home: 'Roles Home',
          away: 'Roles Away',
          startsAt,
          market: 'moneyline',
          side: 'Roles Home',
          line: null,
          odds: -110,
          units: 1,
        },
      ]),
    });
    expect(posted.statusCode, posted.body).toBe(201);
    // Answered after numbering: the entry has its place in the log already, none waits.
    expect(await logSize()).toBe(before + 1);
    const pending = rowsOf<{ n: string | number }>(
      await web.database.db.execute(sql`select count(*) as n from log_pending`),
    );
    expect(Number(pending[0]!.n)).toBe(0);
  });

  it('the workers fetch the results feed, the web instances never', async () => {
    const asked: string[] = [];
    const feed = createServer((request, response) => {
      asked.push(new URL(request.url!, 'http://feed').searchParams.get('who')!);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ results: [] }));
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/scores`;
    const feedWeb = await createTestApp({ role: 'web', env: { RESULTS_FEED_URL: `${url}?who=web` } });
    let feedWorker: FastifyInstance | null = null;
    try {
      expect(feedWeb.config.resultsFeed?.url).toBe(`${url}?who=web`);
      feedWorker = await buildApp({
        config: {
          ...feedWeb.config,
          role: 'worker',
          resultsFeed: { url: `${url}?who=worker`, intervalSeconds: 300 },
        },
        database: feedWeb.database,
        logger: false,
        clientDir: null,
      });
      await feedWorker.ready();
      // As main.ts does on each: the web instance's runner starts nothing.
      feedWeb.app.jobs.start();
      feedWorker.jobs.start();
      await expect.poll(() => asked, { timeout: 10_000 }).toContain('worker');
    } finally {
      // Closing waits for a fetch under way: one the web instance had started would be counted by now.
      await feedWorker?.close();
      await feedWeb.close();
      await new Promise((resolve) => feed.close(resolve));
    }
    expect(asked).toEqual(['worker']);
  });

  it('a worker answers its health check and nothing else', async () => {
    const health = await worker.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    for (const url of ['/api/videos', '/api/auth/me', '/', '/media/videos/1/video.mp4']) {
      const response = await worker.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json<{ message: string }>().message).toMatch(/worker/);
    }
    const login = await worker.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'nobody', password: 'whatever-password' },
    });
    expect(login.statusCode).toBe(404);
  });
});

describe('the media job queue', () => {
  it('runs again, once, a job whose worker died (its lease ran out), never one under a live lease', async () => {
    const live = await dueRemoval('videos/990001');
    // A live worker holds it: nobody else takes it.
    expect((await claimJob(web.database.db, 'live-worker', [REMOVE_MEDIA.kind], 60_000))?.id).toBe(live);
    expect(await worker.mediaJobs.runUntilIdle()).toBe(0);
    expect(await jobRow(live)).toMatchObject({ status: 'running', lockedBy: 'live-worker' });
    await web.database.db.delete(jobs).where(eq(jobs.id, live));

    const orphan = await dueRemoval('videos/990002');
    // A worker that takes the job and dies at once (kill -9): its lease runs out 1 ms later, unrenewed.
    expect((await claimJob(web.database.db, 'dead-worker', [REMOVE_MEDIA.kind], 1))?.id).toBe(orphan);
    let ran = 0;
    while (ran === 0) ran = await worker.mediaJobs.runUntilIdle();
    expect(ran).toBe(1);
    expect(await worker.mediaJobs.runUntilIdle()).toBe(0);
    expect(await jobRow(orphan)).toMatchObject({ status: 'done', attempts: 2, lockedBy: null });
    expect(await web.app.storage.stat('videos/990002/thumb.jpg')).toBeNull();
  });

  it('never gives one job to two workers', async () => {
    const removed: string[] = [];
    const counting = (): MediaStorage =>
      Object.assign(Object.create(web.app.storage) as MediaStorage, {
        removePrefix: async (prefix: string) => {
          removed.push(prefix);
          await web.app.storage.removePrefix(prefix);
        },
      });
    const prefixes = Array.from({ length: 24 }, (_, i) => `videos/${991000 + i}`);
    for (const prefix of prefixes) await dueRemoval(prefix);
    const [a, b] = [runner(counting()), runner(counting())];
    const counts = await Promise.all([a.runUntilIdle(), b.runUntilIdle()]);
    expect(counts[0] + counts[1]).toBe(prefixes.length);
    expect([...removed].sort()).toEqual([...prefixes].sort());
  });

  it('retries a failing job after 5 s, then 30 s, then fails it for good', async () => {
    const failing = runner(
      Object.assign(Object.create(web.app.storage) as MediaStorage, {
        removePrefix: async () => {
          throw new Error('the store is away');
        },
      }),
    );
    const id = await dueRemoval('videos/992001');
    await web.database.db.update(jobs).set({ maxAttempts: 3 }).where(eq(jobs.id, id));
    const delaySeconds = async () => {
      const [row] = await web.database.db
        .select({ seconds: sql<string>`extract(epoch from ${jobs.runAt} - ${jobs.updatedAt})::text` })
        .from(jobs)
        .where(eq(jobs.id, id));
      return Number(row!.seconds);
    };
    /** The retry's delay is stored in run_at; the test moves it to now instead of waiting it out. */
    const makeDue = () =>
      web.database.db
        .update(jobs)
        .set({ runAt: sql`now()` })
        .where(eq(jobs.id, id));

    expect(await failing.runUntilIdle()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ status: 'queued', attempts: 1, lastError: 'the store is away' });
    expect(await delaySeconds()).toBe(5);
    // Not due yet: nothing runs it early.
    expect(await failing.runUntilIdle()).toBe(0);

    await makeDue();
    expect(await failing.runUntilIdle()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ status: 'queued', attempts: 2 });
    expect(await delaySeconds()).toBe(30);

    await makeDue();
    expect(await failing.runUntilIdle()).toBe(1);
    const failed = await jobRow(id);
    expect(failed).toMatchObject({ kind: REMOVE_MEDIA.kind, status: 'failed', attempts: 3, lockedBy: null });
    expect(failed.finishedAt).not.toBeNull();
    await makeDue();
    expect(await failing.runUntilIdle()).toBe(0);
  });
});
