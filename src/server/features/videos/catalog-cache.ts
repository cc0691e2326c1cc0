import type { VideoWithCapper } from './videos-repository.js';

interface Entry {
  rows: Promise<VideoWithCapper[]>;
  /** The signed-out visitor's JSON, serialised and encoded once per entry (a Buffer is written as is). */
  anonymous?: { body: Buffer; etag: string };
  until: number;
}

/**
 * The public catalog pages (home, listing, search, featured) are the same for every signed-out visitor
 * and change rarely, so their rows are kept for a couple of seconds. Signed-in viewers get the same
 * rows with their own purchase flags laid over them. Any change to a video in this process clears the
 * cache at once; another instance on the same PostgreSQL sees it within TTL_MS. A miss under load
 * runs one query, not one per waiting request (the promise is shared).
 */
export class CatalogCache {
  static readonly TTL_MS = 2_000;
  static readonly MAX_ENTRIES = 500;
  private readonly entries = new Map<string, Entry>();

  get(key: string, load: () => Promise<VideoWithCapper[]>): Entry {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit;
    if (this.entries.size >= CatalogCache.MAX_ENTRIES) this.entries.clear();
    const rows = load();
    const entry: Entry = { rows, until: now + CatalogCache.TTL_MS };
    this.entries.set(key, entry);
    // A failed load must not be served from the cache.
    rows.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }
}
