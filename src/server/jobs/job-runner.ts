// Runs the jobs of the database queue (docs/decisions/029): one loop per lane, each taking one job at a time
// with FOR UPDATE SKIP LOCKED, a lease renewed while the job runs, retries after the job's own delays, and
// recurring jobs (one row per kind, rescheduled by its own run, so one of several workers runs each tick).
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import {
  DEFAULT_LANE,
  JobInterruptedError,
  type JobContext,
  type JobDefinition,
  type JobHandler,
} from './job-definition.js';
import {
  claimJob,
  completeJob,
  ensureRecurring,
  expireAllLeases,
  releaseFailedJob,
  renewLease,
  requeueInterrupted,
  rescheduleJob,
  runRecurringNow,
  type ClaimedJob,
} from './jobs-repository.js';

export interface JobRunnerOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** The embedded database is one process's alone: leases left at start belong to a dead process. */
  reclaimOnStart: boolean;
  /** false on a web instance (ROLE=web, docs/decisions/023): it queues jobs for the workers and runs none. */
  runsJobs?: boolean;
  /** A job's lease unless its definition says otherwise. */
  leaseMs?: number;
  pollMs?: number;
}

export interface RecurringOptions {
  lane?: string;
  leaseMs?: number;
  /** When the row is first made: due this long after (0: at once). A row already there keeps its time. */
  firstInMs?: number;
  /** The log's words for a failed run; 'job failed' by default. */
  failureMessage?: string;
}

/** What one lane of the runner offers: the media lane is the app's `mediaJobs`. */
export interface JobLane {
  /** Runs this lane's due jobs until none is left; returns how many ran. For tests and scripts. */
  runUntilIdle(): Promise<number>;
  /** A job of this lane was queued here: look now rather than at the next poll. */
  notify(): void;
  /** Starts the whole runner (every lane), as JobRunner.start. */
  start(): void;
  readonly started: boolean;
}

interface Registered {
  definition: JobDefinition<never>;
  handler: JobHandler<never>;
  /** Set for a recurring job: its period. */
  everyMs?: number;
  firstInMs?: number;
}

const PREPARE_RETRY_MS = [1_000, 5_000, 30_000];

const laneOf = (definition: JobDefinition<never>) => definition.lane ?? DEFAULT_LANE;

/** The key of a recurring kind's one row. */
export const recurringKey = (kind: string) => `every:${kind}`;

