// Answers of the record's routes, kept briefly (issue 14, "Speed"): they change only when grading runs,
// and a profile reads every graded pick of its capper.

interface Entry<T> {
  value: Promise<T>;
  /** When its query was sent: it shows the database as of then or later. */
  sentAt: number;
  settled: boolean;
  refreshing: boolean;
  /** Its refresh, once sent: the entry in its place when this one is too old to serve. */
  next?: Entry<T>;
}

/**
 * A TTL map: a miss under load runs one query, not one per waiting request. No entry is served once its
 * query was sent `ttlMs` ago, so an answer lags the database by less than `ttlMs`, whoever changed it (a
 * worker grading picks, another web instance: issue 16, docs/decisions/024); from half that age a settled
 * entry is refreshed while still served, so no request waits behind a slow aggregate.
 */
export class RecordsCache {
  static readonly TTL_MS = 10_000;
  static readonly MAX_ENTRIES = 5_000;
  private readonly entries = new Map<string, Entry<unknown>>();

  constructor(private readonly ttlMs = RecordsCache.TTL_MS) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key) as Entry<T> | undefined;
    if (hit && now - hit.sentAt < this.ttlMs) {
      if (hit.settled && !hit.refreshing && now - hit.sentAt >= this.ttlMs / 2) {
        hit.refreshing = true;
        hit.next = this.fill(key, load, hit);
      }
      return hit.value;
    }
    // Too old to serve: its refresh (sent later) answers if there is one, else a new load.
    if (hit?.next && now - hit.next.sentAt < this.ttlMs) {
      this.entries.set(key, hit.next);
      return hit.next.value;
    }
    if (this.entries.size >= RecordsCache.MAX_ENTRIES) this.entries.clear();
    return this.fill(key, load, null).value;
  }

  private fill<T>(key: string, load: () => Promise<T>, stale: Entry<T> | null): Entry<T> {
    const entry: Entry<T> = { value: load(), sentAt: Date.now(), settled: false, refreshing: false };
    if (!stale) this.entries.set(key, entry);
    entry.value.then(
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

  clear(): void {
    this.entries.clear();
  }
}

// One cache per database, so whatever grades or moderates picks can drop it (forgetRecords) without the
// app wiring an object through every feature.
const caches = new WeakMap<object, RecordsCache>();

export function recordsCacheFor(db: object): RecordsCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new RecordsCache()));
  return cache;
}

/** Records changed (a grade, a correction, a moderation): the next answers are read afresh. */
export function forgetRecords(db: object): void {
  caches.get(db)?.clear();
}
