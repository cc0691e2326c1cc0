import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.js';
import { recordViews } from './videos-repository.js';

interface PendingView {
  videoId: number;
  viewerKey: string;
  settle: (counted: boolean) => void;
}

/**
 * Views are written in groups (counting a view must not serialise reads): the first view to
 * arrive opens a short window, every view arriving in it joins, and one statement writes them all. Each
 * caller still learns whether its own view counted, from the database, once the group is written; under
 * a crowd the database sees a few statements a second instead of one per page view.
 */
export class ViewCounter {
  static readonly WINDOW_MS = 100;
  static readonly MAX_GROUP = 500;
  private pending: PendingView[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** Called with the videos whose counters moved (their cached copies are stale). */
    private readonly onCounted: (videoIds: number[]) => void,
  ) {}

  /** Resolves once written: true when this view counted. A failure is logged and counts as not counted. */
  record(videoId: number, viewerKey: string): Promise<boolean> {
    return new Promise((settle) => {
      this.pending.push({ videoId, viewerKey, settle });
      if (this.pending.length >= ViewCounter.MAX_GROUP) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), ViewCounter.WINDOW_MS);
    });
  }

  /** Writes what is waiting now (also at shutdown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const group = this.pending;
    this.pending = [];
    if (group.length === 0) return this.writing;
    // One group at a time, in order: a second window waits for the first to be written.
    this.writing = this.writing.then(() => this.write(group));
    return this.writing;
  }

  private async write(group: PendingView[]): Promise<void> {
    let counted = new Set<string>();
    try {
      const rows = await recordViews(
        this.db,
        group.map(({ videoId, viewerKey }) => ({ videoId, viewerKey })),
      );
      counted = new Set(rows.map((row) => `${row.videoId}|${row.viewerKey}`));
      if (rows.length > 0) this.onCounted([...new Set(rows.map((row) => row.videoId))]);
    } catch (err) {
      this.log.warn({ err, views: group.length }, 'could not count views');
    }
    for (const view of group) {
      const key = `${view.videoId}|${view.viewerKey}`;
      // The same viewer twice in one group counts once: the first asker hears yes.
      view.settle(counted.delete(key));
    }
  }
}
