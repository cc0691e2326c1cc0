import { DeepPages } from './deep-pages.js';
import type { ReadyBytes } from './ready-bytes.js';
import type { VideoWithCapper } from './videos-repository.js';

interface Entry<T> {
  rows: Promise<T>;
  anonymous?: ReadyBytes;
  until: number;
}

/** Short-lived entries keyed by text: a miss under load runs one query, not one per waiting request. */
class TtlMap<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string, load: () => Promise<T>): Entry<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const rows = load();
    const entry: Entry<T> = { rows, until: now + this.ttlMs };
    this.entries.set(key, entry);
    // A failed load must not be served from the cache.
    rows.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
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
 * clears the cache at once; another instance on the same PostgreSQL sees it within TTL_MS.
 */
export class CatalogCache {
  static readonly TTL_MS = 2_000;
  static readonly MAX_ENTRIES = 500;
  /** A video page is opened far more often than it changes (issue 11: GET /api/videos/{id} under 200 clients). */
  static readonly MAX_VIDEOS = 10_000;
  private readonly pages = new TtlMap<VideoWithCapper[]>(CatalogCache.TTL_MS, CatalogCache.MAX_ENTRIES);
  private readonly videos = new TtlMap<VideoWithCapper | undefined>(
    CatalogCache.TTL_MS,
    CatalogCache.MAX_VIDEOS,
  );
  /** Checkpoints of each order for deep pages: dropped with everything else here on any change. */
  readonly deepPages: DeepPages;

  /** `soleWriter`: no other process writes the database (the embedded one), see DeepPages. */
  constructor(options: { soleWriter?: boolean } = {}) {
    this.deepPages = new DeepPages({ soleWriter: options.soleWriter ?? false });
  }

  get(key: string, load: () => Promise<VideoWithCapper[]>): Entry<VideoWithCapper[]> {
    return this.pages.get(key, load);
  }

  /** One video as anybody sees it (not purchased); `undefined` when it does not exist. */
  video(id: number, load: () => Promise<VideoWithCapper | undefined>): Entry<VideoWithCapper | undefined> {
    return this.videos.get(String(id), load);
  }

  /** These videos changed in a way only their own page shows (a view counted): their entries go. */
  forgetVideos(ids: number[]): void {
    for (const id of ids) this.videos.delete(String(id));
  }

  clear(): void {
    this.pages.clear();
    this.videos.clear();
    this.deepPages.clear();
  }
}
