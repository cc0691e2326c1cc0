import os from 'node:os';
import pLimit from 'p-limit';
import { HttpError } from '#server/lib/http-errors.js';
import { TtlMap, type TtlEntry } from '#server/lib/ttl-map.js';
import { DeepPages } from './deep-pages.js';
import type { ReadyBytes } from '#server/lib/ready-bytes.js';
import type { VideoWithCapper } from './videos-repository.js';

/** A catalog entry keeps the answer's bytes for signed-out visitors, made once (routes.ts). */
type Entry<T> = TtlEntry<T, { anonymous: ReadyBytes }>;

export const SEARCH_BUSY_MESSAGE = 'Search is busy right now. Please try again in a moment.';

/**
 * The public catalog pages (home, listing, search, featured) and single videos are the same for every
 * signed-out visitor and change rarely, so their rows are kept for a couple of seconds. Signed-in viewers
 * get the same rows with their own purchase flags laid over them. Any change to a video in this process
 * clears the cache at once; another instance on the same PostgreSQL sees it within TTL_MS (no entry is
 * served TTL_MS after its query was sent; from TTL_MS / 2 it is refreshed while served).
 */
export class CatalogCache {
  static readonly TTL_MS = 2_000;
  static readonly MAX_ENTRIES = 500;
  /** A video page is opened far more often than it changes, above all under a crowd. */
  static readonly MAX_VIDEOS = 10_000;
  private readonly pages: TtlMap<VideoWithCapper[], { anonymous: ReadyBytes }>;
  private readonly videos: TtlMap<VideoWithCapper | undefined, { anonymous: ReadyBytes }>;
  /** Checkpoints of each order for deep pages: dropped with everything else here on any change. */
  readonly deepPages: DeepPages;
  /**
   * Searches that miss the cache run in a lane of half the cores (else a few slow searches take every
   * core and the cached catalog waits behind them); beyond
   * SEARCH_QUEUE_MAX waiting, a search is answered 503 at once rather than queued for seconds.
   */
  static readonly SEARCH_LANES = Math.max(1, Math.floor(os.availableParallelism() / 2));
  static readonly SEARCH_QUEUE_MAX = 100;
  private readonly searchLane = pLimit(CatalogCache.SEARCH_LANES);

  /** `soleWriter`: no other process writes the database (the embedded one), see DeepPages. */
  constructor(options: { soleWriter?: boolean } = {}) {
    const soleWriter = options.soleWriter ?? false;
    this.deepPages = new DeepPages({ soleWriter });
    // With no other writer, every change clears what it touches at once: the TTL bounds no other process's
    // change, so a settled entry is served while its refresh waits behind a long write (a grading holds the
    // embedded database's one connection for seconds), up to twice the TTL. On a shared database
    // another instance's change shows within the TTL.
    const maxAge = soleWriter ? 2 * CatalogCache.TTL_MS : CatalogCache.TTL_MS;
    this.pages = new TtlMap({
      ttlMs: CatalogCache.TTL_MS,
      maxEntries: CatalogCache.MAX_ENTRIES,
      maxAgeMs: maxAge,
    });
    this.videos = new TtlMap({
      ttlMs: CatalogCache.TTL_MS,
      maxEntries: CatalogCache.MAX_VIDEOS,
      maxAgeMs: maxAge,
    });
  }

  get(key: string, load: () => Promise<VideoWithCapper[]>): Entry<VideoWithCapper[]> {
    return this.pages.get(key, load);
  }

  /** A search's load, through the search lane. */
  search(load: () => Promise<VideoWithCapper[]>): Promise<VideoWithCapper[]> {
    if (this.searchLane.pendingCount >= CatalogCache.SEARCH_QUEUE_MAX)
      return Promise.reject(new HttpError(503, SEARCH_BUSY_MESSAGE, { 'retry-after': '1' }));
    return this.searchLane(load);
  }

  /** One video as anybody sees it (not purchased); `undefined` when it does not exist. */
  video(id: number, load: () => Promise<VideoWithCapper | undefined>): Entry<VideoWithCapper | undefined> {
    return this.videos.get(String(id), load);
  }

  /** These videos changed in a way only their own page shows (a view counted): their entries go. */
  forgetVideos(ids: number[]): void {
    for (const id of ids) this.videos.delete(String(id));
    // Views move the popular order without a clear(): its deep-page checkpoints get a short life.
    this.deepPages.countersMoved();
  }

  clear(): void {
    this.pages.clear();
    this.videos.clear();
    this.deepPages.clear();
  }
}
