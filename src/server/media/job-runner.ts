// Runs the media jobs of the PostgreSQL queue, one at a time (ffmpeg takes every core it is given).
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import {
  failureDetail,
  MEDIA_FAILURES,
  MediaError,
  transcodingErrorMessage,
  type MediaTools,
} from './ffmpeg.js';
import {
  claimJob,
  completeJob,
  expireAllLeases,
  liveJobIds,
  PROCESS_VIDEO,
  releaseFailedJob,
  renewLease,
  requeueInterrupted,
  type ClaimedJob,
} from './jobs-repository.js';
import { REMOVE_MEDIA, REMOVE_MEDIA_RETRY_DELAYS_MS } from './media-removal.js';
import { processVideo, type StepTimings } from './process-video.js';
import type { MediaStorage } from './storage.js';
import type { VideoRecords } from './video-records.js';

export interface JobRunnerOptions {
  /** The job queue's database. */
  db: Db;
  /** Its videos' rows (the videos feature's). */
  videos: VideoRecords;
  storage: MediaStorage;
  /** Resolved on first use, so an app without ffmpeg still starts and serves everything else. */
  tools: () => MediaTools;
  workRoot: string;
  log: FastifyBaseLogger;
  /** The embedded database is one process's alone: leases left at start belong to a dead process. */
  reclaimOnStart: boolean;
  /** false on a web instance (ROLE=web, docs/decisions/023): it queues jobs for the workers and runs none. */
  runsJobs?: boolean;
  leaseMs?: number;
  pollMs?: number;
}

// A job has 3 attempts (jobs.max_attempts' default), so at most two retries: after 5 s, then 30 s.
const RETRY_DELAYS_MS = [5_000, 30_000];
const PREPARE_RETRY_MS = [1_000, 5_000, 30_000];

