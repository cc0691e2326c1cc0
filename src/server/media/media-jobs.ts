// The media's two kinds of job (docs/decisions/008, 029): processing an uploaded video, and removing a
// deleted video's files. Both run in the media lane, one at a time per worker: ffmpeg takes every core.
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/client.js';
import {
  defineJob,
  enqueue,
  hasLiveJob,
  JobInterruptedError,
  liveJobIds,
  type JobRunner,
} from '../jobs/index.js';
import { MediaError, transcodingErrorMessage, type MediaTools } from './ffmpeg.js';
import { processVideo, type ProcessVideoSource } from './process-video.js';
import type { MediaStorage } from './storage.js';
import type { VideoRecords } from './video-records.js';

export const MEDIA_LANE = 'media';

export interface ProcessVideoPayload extends ProcessVideoSource {
  videoId: number;
}

/** A `remove_media` job's: the folder of a deleted video (media-removal.ts). */
export interface RemoveMediaPayload {
  prefix: string;
}

/**
 * Three attempts, so at most two retries: after 5 s, then 30 s. A MediaError (the file is not a video we
 * can read) fails at once: a broken file stays broken.
 */
export const PROCESS_VIDEO = defineJob<ProcessVideoPayload>({
  kind: 'process_video',
  retry: { attempts: 3, delaysMs: [5_000, 30_000], isPermanent: (err) => err instanceof MediaError },
  lane: MEDIA_LANE,
  failureMessage: 'media job failed',
  logFields: (payload) => ({ videoId: payload.videoId }),
});

/**
 * Never given up: a removal is retried for as long as it fails, from 5 s up to an hour, then hourly (the
 * attempts are the largest int4).
 */
export const REMOVE_MEDIA = defineJob<RemoveMediaPayload>({
  kind: 'remove_media',
  retry: { attempts: 2_147_483_647, delaysMs: [5_000, 30_000, 120_000, 600_000, 3_600_000] },
  lane: MEDIA_LANE,
  failureMessage: 'media job failed',
  logFields: (payload) => ({ prefix: payload.prefix }),
});

/** One live processing per video: the key a video's processing jobs share. */
const processingKey = (videoId: number) => `${PROCESS_VIDEO.kind}:${videoId}`;

/** In the caller's transaction: the video is processed once it commits. */
export async function queueVideoProcessing(
  tx: Executor,
  videoId: number,
  source: ProcessVideoSource = {},
): Promise<void> {
  await enqueue(tx, PROCESS_VIDEO, { videoId, ...source }, { key: processingKey(videoId) });
}

/** A processing job queued or running: the retry endpoint must not start a second one beside it. */
export function isVideoProcessingLive(db: Executor, videoId: number): Promise<boolean> {
  return hasLiveJob(db, processingKey(videoId));
}

export interface MediaJobDeps {
  /** Its videos' rows (the videos feature's). */
  videos: VideoRecords;
  storage: MediaStorage;
  /** Resolved on first use, so an app without ffmpeg still starts and serves everything else. */
  tools: () => MediaTools;
  /** DATA_DIR/work: the jobs' scratch folders, job-<id>. */
  workRoot: string;
}

/** Gives the runner the media's handlers. */
export function handleMediaJobs(runner: JobRunner, deps: MediaJobDeps): void {
  const { videos, storage, workRoot } = deps;

  runner.handle(PROCESS_VIDEO, {
    prepare: async ({ db, log }) => {
      await mkdir(workRoot, { recursive: true });
      await sweepWorkRoot(workRoot, (ids) => liveJobIds(db, ids), log);
    },
    run: async (payload, ctx) => {
      const workDir = path.join(workRoot, `job-${ctx.jobId}`);
      const ms = await processVideo(
        { videos, storage, tools: deps.tools(), workDir, signal: ctx.signal },
        payload.videoId,
        payload,
      );
      ctx.log.info(
        { jobId: ctx.jobId, videoId: payload.videoId, ms: { queued: ctx.waitedMs, ...ms } },
        'media job done',
      );
    },
    onRetry: async (payload) => {
      await videos.update(payload.videoId, { transcodingStatus: 'pending', transcodingProgress: 0 });
    },
    onFailed: async (payload, err) => {
      // The owner reads product words; ffmpeg's or Node's own text stays in the job's last_error and the log.
      const reason =
        err instanceof JobInterruptedError
          ? 'Processing was interrupted too many times. Please retry.'
          : transcodingErrorMessage(err);
      await videos.update(payload.videoId, {
        transcodingStatus: 'failed',
        transcodingError: reason.slice(0, 1000),
      });
    },
  });

  runner.handle(REMOVE_MEDIA, {
    // A deleted video's files whose removal after the commit failed (media-removal.ts).
    run: async (payload, ctx) => {
      if (!payload.prefix) return;
      const started = performance.now();
      await storage.removePrefix(payload.prefix);
      ctx.log.info(
        { jobId: ctx.jobId, ms: { queued: ctx.waitedMs, remove: Math.round(performance.now() - started) } },
        'media job done',
      );
    },
  });
}

/**
 * Scratch folders are named after their job (job-<id>). At start, every folder whose job is not running
 * under another live worker's lease belongs to a run that died (kill -9): it goes now, not a day later.
 */
async function sweepWorkRoot(
  workRoot: string,
  live: (ids: number[]) => Promise<Set<number>>,
  log: FastifyBaseLogger,
): Promise<void> {
  const names = await readdir(workRoot).catch(() => [] as string[]);
  const jobIds = names.flatMap((name) => {
    const match = /^job-(\d+)$/.exec(name);
    return match ? [Number(match[1])] : [];
  });
  const running = await live(jobIds);
  for (const name of names) {
    const match = /^job-(\d+)$/.exec(name);
    if (match && running.has(Number(match[1]))) continue;
    await rm(path.join(workRoot, name), { recursive: true, force: true }).catch((err: unknown) =>
      log.warn({ err, folder: name }, 'could not remove a media scratch folder'),
    );
  }
}
