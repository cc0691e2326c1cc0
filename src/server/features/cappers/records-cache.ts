// Answers of the record's routes, kept briefly (issue 14, "Speed"): they change only when grading runs,
// and a profile reads every graded pick of its capper.

interface Entry<T> {
  value: Promise<T>;
  until: number;
  settled: boolean;
  refreshing: boolean;
}

/**
 * A TTL map: a miss under load runs one query, not one per waiting request; an expired entry is served
 * for at most one more TTL while its refresh runs, so no request waits behind a slow aggregate.
 */
export class RecordsCache {
  static readonly TTL_MS = 10_000;
  static readonly MAX_ENTRIES = 5_000;
  private readonly entries = new Map<string, Entry<unknown>>();

  constructor(private readonly ttlMs = RecordsCache.TTL_MS) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key) as Entry<T> | undefined;
    if (hit && hit.until > now) return hit.value;
    if (hit?.settled && now < hit.until + this.ttlMs) {
      if (!hit.refreshing) {
        hit.refreshing = true;
        this.fill(key, load, hit);
      }
      return hit.value;
    }
    if (this.entries.size >= RecordsCache.MAX_ENTRIES) this.entries.clear();
    return this.fill(key, load, null).value;
  }

  private fill<T>(key: string, load: () => Promise<T>, stale: Entry<T> | null): Entry<T> {
    const entry: Entry<T> = {
      value: load(),
      until: Date.now() + this.ttlMs,
      settled: false,
      refreshing: false,
    };
    if (!stale) this.entries.set(key, entry);
    entry.value.then(
      () => {
        entry.settled = true;
        entry.until = Date.now() + this.ttlMs;
        if (stale && this.entries.get(key) === stale) this.entries.set(key, entry);
      },
      () => {
        // A failed load is never served: the stale entry may try again, a new one goes.
        if (stale) stale.refreshing = false;
        else if (this.entries.get(key) === entry) this.entries.delete(key);
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
