import os from 'node:os';
import pLimit from 'p-limit';
import { HttpError } from '#server/lib/http-errors.js';
import { DeepPages } from './deep-pages.js';
import type { ReadyBytes } from '#server/lib/ready-bytes.js';
import type { VideoWithCapper } from './videos-repository.js';

interface Entry<T> {
  rows: Promise<T>;
  anonymous?: ReadyBytes;
  /** When its query was sent: its rows show the database as of then or later. */
  sentAt: number;
  /** Its rows have arrived (only then may a refresh run in its place). */
  settled?: boolean;
  refreshing?: boolean;
  /** Its refresh, once sent: the entry in its place when this one is too old to serve. */
  next?: Entry<T>;
}

/**
 * Short-lived entries keyed by text: a miss under load runs one query, not one per waiting request. No
 * entry is served once its query was sent `ttlMs` ago or more, so what it shows lags the database by less
 * than `ttlMs`, whoever changed it (this process or another instance: issue 16). From half that age a
 * settled entry is refreshed in the background while it is still served: requests do not all wait behind
 * one refresh that queues behind slow queries (issue 11: cached pages while slow searches run); with no
 * other writer a settled entry may be served up to `maxAgeMs` while that refresh waits. clear() and delete()
 * drop entries outright: nothing is served stale after a change this process made.
 */
class TtlMap<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    /** The oldest a settled entry may be served while its refresh runs: `ttlMs` unless said otherwise. */
    private readonly maxAgeMs = ttlMs,
  ) {}

  get(key: string, load: () => Promise<T>): Entry<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && (now - hit.sentAt < this.ttlMs || (hit.settled && now - hit.sentAt < this.maxAgeMs))) {
      if (hit.settled && !hit.refreshing && now - hit.sentAt >= this.ttlMs / 2) {
        hit.refreshing = true;
        hit.next = this.fill(key, load(), hit);
      }
      return hit;
    }
    // Too old to serve: its refresh (sent later, so younger) answers if there is one, else a new load.
    if (hit?.next && this.entries.get(key) === hit && now - hit.next.sentAt < this.maxAgeMs) {
      this.entries.set(key, hit.next);
      return hit.next;
    }
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const entry = this.fill(key, load(), null);
    this.entries.set(key, entry);
    return entry;
  }

  /** A new entry for `rows`, in the map at once (`stale` null) or once they arrive, in place of `stale`. */
  private fill(key: string, rows: Promise<T>, stale: Entry<T> | null): Entry<T> {
    const entry: Entry<T> = { rows, sentAt: Date.now() };
    rows.then(
      () => {
        entry.settled = true;
        if (stale && this.entries.get(key) === stale) this.entries.set(key, entry);
      },
      () => {
        // A failed load is never served: the stale entry may try again, a new one goes.
        if (stale) {
          stale.refreshing = false;
          stale.next = undefined;
        }
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * The public catalog pages (home, listing, search, featured) and single videos are the same for every
 * signed-out visitor and change rarely, so their rows are kept for a couple of seconds. Signed-in viewers
 * get the same rows with their own purchase flags laid over them. Any change to a video in this process
 * clears the cache at once; another instance on the same PostgreSQL sees it within TTL_MS (no entry is
 * served TTL_MS after its query was sent; from TTL_MS / 2 it is refreshed while served).
 */
export const SEARCH_BUSY_MESSAGE = 'Search is busy right now. Please try again in a moment.';

export class CatalogCache {
  static readonly TTL_MS = 2_000;
  static readonly MAX_ENTRIES = 500;
  /** A video page is opened far more often than it changes (issue 11: GET /api/videos/{id} under 200 clients). */
  static readonly MAX_VIDEOS = 10_000;
  private readonly pages: TtlMap<VideoWithCapper[]>;
  private readonly videos: TtlMap<VideoWithCapper | undefined>;
  /** Checkpoints of each order for deep pages: dropped with everything else here on any change. */
  readonly deepPages: DeepPages;
  /**
   * Searches that miss the cache run in a lane of half the cores (issue 11: on a 2-core machine, two
   * 1-character searches on PostgreSQL took both cores and the cached catalog's p99 tripled); beyond
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
    // embedded database's one connection for seconds), up to twice the TTL. On a shared database (issue
    // 16) another instance's change shows within the TTL.
    const maxAge = soleWriter ? 2 * CatalogCache.TTL_MS : CatalogCache.TTL_MS;
    this.pages = new TtlMap(CatalogCache.TTL_MS, CatalogCache.MAX_ENTRIES, maxAge);
    this.videos = new TtlMap(CatalogCache.TTL_MS, CatalogCache.MAX_VIDEOS, maxAge);
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
