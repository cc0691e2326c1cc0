// What a kind of job is: how it runs, how often it is retried and after what delays, how long its lease
// lasts, and which lane runs it. Features and the app define their jobs here and register them with the
// runner; the runner knows none of them (docs/decisions/029).
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';

export interface JobContext {
  /** The job's row id: stable across retries (a scratch folder can be named after it). */
  jobId: number;
  /** 1 on the first attempt. */
  attempt: number;
  /** From due to claimed: how long the job sat in the queue. */
  waitedMs: number;
  /** Aborted when the runner stops or loses the job's lease: stop and let the job go back to the queue. */
  signal: AbortSignal;
  db: Db;
  log: FastifyBaseLogger;
}

export interface JobRetry {
  /** Attempts in all, the first included. Interruptions by a crash count too. */
  attempts: number;
  /** Delay before retry n (n from 1); the last one repeats. */
  delaysMs: readonly number[];
  /** An error not worth retrying (a broken file stays broken): the job fails at once. */
  isPermanent?: (err: unknown) => boolean;
}

/**
 * A kind of job as its callers see it: they enqueue it with a typed payload. Its handler (what it does) is
 * given to the runner where its dependencies are at hand (JobRunner.handle).
 */
export interface JobDefinition<P = unknown> {
  kind: string;
  retry: JobRetry;
  /** Renewed every third of it while the job runs; a dead worker's job is taken again once it runs out. */
  leaseMs?: number;
  /**
   * Jobs of one lane run one at a time on each worker; lanes run beside each other. Media has its own
   * (ffmpeg takes every core), so a transcode never waits behind a sweep nor a sweep behind a transcode.
   */
  lane?: string;
  /** The log's words for a failed attempt ('media job failed'); 'job failed' by default. */
  failureMessage?: string;
  /** What the log says of the payload beside a failure (e.g. the video's id). */
  logFields?(payload: P): Record<string, unknown>;
}

export interface JobHandler<P> {
  run(payload: P, ctx: JobContext): Promise<void>;
  /** After an attempt failed and another is due (e.g. show the video as pending again). */
  onRetry?(payload: P, err: unknown, ctx: JobContext): Promise<void>;
  /** After the last attempt failed, or the error was permanent, or crashes used up the attempts. */
  onFailed?(payload: P, err: unknown, ctx: JobContext): Promise<void>;
  /** Once per runner, before its first job (e.g. clear the scratch folders of a run that crashed). */
  prepare?(ctx: { db: Db; log: FastifyBaseLogger }): Promise<void>;
}

export const DEFAULT_LANE = 'default';
/** Jobs that wait on outside services (feeds, market providers): a slow answer holds up no sweep. */
export const OUTSIDE_LANE = 'outside';

/** Typed identity: the payload's type is checked where the job is enqueued and where it runs. */
export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

/** A job taken more times than it has attempts: its workers kept dying (or being stopped) under it. */
export class JobInterruptedError extends Error {
  constructor() {
    super('The job was interrupted too many times');
    this.name = 'JobInterruptedError';
  }
}
