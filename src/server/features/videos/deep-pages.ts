import type { FastifyBaseLogger } from 'fastify';
import type { VideoListQuery } from '#common/schemas/videos.js';
import type { Executor } from '#server/db/client.js';
import {
  listPublicVideos,
  sortKeysEvery,
  type ColumnSort as VideoSort,
  type SortKey,
  type VideoWithCapper,
} from './videos-repository.js';

interface Checkpoints {
  /** keys[k]: the video at position (k + 1)·EVERY − 1 of the order, counted from 0. */
  keys: SortKey[];
  /** When the scan was sent: it read the catalog as of this moment or later. */
  builtAt: number;
  /** DeepPages' generation when the scan was sent; any change since (clear()) makes them useless. */
  generation: number;
  /** How many times counters had moved (views) when the scan was sent. */
  countersMoved: number;
}

/**
 * Deep pages of the whole public catalog (no `q`, no category) without OFFSET's walk, which grows with
 * the offset (docs/decisions/012).
 *
 * Per order, the key of every EVERY-th video is kept in memory, found by one scan of the order's partial
 * index. A page at offset o starts from the checkpoint just before it: the videos after that key, OFFSET
 * o mod EVERY, the page's LIMIT, which is the same page OFFSET o gives as long as the checkpoints are
 * exact. They stop being used:
 * - at once when the catalog changes in this process (`clear()`, called from the catalog cache's clear(),
 *   which every change to a video calls); a scan that was running then is thrown away when it ends;
 * - MAX_AGE_MS after their scan was sent, for what this process does not see or does not clear for:
 *   another instance on the same PostgreSQL (every order, always), and views, counted without clearing
 *   the cache (the popular order, once `countersMoved()` was called after the scan was sent; always on
 *   PostgreSQL, where other instances count views too). Views only grow, so a deep popular page may start
 *   up to d places later than OFFSET's, never earlier, d being the videos whose count carried them past
 *   its checkpoint in those at most MAX_AGE_MS.
 * - Otherwise, on the embedded database, SOLE_WRITER_MAX_AGE_MS after the scan: a safety net, since this
 *   process is its only writer (the data directory's lock) and every change goes through clear().
 *
 * Checkpoints are scanned lazily by the first page at offset ≥ BUILD_FROM (a shallower page costs OFFSET
 * less than a scan), and again in the background once past half their age limit while pages ask for
 * them, one scan per order at a time. A page from BUILD_FROM on that finds none fresh waits for the running
 * scan (it reads as much as OFFSET would, once for all the pages waiting); if that scan fails or is thrown
 * away, the page is plain OFFSET.
 */
export class DeepPages {
  /** Positions between checkpoints: a page reads fewer than EVERY + limit index entries. */
  static readonly EVERY = 100;
  static readonly BUILD_FROM = 1_000;
  /** The catalog cache's TTL (CatalogCache.TTL_MS): another instance's change shows within it. */
  static readonly MAX_AGE_MS = 2_000;
  static readonly SOLE_WRITER_MAX_AGE_MS = 60_000;

  private generation = 0;
  private countersMovedTimes = 0;
  private readonly checkpoints = new Map<VideoSort, Checkpoints>();
  private readonly scans = new Map<VideoSort, { generation: number; done: Promise<Checkpoints | null> }>();
  /** What happened so far (tests): pages from a checkpoint, plain OFFSET pages, scans kept and thrown away. */
  readonly counts = { fromCheckpoint: 0, plainOffset: 0, scans: 0, discarded: 0, failed: 0 };

