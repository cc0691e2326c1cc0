// Removing a deleted video's files, durably (docs/decisions/022). The transaction that deletes the
// rows also queues a `remove_media` job for each folder (an outbox row: it commits or vanishes with them);
// the request then removes the files at once and marks its job done. Should that fail, or the process die
// first, the job runner takes the job when it falls due and retries it with a growing delay until the store
// answers: the files of a deleted video never stay behind for good, on disk or in a bucket.
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/client.js';
import { completeQueued, enqueue } from '../jobs/index.js';
import { REMOVE_MEDIA } from './media-jobs.js';
import type { MediaStorage } from './storage.js';

/** The request's own attempt comes first: the runner waits this long before it takes the job itself. */
const RUNNER_TAKES_OVER_AFTER_MS = 60_000;

export interface QueuedRemoval {
  jobId: number;
  prefix: string;
}

/** In the deleting transaction: one job per folder, so the removal commits with the rows or not at all. */
export async function queueMediaRemoval(tx: Executor, prefixes: string[]): Promise<QueuedRemoval[]> {
  const queued: QueuedRemoval[] = [];
  for (const prefix of prefixes) {
    const jobId = await enqueue(tx, REMOVE_MEDIA, { prefix }, { delayMs: RUNNER_TAKES_OVER_AFTER_MS });
    if (jobId !== null) queued.push({ jobId, prefix });
  }
  return queued;
}

/**
 * After the commit: removes the folders now and marks their jobs done. A failure is logged and left to the
 * runner (the job is still queued), so the caller's answer does not depend on the store being up.
 */
export async function removeQueuedMedia(
  db: Executor,
  storage: MediaStorage,
  queued: QueuedRemoval[],
  log?: FastifyBaseLogger,
): Promise<void> {
  const removed: number[] = [];
  for (const { jobId, prefix } of queued) {
    try {
      await storage.removePrefix(prefix);
      removed.push(jobId);
    } catch (err) {
      log?.warn({ err, prefix, jobId }, 'could not remove media now; the job runner will retry');
    }
  }
  if (removed.length === 0) return;
  try {
    await completeQueued(db, removed);
  } catch (err) {
    // The files are gone; the runner would only remove nothing again.
    log?.warn({ err }, 'could not mark media removals done');
  }
}
