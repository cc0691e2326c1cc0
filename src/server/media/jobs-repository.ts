// The media job queue's SQL (docs/decisions/008). Plain PostgreSQL: it runs on PGlite and on a server alike.
import { and, eq, inArray, sql } from '#server/db/drizzle.js';
import type { Executor } from '../db/client.js';
import { jobs } from '../db/schema.js';
import { rowsOf } from '../db/rows.js';

export type JobRow = typeof jobs.$inferSelect;

export const PROCESS_VIDEO = 'process_video';

export interface ProcessVideoPayload {
  /** A local file to take in as the video's original first (an upload that has just finished). */
  source?: string;
  /** The same, waiting in the bucket under this key (media in S3: issue 16). */
  sourceKey?: string;
}

/** A `remove_media` job's: the folder of a deleted video (media-removal.ts). */
export interface RemoveMediaPayload {
  prefix: string;
}

export async function enqueueJob(
  db: Executor,
  job: { kind: string; videoId: number; payload: ProcessVideoPayload },
): Promise<JobRow> {
  // max_attempts keeps its column default, 3: the runner's RETRY_DELAYS_MS holds one delay per retry.
  const rows = await db
    .insert(jobs)
    .values({ kind: job.kind, videoId: job.videoId, payload: job.payload })
    .returning();
  return rows[0]!;
}

interface RawJob {
  id: number;
  kind: string;
  video_id: number | null;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  /** bigint: pg gives it as a string, PGlite as a number or a bigint. */
  waited_ms: number | string | bigint;
}

export interface ClaimedJob {
  id: number;
  kind: string;
  videoId: number | null;
  payload: ProcessVideoPayload & Partial<RemoveMediaPayload>;
  attempts: number;
  maxAttempts: number;
  /** From due to claimed: how long the job sat in the queue (the log's figure). */
  waitedMs: number;
}

/**
 * Takes the oldest due job, or one whose worker's lease ran out (it crashed), and leases it to this
 * worker. SKIP LOCKED: two workers never take the same job, and neither waits for the other.
 */
export async function claimJob(db: Executor, workerId: string, leaseMs: number): Promise<ClaimedJob | null> {
  const result = await db.execute(sql`
    update ${jobs}
    set status = 'running',
        attempts = attempts + 1,
        locked_by = ${workerId},
        locked_until = now() + ${leaseMs} * interval '1 millisecond',
        updated_at = now()
    where id = (
      select id from ${jobs}
      where (status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now())
      order by run_at, id
      limit 1
      for update skip locked
    )
    returning id, kind, video_id, payload, attempts, max_attempts,
      (extract(epoch from clock_timestamp() - run_at) * 1000)::bigint as waited_ms`);
  const row = rowsOf<RawJob>(result)[0];
  if (!row) return null;
  const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
  return {
    id: row.id,
    kind: row.kind,
    videoId: row.video_id,
    payload: (payload ?? {}) as ClaimedJob['payload'],
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

/** Jobs queued or running: the retry endpoint must not start a second one beside them. */
export async function hasLiveJob(db: Executor, videoId: number): Promise<boolean> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.videoId, videoId), sql`${jobs.status} in ('queued', 'running')`))
    .limit(1);
  return rows.length > 0;
}