export class JobRunner {
  readonly workerId = `w-${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly registered = new Map<string, Registered>();
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly wakers = new Map<string, () => void>();
  private readonly current = new Set<AbortController>();

  constructor(private readonly options: JobRunnerOptions) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 2_000;
  }

  /** Gives a kind of job its handler. Before start(): a lane's loop is made when the runner starts. */
  handle<P>(definition: JobDefinition<P>, handler: JobHandler<P>): this {
    if (this.registered.has(definition.kind)) throw new Error(`Job kind already handled: ${definition.kind}`);
    this.registered.set(definition.kind, {
      definition: definition as JobDefinition<never>,
      handler: handler as JobHandler<never>,
    });
    return this;
  }

  /**
   * A job run every `everyMs` where background work runs: one row for the kind, made at start() and put
   * back `everyMs` after each run ends (well or not), so several workers run it once per period between them.
   */
  every(
    kind: string,
    everyMs: number,
    run: (ctx: JobContext) => Promise<unknown>,
    options: RecurringOptions = {},
  ): this {
    if (this.registered.has(kind)) throw new Error(`Job kind already handled: ${kind}`);
    this.registered.set(kind, {
      definition: {
        kind,
        retry: { attempts: 1, delaysMs: [] },
        ...(options.lane !== undefined && { lane: options.lane }),
        ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
        ...(options.failureMessage !== undefined && { failureMessage: options.failureMessage }),
      },
      handler: { run: (_payload: never, ctx: JobContext) => run(ctx).then(() => {}) },
      everyMs,
      firstInMs: options.firstInMs ?? 0,
    });
    return this;
  }

  /** The kinds handled here, by lane. */
  private lanes(): Map<string, string[]> {
    const lanes = new Map<string, string[]>();
    for (const [kind, { definition }] of this.registered) {
      const lane = laneOf(definition);
      lanes.set(lane, [...(lanes.get(lane) ?? []), kind]);
    }
    return lanes;
  }

  /**
   * Starts polling the queue (main.ts does; tests call runUntilIdle instead). Nothing stops it for good
   * but stop(): a failure to prepare (database away, disk full) is logged and tried again.
   */
  start(): void {
    if (this.options.runsJobs === false) {
      this.options.log.info('jobs: this instance queues them and runs none (ROLE=web)');
      return;
    }
    if (this.running) return;
    this.running = true;
    this.loops = [...this.lanes().keys()].map((lane) =>
      this.prepareUntilDone(lane).then(() => this.pollLoop(lane)),
    );
  }

  /** Stops taking jobs; a job in progress is interrupted and goes back to the queue. */
  async stop(): Promise<void> {
    this.running = false;
    for (const controller of this.current) controller.abort();
    for (const wake of this.wakers.values()) wake();
    await Promise.all(this.loops);
  }

  /** Whether the polling loops are on (start() was called on an instance that runs jobs, and not stopped). */
  get started(): boolean {
    return this.running;
  }

  /** A job was queued: look now rather than at the next poll (on this instance; workers elsewhere poll). */
  notify(lane?: string): void {
    if (lane === undefined) for (const wake of this.wakers.values()) wake();
    else this.wakers.get(lane)?.();
  }

  /** How many times each recurring kind was asked to run soon: a run that saw the count move runs again. */
  private readonly wakes = new Map<string, number>();
  private readonly bringingForward = new Set<string>();

  /**
   * A recurring job runs now rather than at its next period (work for it was just committed): its waiting
   * row is made due and this instance's lane woken; if it is running here, it runs again once done.
   */
  runSoon(kind: string): void {
    const entry = this.registered.get(kind);
    if (entry?.everyMs === undefined) throw new Error(`Not a recurring job kind: ${kind}`);
    this.wakes.set(kind, (this.wakes.get(kind) ?? 0) + 1);
    // One update in flight is enough: it makes the row due, and the run that follows sees what came since.
    if (this.bringingForward.has(kind)) return;
    this.bringingForward.add(kind);
    runRecurringNow(this.options.db, recurringKey(kind))
      .then(
        () => this.notify(laneOf(entry.definition)),
        (err: unknown) => this.options.log.warn({ err, kind }, 'could not bring a recurring job forward'),
      )
      .finally(() => this.bringingForward.delete(kind));
  }

  /** Runs due jobs (of one lane, or all) until none is left; returns how many ran. For tests and scripts. */
  async runUntilIdle(lane?: string): Promise<number> {
    if (this.options.runsJobs === false) throw new Error('a web instance (ROLE=web) runs no jobs');
    const lanes = lane === undefined ? [...this.lanes().keys()] : [lane];
    for (const name of lanes) await this.prepare(name);
    let count = 0;
    for (let ran = true; ran;) {
      ran = false;
      for (const name of lanes)
        while (await this.runOne(name)) {
          count += 1;
          ran = true;
        }
    }
    return count;
  }

  /** One lane's view, for the code that owns it (the app's `mediaJobs`). */
  lane(name: string): JobLane {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the view's getter reads the runner's state
    const runner = this;
    return {
      runUntilIdle: () => runner.runUntilIdle(name),
      notify: () => runner.notify(name),
      start: () => runner.start(),
      get started() {
        return runner.started;
      },
    };
  }

  /** Makes the rows of the recurring jobs (of one lane, or all) that have none. start() does; tests may. */
  async scheduleRecurring(lane?: string): Promise<void> {
    for (const [kind, entry] of this.registered)
      if (entry.everyMs !== undefined && (lane === undefined || laneOf(entry.definition) === lane))
        await ensureRecurring(this.options.db, kind, recurringKey(kind), entry.firstInMs ?? 0);
  }

  /** The embedded database's leases, expired once per runner before its first claim. */
  private reclaiming: Promise<void> | null = null;
  private reclaim(): Promise<void> {
    if (!this.options.reclaimOnStart) return Promise.resolve();
    this.reclaiming ??= expireAllLeases(this.options.db).then(
      (reclaimed) => {
        if (reclaimed > 0)
          this.options.log.info({ reclaimed }, 'jobs interrupted by a stop are queued again');
      },
      (err: unknown) => {
        this.reclaiming = null;
        throw err;
      },
    );
    return this.reclaiming;
  }

  /** Each lane prepares apart: media's scratch folder failing to be made holds up no sweep. */
  private readonly preparedLanes = new Set<string>();
  private async prepare(lane: string): Promise<void> {
    if (this.preparedLanes.has(lane)) return;
    const { db, log } = this.options;
    await this.reclaim();
    for (const entry of this.registered.values())
      if (laneOf(entry.definition) === lane) await entry.handler.prepare?.({ db, log });
    this.preparedLanes.add(lane);
  }

  private async prepareUntilDone(lane: string): Promise<void> {
    let scheduled = false;
    for (let attempt = 0; this.running && !scheduled; attempt++) {
      try {
        await this.prepare(lane);
        await this.scheduleRecurring(lane);
        scheduled = true;
      } catch (err) {
        const delay = PREPARE_RETRY_MS[Math.min(attempt, PREPARE_RETRY_MS.length - 1)]!;
        const name = lane === DEFAULT_LANE ? 'job runner' : `${lane} job runner`;
        this.options.log.error({ err, retryInMs: delay, lane }, `${name} could not start; trying again`);
        await this.sleep(delay, lane);
      }
    }
  }

  private sleep(ms: number, lane: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakers.set(lane, () => {
        clearTimeout(timer);
        resolve();
      });
    }).finally(() => {
      this.wakers.delete(lane);
    });
  }

  private async pollLoop(lane: string): Promise<void> {
    while (this.running) {
      let didWork = false;
      try {
        didWork = await this.runOne(lane);
      } catch (err) {
        this.options.log.error({ err, lane }, 'job queue unavailable');
      }
      if (!didWork && this.running) await this.sleep(this.pollMs, lane);
    }
  }

  private leaseOf(kind: string): number {
    return this.registered.get(kind)?.definition.leaseMs ?? this.leaseMs;
  }

  /** Claims and runs one job of the lane; false when none was due. */
  private async runOne(lane: string): Promise<boolean> {
    const { db, log } = this.options;
    const kinds = this.lanes().get(lane) ?? [];
    const job = await claimJob(db, this.workerId, kinds, (kind) => this.leaseOf(kind));
    if (!job) return false;
    const entry = this.registered.get(job.kind)!;
    const controller = new AbortController();
    const ctx: JobContext = {
      jobId: job.id,
      attempt: job.attempts,
      waitedMs: job.waitedMs,
      signal: controller.signal,
      db,
      log,
    };
    const payload = job.payload as never;
    if (entry.everyMs === undefined && job.attempts > job.maxAttempts) {
      await this.fail(job, entry, ctx, new JobInterruptedError());
      return true;
    }
    this.current.add(controller);
    const leaseMs = this.leaseOf(job.kind);
    const wakesBefore = this.wakes.get(job.kind) ?? 0;
    const nextInMs = (everyMs: number) => ((this.wakes.get(job.kind) ?? 0) > wakesBefore ? 0 : everyMs);
    // The heartbeat: while we work, the lease keeps being extended; a crash lets it run out.
    const heartbeat = setInterval(
      () => {
        renewLease(db, job.id, this.workerId, leaseMs).then(
          (mine) => {
            if (!mine) controller.abort();
          },
          (err: unknown) => log.warn({ err, jobId: job.id, kind: job.kind }, 'could not renew a job lease'),
        );
      },
      Math.max(1000, Math.floor(leaseMs / 3)),
    );
    try {
      await entry.handler.run(payload, ctx);
      if (entry.everyMs !== undefined)
        await rescheduleJob(db, job.id, this.workerId, nextInMs(entry.everyMs), null);
      else await completeJob(db, job.id, this.workerId);
    } catch (err) {
      if (controller.signal.aborted && !this.running) {
        // Shutting down: back to the queue at once, and this attempt does not count.
        await requeueInterrupted(db, job.id, this.workerId).catch(() => {});
      } else if (entry.everyMs !== undefined) {
        log.warn({ err, jobId: job.id, kind: job.kind }, entry.definition.failureMessage ?? 'job failed');
        // A recurring job is not retried early: its next run is its next period.
        await rescheduleJob(db, job.id, this.workerId, entry.everyMs, errorText(err));
      } else {
        await this.handleFailure(job, entry, ctx, err);
      }
    } finally {
      clearInterval(heartbeat);
      this.current.delete(controller);
    }
    return true;
  }

  private async handleFailure(
    job: ClaimedJob,
    entry: Registered,
    ctx: JobContext,
    err: unknown,
  ): Promise<void> {
    const { definition, handler } = entry;
    const payload = job.payload as never;
    this.options.log.warn(
      { err, jobId: job.id, kind: job.kind, attempt: job.attempts, ...definition.logFields?.(payload) },
      definition.failureMessage ?? 'job failed',
    );
    if (definition.retry.isPermanent?.(err) || job.attempts >= job.maxAttempts) {
      await this.fail(job, entry, ctx, err);
      return;
    }
    const delays = definition.retry.delaysMs;
    const delay = delays.length === 0 ? 0 : delays[Math.min(job.attempts - 1, delays.length - 1)]!;
    await releaseFailedJob(this.options.db, job.id, this.workerId, errorText(err), delay);
    await handler.onRetry?.(payload, err, ctx);
  }

  private async fail(job: ClaimedJob, entry: Registered, ctx: JobContext, err: unknown): Promise<void> {
    await releaseFailedJob(this.options.db, job.id, this.workerId, errorText(err), null);
    await entry.handler.onFailed?.(job.payload as never, err, ctx);
  }
}

/** The raw text of a failure, its cause included, for the job's last_error (never shown to a client). */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message} (${err.cause.message})` : err.message;
}
