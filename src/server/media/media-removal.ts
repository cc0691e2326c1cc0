// Removing a deleted video's files, durably (issue 16, docs/decisions/022). The transaction that deletes the
// rows also queues a `remove_media` job for each folder (an outbox row: it commits or vanishes with them);
// the request then removes the files at once and marks its job done. Should that fail, or the process die
// first, the job runner takes the job when it falls due and retries it with a growing delay until the store
// answers: the files of a deleted video never stay behind for good, on disk or in a bucket.
import { and, eq, inArray, sql } from '#server/db/drizzle.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/client.js';
import { jobs } from '../db/schema.js';
import type { MediaStorage } from './storage.js';

export const REMOVE_MEDIA = 'remove_media';

/** The request's own attempt comes first: the runner waits this long before it takes the job itself. */
const RUNNER_TAKES_OVER_AFTER_MS = 60_000;
/** Never given up: a removal is retried for as long as it fails (the runner's attempt cap is for media). */
export const REMOVE_MEDIA_MAX_ATTEMPTS = 2_147_483_647;
/** The runner's delays between attempts: from 5 s up to an hour, then hourly. */
export const REMOVE_MEDIA_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000];

export interface QueuedRemoval {
  jobId: number;
  prefix: string;
}

/** In the deleting transaction: one job per folder, so the removal commits with the rows or not at all. */
export async function queueMediaRemoval(tx: Executor, prefixes: string[]): Promise<QueuedRemoval[]> {
  if (prefixes.length === 0) return [];
  const rows = await tx
    .insert(jobs)
    .values(
      prefixes.map((prefix) => ({
        kind: REMOVE_MEDIA,
        payload: { prefix },
        maxAttempts: REMOVE_MEDIA_MAX_ATTEMPTS,
        runAt: sql`now() + ${RUNNER_TAKES_OVER_AFTER_MS} * interval '1 millisecond'`,
      })),
    )
    .returning({ id: jobs.id, payload: jobs.payload });
  return rows.map((row) => ({ jobId: row.id, prefix: (row.payload as { prefix: string }).prefix }));
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
    await db
      .update(jobs)
      .set({ status: 'done', finishedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(inArray(jobs.id, removed), eq(jobs.status, 'queued')));
  } catch (err) {
    // The files are gone; the runner would only remove nothing again.
    log?.warn({ err }, 'could not mark media removals done');
  }
}
