// The job queue's SQL (docs/decisions/029). Plain PostgreSQL: it runs on PGlite and on a server alike.
import { and, eq, inArray, sql } from '#server/db/drizzle.js';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { jobs } from '../db/schema.js';
import type { JobDefinition } from './job-definition.js';

export type JobRow = typeof jobs.$inferSelect;

export interface EnqueueOptions {
  /** When the job falls due; now by default. */
  runAt?: Date;
  /** Or this long from the database's now. */
  delayMs?: number;
  /** At most one live (queued or running) job per key: while one is, enqueueing another is a no-op. */
  key?: string;
}

/**
 * Queues a job, in the caller's transaction when given one: it commits or vanishes with the caller's rows.
 * Returns the new row's id, or null when a live job already holds `key`.
 */
export async function enqueue<P>(
  db: Executor,
  job: JobDefinition<P>,
  payload: P,
  options: EnqueueOptions = {},
): Promise<number | null> {
  const runAt = options.runAt
    ? sql`${options.runAt.toISOString()}::timestamptz`
    : sql`now() + ${options.delayMs ?? 0} * interval '1 millisecond'`;
  const result = await db.execute(sql`
    insert into ${jobs} (kind, payload, key, max_attempts, run_at)
    values (${job.kind}, ${JSON.stringify(payload ?? {})}::jsonb, ${options.key ?? null},
      ${job.retry.attempts}, ${runAt})
    on conflict (key) where status in ('queued', 'running') do nothing
    returning id`);
  const row = rowsOf<{ id: number }>(result)[0];
  return row ? row.id : null;
}

/** Whether a job holding this key is queued or running. */
export async function hasLiveJob(db: Executor, key: string): Promise<boolean> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.key, key), sql`${jobs.status} in ('queued', 'running')`))
    .limit(1);
  return rows.length > 0;
}

/**
 * Marks done the jobs of these ids that nobody has taken yet: their work was done where they were queued
 * (a deleted video's files removed by the request itself), so the runner need not do it again.
 */
export async function completeQueued(db: Executor, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(jobs)
    .set({ status: 'done', finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(inArray(jobs.id, ids), eq(jobs.status, 'queued')));
}

interface RawJob {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  /** bigint: pg gives it as a string, PGlite as a number or a bigint. */
  waited_ms: number | string | bigint;
}

export interface ClaimedJob {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  /** From due to claimed: how long the job sat in the queue (the log's figure). */
  waitedMs: number;
}

/**
 * Takes the oldest due job of these kinds, or one whose worker's lease ran out (it crashed), and leases it
 * to this worker. SKIP LOCKED: two workers never take the same job, and neither waits for the other.
 */
export async function claimJob(
  db: Executor,
  workerId: string,
  kinds: readonly string[],
  leaseMs: number | ((kind: string) => number),
): Promise<ClaimedJob | null> {
  if (kinds.length === 0) return null;
  const kindList = sql.join(
    kinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  // Leases differ per kind: the lease is set in the same statement, so it is computed per row in SQL.
  const lease =
    typeof leaseMs === 'number'
      ? sql`${leaseMs}`
      : sql`case kind ${sql.join(
          kinds.map((kind) => sql`when ${kind} then ${leaseMs(kind)}`),
          sql` `,
        )} end`;
  const result = await db.execute(sql`
    update ${jobs}
    set status = 'running',
        attempts = attempts + 1,
        locked_by = ${workerId},
        locked_until = now() + (${lease})::int * interval '1 millisecond',
        updated_at = now()
    where id = (
      select id from ${jobs}
      where kind in (${kindList})
        and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))
      order by run_at, id
      limit 1
      for update skip locked
    )
    returning id, kind, payload, attempts, max_attempts,
      (extract(epoch from clock_timestamp() - run_at) * 1000)::bigint as waited_ms`);
  const row = rowsOf<RawJob>(result)[0];
  if (!row) return null;
  const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
  return {
    id: row.id,
    kind: row.kind,
    payload: payload ?? {},
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    // An int4 of milliseconds overflowed for a job due more than ~24.8 days ago; as a double it is exact up
    // to 285,000 years.
    waitedMs: Number(row.waited_ms),
  };
}

/** Extends this worker's lease; false when the job is no longer ours (deleted, or taken over). */
export async function renewLease(
  db: Executor,
  jobId: number,
  workerId: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: sql`now() + ${leaseMs} * interval '1 millisecond'`, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

export async function completeJob(db: Executor, jobId: number, workerId: string): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: 'done',
      lockedBy: null,
      lockedUntil: null,
      lastError: null,
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, workerId)));
}

/** A recurring job's run ended (well or not): the same row is due again `everyMs` from now. */
export async function rescheduleJob(
  db: Executor,
  jobId: number,
  workerId: string,
  everyMs: number,
  error: string | null,
): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: 'queued',
      attempts: 0,
      runAt: sql`now() + ${everyMs} * interval '1 millisecond'`,
      lastError: error,
      lockedBy: null,
      lockedUntil: null,
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, workerId)));
}

/**
 * The one row of a recurring kind: made if missing (several workers starting at once make one), due
 * `firstInMs` from now. A row already there keeps its schedule.
 */
export async function ensureRecurring(
  db: Executor,
  kind: string,
  key: string,
  firstInMs: number,
): Promise<void> {
  await db.execute(sql`
    insert into ${jobs} (kind, payload, key, max_attempts, run_at)
    values (${kind}, '{}'::jsonb, ${key}, 1, now() + ${firstInMs} * interval '1 millisecond')
    on conflict (key) where status in ('queued', 'running') do nothing`);
}

/** Brings a waiting recurring job's next run forward to now (nothing while it runs, or when due already). */
export async function runRecurringNow(db: Executor, key: string): Promise<void> {
  await db
    .update(jobs)
    .set({ runAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(jobs.key, key), eq(jobs.status, 'queued'), sql`${jobs.runAt} > now()`));
}

/** Puts the job back in the queue after `delayMs`, or fails it for good when `retryInMs` is null. */
export async function releaseFailedJob(
  db: Executor,
  jobId: number,
  workerId: string,
  error: string,
  retryInMs: number | null,
): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: retryInMs === null ? 'failed' : 'queued',
      runAt: retryInMs === null ? sql`run_at` : sql`now() + ${retryInMs} * interval '1 millisecond'`,
      lastError: error,
      lockedBy: null,
      lockedUntil: null,
      finishedAt: retryInMs === null ? sql`now()` : null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, workerId)));
}

/** A shutdown interrupted the job: queue it again at once, without counting the attempt against it. */
export async function requeueInterrupted(db: Executor, jobId: number, workerId: string): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: 'queued',
      attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
      lastError: 'Interrupted by a shutdown',
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, workerId)));
}

/**
 * Embedded database only: the data directory is locked to one process, so every 'running' job at start
 * belonged to a process that is gone. Expire their leases now instead of waiting them out.
 */
export async function expireAllLeases(db: Executor): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: sql`now() - interval '1 second'` })
    .where(eq(jobs.status, 'running'))
    .returning({ id: jobs.id });
  return rows.length;
}

/** Which of these jobs are running under a lease that has not run out (another live worker's). */
export async function liveJobIds(db: Executor, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running'), sql`${jobs.lockedUntil} > now()`));
  return new Set(rows.map((row) => row.id));
}