export class MediaJobRunner {
  readonly workerId = `w-${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private current: AbortController | null = null;

  constructor(private readonly options: JobRunnerOptions) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 2_000;
  }

  /**
   * Starts polling the queue (main.ts does; tests call runUntilIdle instead). Nothing stops it for good
   * but stop(): a failure to prepare (database away, disk full) is logged and tried again (issue 11).
   */
  start(): void {
    if (this.options.runsJobs === false) {
      this.options.log.info('media jobs: this instance queues them and runs none (ROLE=web)');
      return;
    }
    if (this.running) return;
    this.running = true;
    this.loop = this.prepareUntilDone().then(() => this.pollLoop());
  }

  /** Stops taking jobs; a job in progress is interrupted and goes back to the queue. */
  async stop(): Promise<void> {
    this.running = false;
    this.current?.abort();
    this.wake?.();
    await this.loop;
  }

  /** Whether the polling loop is on (start() was called on an instance that runs jobs, and not stopped). */
  get started(): boolean {
    return this.running;
  }

  /** A job was queued: look now rather than at the next poll (on this instance; workers elsewhere poll). */
  notify(): void {
    this.wake?.();
  }

  /** Runs due jobs until none is left; returns how many ran. For tests and scripts. */
  async runUntilIdle(): Promise<number> {
    if (this.options.runsJobs === false) throw new Error('a web instance (ROLE=web) runs no media jobs');
    await this.prepare();
    let count = 0;
    while (await this.runOne()) count += 1;
    return count;
  }

  private prepared = false;
  private async prepare(): Promise<void> {
    if (this.prepared) return;
    await mkdir(this.options.workRoot, { recursive: true });
    if (this.options.reclaimOnStart) {
      const reclaimed = await expireAllLeases(this.options.db);
      if (reclaimed > 0)
        this.options.log.info({ reclaimed }, 'media jobs interrupted by a stop are queued again');
    }
    await this.sweepWorkRoot();
    this.prepared = true;
  }

  private async prepareUntilDone(): Promise<void> {
    for (let attempt = 0; this.running && !this.prepared; attempt++) {
      try {
        await this.prepare();
      } catch (err) {
        const delay = PREPARE_RETRY_MS[Math.min(attempt, PREPARE_RETRY_MS.length - 1)]!;
        this.options.log.error({ err, retryInMs: delay }, 'media job runner could not start; trying again');
        await this.sleep(delay);
      }
    }
  }

  /**
   * Scratch folders are named after their job (job-<id>). At start, every folder whose job is not running
   * under another live worker's lease belongs to a run that died (kill -9): it goes now, not a day later.
   */
  private async sweepWorkRoot(): Promise<void> {
    const { workRoot, db, log } = this.options;
    const names = await readdir(workRoot).catch(() => [] as string[]);
    const jobIds = names.flatMap((name) => {
      const match = /^job-(\d+)$/.exec(name);
      return match ? [Number(match[1])] : [];
    });
    const live = await liveJobIds(db, jobIds);
    for (const name of names) {
      const match = /^job-(\d+)$/.exec(name);
      if (match && live.has(Number(match[1]))) continue;
      await rm(path.join(workRoot, name), { recursive: true, force: true }).catch((err: unknown) =>
        log.warn({ err, folder: name }, 'could not remove a media scratch folder'),
      );
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      this.wake = null;
    });
  }

  private async pollLoop(): Promise<void> {
    while (this.running) {
      let didWork = false;
      try {
        didWork = await this.runOne();
      } catch (err) {
        this.options.log.error({ err }, 'media job queue unavailable');
      }
      if (!didWork && this.running) await this.sleep(this.pollMs);
    }
  }

  /** Claims and runs one job; false when none was due. */
  private async runOne(): Promise<boolean> {
    const { db, log } = this.options;
    const job = await claimJob(db, this.workerId, this.leaseMs);
    if (!job) return false;
    if (job.attempts > job.maxAttempts) {
      await this.fail(job, 'Processing was interrupted too many times. Please retry.', null);
      return true;
    }
    const controller = new AbortController();
    this.current = controller;
    // The heartbeat: while we work, the lease keeps being extended; a crash lets it run out.
    const heartbeat = setInterval(
      () => {
        renewLease(db, job.id, this.workerId, this.leaseMs).then(
          (mine) => {
            if (!mine) controller.abort();
          },
          (err: unknown) => log.warn({ err, jobId: job.id }, 'could not renew a media job lease'),
        );
      },
      Math.max(1000, Math.floor(this.leaseMs / 3)),
    );
    try {
      const ms = await this.execute(job, controller.signal);
      await completeJob(db, job.id, this.workerId);
      log.info(
        { jobId: job.id, videoId: job.videoId, ms: { queued: job.waitedMs, ...ms } },
        'media job done',
      );
    } catch (err) {
      if (controller.signal.aborted && !this.running) {
        // Shutting down: back to the queue at once, and this attempt does not count.
        await requeueInterrupted(db, job.id, this.workerId).catch(() => {});
      } else {
        await this.handleFailure(job, err);
      }
    } finally {
      clearInterval(heartbeat);
      this.current = null;
    }
    return true;
  }

  private async execute(job: ClaimedJob, signal: AbortSignal): Promise<StepTimings> {
    if (job.kind === REMOVE_MEDIA && job.payload.prefix) {
      // A deleted video's files whose removal after the commit failed (media-removal.ts).
      const started = performance.now();
      await this.options.storage.removePrefix(job.payload.prefix);
      return { remove: Math.round(performance.now() - started) };
    }
    if (job.kind !== PROCESS_VIDEO || job.videoId === null)
      // Not the media's fault and not for the owner's eyes: the server's words, the kind in the log.
      throw new MediaError(MEDIA_FAILURES.server, { cause: new Error(`Unknown job kind: ${job.kind}`) });
    const { videos, storage, workRoot } = this.options;
    const workDir = path.join(workRoot, `job-${job.id}`);
    return processVideo(
      { videos, storage, tools: this.options.tools(), workDir, signal },
      job.videoId,
      job.payload,
    );
  }

  private async handleFailure(job: ClaimedJob, err: unknown): Promise<void> {
    const message = failureDetail(err);
    this.options.log.warn(
      { err, jobId: job.id, videoId: job.videoId, attempt: job.attempts },
      'media job failed',
    );
    // A broken file stays broken: fail at once. Anything else (disk full, database away) is worth a retry.
    if (err instanceof MediaError || job.attempts >= job.maxAttempts) {
      const reason = transcodingErrorMessage(err);
      await this.fail(job, reason, message);
      return;
    }
    const delays = job.kind === REMOVE_MEDIA ? REMOVE_MEDIA_RETRY_DELAYS_MS : RETRY_DELAYS_MS;
    const delay = delays[Math.min(job.attempts - 1, delays.length - 1)]!;
    await releaseFailedJob(this.options.db, job.id, this.workerId, message, delay);
    if (job.videoId !== null) {
      await this.options.videos.update(job.videoId, {
        transcodingStatus: 'pending',
        transcodingProgress: 0,
      });
    }
  }

  private async fail(job: ClaimedJob, reason: string, detail: string | null): Promise<void> {
    await releaseFailedJob(this.options.db, job.id, this.workerId, detail ?? reason, null);
    if (job.videoId !== null) {
      await this.options.videos.update(job.videoId, {
        transcodingStatus: 'failed',
        transcodingError: reason.slice(0, 1000),
      });
    }
  }
}
