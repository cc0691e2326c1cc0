// The jobs module (docs/decisions/029) on the embedded database and on PostgreSQL: handlers by kind and
// lane, enqueue inside a caller's transaction, a key's one live job, each handler's own retries and delays,
// the lease kept alive while a job runs, a shutdown's requeue, and recurring jobs run once per period
// whatever the number of workers.
import { eq, sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '#server/db/schema.js';
import { defineJob, enqueue, JobRunner, recurringKey } from '#server/jobs/index.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.database.db;
const newRunner = (options: { leaseMs?: number; pollMs?: number } = {}) =>
  new JobRunner({ db: db(), log: t.app.log, reclaimOnStart: false, ...options });
const jobRow = async (id: number) => (await db().select().from(jobs).where(eq(jobs.id, id)))[0]!;
const makeDue = (id: number) =>
  db()
    .update(jobs)
    .set({ runAt: sql`now()` })
    .where(eq(jobs.id, id));
/** The delay a retry was given: run_at minus the moment it was written, in whole seconds. */
const delaySeconds = async (id: number) => {
  const [row] = await db()
    .select({ seconds: sql<string>`extract(epoch from ${jobs.runAt} - ${jobs.updatedAt})::text` })
    .from(jobs)
    .where(eq(jobs.id, id));
  return Math.round(Number(row!.seconds));
};

describe('the registry', () => {
  it('runs each kind with its handler and payload, lane by lane, and never a kind it does not handle', async () => {
    const SLOW = defineJob<{ n: number }>({
      kind: 'test_slow_lane',
      retry: { attempts: 1, delaysMs: [] },
      lane: 'slow',
    });
    const FAST = defineJob<{ word: string }>({
      kind: 'test_fast_lane',
      retry: { attempts: 1, delaysMs: [] },
    });
    const ORPHAN = defineJob<object>({ kind: 'test_nobody_handles', retry: { attempts: 1, delaysMs: [] } });
    const seen: string[] = [];
    const runner = newRunner()
      .handle(SLOW, { run: async ({ n }) => void seen.push(`slow ${n}`) })
      .handle(FAST, { run: async ({ word }) => void seen.push(`fast ${word}`) });
    expect(() => runner.handle(FAST, { run: async () => {} })).toThrow(/already handled/);

    await enqueue(db(), SLOW, { n: 1 });
    await enqueue(db(), FAST, { word: 'a' });
    const orphan = (await enqueue(db(), ORPHAN, {}))!;
    expect(await runner.runUntilIdle('slow')).toBe(1);
    expect(seen).toEqual(['slow 1']);
    expect(await runner.runUntilIdle()).toBe(1);
    expect(seen).toEqual(['slow 1', 'fast a']);
    expect(await jobRow(orphan)).toMatchObject({ status: 'queued', attempts: 0 });
    await db().delete(jobs).where(eq(jobs.id, orphan));
  });

  it('queues in the caller’s transaction, and keeps one live job per key', async () => {
    const KEYED = defineJob<{ n: number }>({ kind: 'test_keyed', retry: { attempts: 1, delaysMs: [] } });
    const ran: number[] = [];
    const runner = newRunner().handle(KEYED, { run: async ({ n }) => void ran.push(n) });

    await expect(
      db().transaction(async (tx) => {
        await enqueue(tx, KEYED, { n: 0 }, { key: 'k' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const first = await db().transaction((tx) => enqueue(tx, KEYED, { n: 1 }, { key: 'k' }));
    expect(first).not.toBeNull();
    expect(await enqueue(db(), KEYED, { n: 2 }, { key: 'k' })).toBeNull();
    expect(await runner.runUntilIdle()).toBe(1);
    expect(ran).toEqual([1]);
    // Done, the key is free again.
    expect(await enqueue(db(), KEYED, { n: 3 }, { key: 'k' })).not.toBeNull();
    expect(await runner.runUntilIdle()).toBe(1);
    expect(ran).toEqual([1, 3]);
  });
});

describe('retries', () => {
  it('waits each handler’s own delays, tells it of each retry, then fails the job for good', async () => {
    const FLAKY = defineJob<{ n: number }>({
      kind: 'test_flaky',
      retry: { attempts: 3, delaysMs: [7_000, 11_000] },
    });
    const calls: string[] = [];
    const runner = newRunner().handle(FLAKY, {
      run: async () => {
        throw new Error('not today');
      },
      onRetry: async ({ n }, err, ctx) =>
        void calls.push(`retry ${n} after attempt ${ctx.attempt}: ${String(err)}`),
      onFailed: async ({ n }, _err, ctx) => void calls.push(`failed ${n} after attempt ${ctx.attempt}`),
    });
    const id = (await enqueue(db(), FLAKY, { n: 5 }))!;
    expect(await jobRow(id)).toMatchObject({ maxAttempts: 3 });

    expect(await runner.runUntilIdle()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ status: 'queued', attempts: 1, lastError: 'not today' });
    expect(await delaySeconds(id)).toBe(7);
    expect(await runner.runUntilIdle()).toBe(0);

    await makeDue(id);
    expect(await runner.runUntilIdle()).toBe(1);
    expect(await delaySeconds(id)).toBe(11);

    await makeDue(id);
    expect(await runner.runUntilIdle()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ status: 'failed', attempts: 3, lockedBy: null });
    expect(calls).toEqual([
      'retry 5 after attempt 1: Error: not today',
      'retry 5 after attempt 2: Error: not today',
      'failed 5 after attempt 3',
    ]);
  });

  it('fails at once on an error its handler calls permanent', async () => {
    class Broken extends Error {}
    const PICKY = defineJob<object>({
      kind: 'test_picky',
      retry: { attempts: 5, delaysMs: [1_000], isPermanent: (err) => err instanceof Broken },
    });
    let failed = 0;
    const runner = newRunner().handle(PICKY, {
      run: async () => {
        throw new Broken('stays broken');
      },
      onFailed: async () => void (failed += 1),
    });
    const id = (await enqueue(db(), PICKY, {}))!;
    expect(await runner.runUntilIdle()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'stays broken' });
    expect(failed).toBe(1);
  });
});

describe('leases', () => {
  it('renews the lease of a job that runs longer than it, so no other worker takes it', async () => {
    const LONG = defineJob<object>({
      kind: 'test_long',
      retry: { attempts: 1, delaysMs: [] },
      leaseMs: 1_500,
    });
    let runs = 0;
    const handler = {
      run: async () => {
        runs += 1;
        await new Promise((resolve) => setTimeout(resolve, 3_000));
      },
    };
    const [a, b] = [newRunner().handle(LONG, handler), newRunner().handle(LONG, handler)];
    const id = (await enqueue(db(), LONG, {}))!;
    const running = a.runUntilIdle();
    await expect.poll(async () => (await jobRow(id)).status).toBe('running');
    // Past the first lease's end: renewed, so still a's.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await b.runUntilIdle()).toBe(0);
    expect(await running).toBe(1);
    expect(runs).toBe(1);
    expect(await jobRow(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('puts a job a stop interrupts back in the queue, the attempt not counted', async () => {
    const STOPPED = defineJob<object>({ kind: 'test_stopped', retry: { attempts: 1, delaysMs: [] } });
    let started = false;
    const runner = newRunner({ pollMs: 50 }).handle(STOPPED, {
      run: (_payload, ctx) =>
        new Promise((_resolve, reject) => {
          started = true;
          ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    });
    const id = (await enqueue(db(), STOPPED, {}))!;
    runner.start();
    await expect.poll(() => started).toBe(true);
    await runner.stop();
    expect(await jobRow(id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    await db().delete(jobs).where(eq(jobs.id, id));
  });
});

describe('lanes', () => {
  it('prepares each lane apart: one that cannot start holds up no other', async () => {
    const STUCK = defineJob<object>({
      kind: 'test_stuck',
      retry: { attempts: 1, delaysMs: [] },
      lane: 'stuck',
    });
    let ticks = 0;
    const runner = newRunner({ pollMs: 50 })
      .handle(STUCK, {
        prepare: async () => {
          throw new Error('no scratch folder');
        },
        run: async () => {},
      })
      .every('test_lane_tick', 60_000, async () => void (ticks += 1));
    runner.start();
    try {
      await expect.poll(() => ticks).toBe(1);
      await expect.poll(() => t.logs()).toContain('stuck job runner could not start');
    } finally {
      await runner.stop();
    }
  });
});

describe('recurring jobs', () => {
  it('keeps one row per kind, run by one of several workers each period, and put back after each run', async () => {
    let ticks = 0;
    const tick = async () => {
      ticks += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    };
    const [a, b] = [
      newRunner().every('test_tick', 60_000, tick),
      newRunner().every('test_tick', 60_000, tick),
    ];
    await Promise.all([a.scheduleRecurring(), b.scheduleRecurring(), a.scheduleRecurring()]);
    const rows = await db().select().from(jobs).where(eq(jobs.kind, 'test_tick'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: recurringKey('test_tick'), status: 'queued' });

    const counts = await Promise.all([a.runUntilIdle(), b.runUntilIdle()]);
    expect(counts[0] + counts[1]).toBe(1);
    expect(ticks).toBe(1);
    expect(await jobRow(rows[0]!.id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    expect(await delaySeconds(rows[0]!.id)).toBe(60);
    // Not due before its period: nobody runs it again.
    expect(await a.runUntilIdle()).toBe(0);
    await a.scheduleRecurring();
    expect(await db().select().from(jobs).where(eq(jobs.kind, 'test_tick'))).toHaveLength(1);
  });

  it('runs a failing recurring job again at its next period, never sooner, never failed for good', async () => {
    const runner = newRunner().every(
      'test_failing_tick',
      30_000,
      async () => {
        throw new Error('feed away');
      },
      { failureMessage: 'the test tick failed' },
    );
    await runner.scheduleRecurring();
    for (let round = 0; round < 3; round++) {
      const [row] = await db().select().from(jobs).where(eq(jobs.kind, 'test_failing_tick'));
      await makeDue(row!.id);
      expect(await runner.runUntilIdle()).toBe(1);
      expect(await jobRow(row!.id)).toMatchObject({ status: 'queued', lastError: 'feed away' });
      expect(await delaySeconds(row!.id)).toBe(30);
    }
    expect(t.logs()).toContain('the test tick failed');
  });

  it('run at once when asked to run soon, and again right after a run that was asked during it', async () => {
    let ran = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const runner = newRunner({ pollMs: 60_000 }).every('test_soon_tick', 60_000, async () => {
      ran += 1;
      if (ran === 2) await held;
    });
    await runner.scheduleRecurring();
    const [row] = await db().select().from(jobs).where(eq(jobs.kind, 'test_soon_tick'));
    runner.start();
    // The first run is at start; the next would be a minute later, but is asked for at once.
    await expect.poll(() => ran).toBe(1);
    await expect.poll(async () => (await jobRow(row!.id)).status).toBe('queued');
    runner.runSoon('test_soon_tick');
    await expect.poll(() => ran).toBe(2);
    // Asked again while the second run is under way: the third follows it, not a period later.
    runner.runSoon('test_soon_tick');
    release();
    await expect.poll(() => ran).toBe(3);
    await expect.poll(async () => (await jobRow(row!.id)).status).toBe('queued');
    await runner.stop();
    expect(await delaySeconds(row!.id)).toBe(60);
    expect(() => runner.runSoon('test_not_recurring')).toThrow(/Not a recurring job kind/);
  });

  it('are run by start() where background work runs, and by nothing on a web instance', async () => {
    let ran = 0;
    const worker = newRunner({ pollMs: 50 }).every('test_started_tick', 60_000, async () => void (ran += 1));
    const web = new JobRunner({ db: db(), log: t.app.log, reclaimOnStart: false, runsJobs: false }).every(
      'test_web_tick',
      60_000,
      async () => void (ran += 100),
    );
    web.start();
    worker.start();
    await expect.poll(() => ran).toBe(1);
    await worker.stop();
    await web.stop();
    expect(await db().select().from(jobs).where(eq(jobs.kind, 'test_web_tick'))).toHaveLength(0);
  });
});