  constructor(
    private readonly options: {
      /** No other process writes the catalog's database (the embedded one). */
      soleWriter?: boolean;
      now?: () => number;
    } = {},
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** How long after their scan these checkpoints of this order may be used. */
  private ageLimitMs(sort: VideoSort, checkpoints: Checkpoints): number {
    if (!this.options.soleWriter) return DeepPages.MAX_AGE_MS;
    if (sort === 'popular' && checkpoints.countersMoved !== this.countersMovedTimes)
      return DeepPages.MAX_AGE_MS;
    return DeepPages.SOLE_WRITER_MAX_AGE_MS;
  }

  /** The age limit this order's checkpoints have now (none yet: as if scanned now). */
  currentAgeLimitMs(sort: VideoSort): number {
    const checkpoints = this.checkpoints.get(sort);
    return this.ageLimitMs(
      sort,
      checkpoints ?? { keys: [], builtAt: 0, generation: 0, countersMoved: this.countersMovedTimes },
    );
  }

  /** Views (or other counters) moved: the popular order may have changed without a clear(). */
  countersMoved(): void {
    this.countersMovedTimes += 1;
  }

  /** The catalog changed: no checkpoint taken before now is used again. */
  clear(): void {
    this.generation += 1;
    this.checkpoints.clear();
  }

  /** The page `query` asks for, as anybody sees it (not purchased): always what OFFSET gives, but faster. */
  async page(db: Executor, query: VideoListQuery, log?: FastifyBaseLogger): Promise<VideoWithCapper[]> {
    // A filtered or record-ordered page is OFFSET's, as a search or a category is (no checkpoints of it).
    const sort = query.sort;
    if (query.q || query.category || query.status || query.verified || sort === 'record')
      return this.plain(db, query);
    if (query.offset < DeepPages.EVERY) return this.plain(db, query);
    const checkpoints = await this.fresh(db, sort, query.offset >= DeepPages.BUILD_FROM, log);
    const index = checkpoints
      ? Math.min(Math.floor(query.offset / DeepPages.EVERY), checkpoints.keys.length)
      : 0;
    if (!checkpoints || index === 0) return this.plain(db, query);
    const rest = query.offset - index * DeepPages.EVERY;
    const rows = await listPublicVideos(db, { ...query, offset: rest }, null, checkpoints.keys[index - 1]);
    // A change committed while the page was read may or may not be in it: only OFFSET knows where it starts.
    if (checkpoints.generation !== this.generation) return this.plain(db, query);
    this.counts.fromCheckpoint += 1;
    return rows;
  }

  private plain(db: Executor, query: VideoListQuery): Promise<VideoWithCapper[]> {
    this.counts.plainOffset += 1;
    return listPublicVideos(db, query, null);
  }

  /** This order's checkpoints if they may be used now, else those of the scan running or started now. */
  private async fresh(
    db: Executor,
    sort: VideoSort,
    mayScan: boolean,
    log?: FastifyBaseLogger,
  ): Promise<Checkpoints | null> {
    const current = this.checkpoints.get(sort);
    const age = current ? this.now() - current.builtAt : Infinity;
    const limit = current ? this.ageLimitMs(sort, current) : 0;
    if (current && current.generation === this.generation && age <= limit) {
      if (age > limit / 2) void this.scan(db, sort, log);
      return current;
    }
    return mayScan ? this.scan(db, sort, log) : null;
  }

  /**
   * One scan per order and generation at a time (one started before a change is not waited for); resolves
   * to what it kept, or null (failed, or the catalog changed meanwhile).
   */
  private scan(db: Executor, sort: VideoSort, log?: FastifyBaseLogger): Promise<Checkpoints | null> {
    const running = this.scans.get(sort);
    if (running?.generation === this.generation) return running.done;
    const generation = this.generation;
    const countersMoved = this.countersMovedTimes;
    const builtAt = this.now();
    const scan = sortKeysEvery(db, sort, DeepPages.EVERY)
      .then(
        (keys) => {
          if (generation !== this.generation) {
            this.counts.discarded += 1;
            return null;
          }
          const checkpoints = { keys, builtAt, generation, countersMoved };
          this.checkpoints.set(sort, checkpoints);
          this.counts.scans += 1;
          return checkpoints;
        },
        (err: unknown) => {
          this.counts.failed += 1;
          log?.warn({ err, sort }, 'could not scan the deep-page checkpoints');
          return null;
        },
      )
      .finally(() => {
        if (this.scans.get(sort)?.done === scan) this.scans.delete(sort);
      });
    this.scans.set(sort, { generation, done: scan });
    return scan;
  }
}
