// Answers of the record's routes, kept briefly ("Speed"): they change only when grading runs,
// and a profile reads every graded pick of its capper.

import { TtlMap } from '#server/lib/ttl-map.js';

/**
 * A TTL map (lib/ttl-map.ts): a miss under load runs one query, not one per waiting request. No entry is
 * served once its query was sent `ttlMs` ago, so an answer lags the database by less than `ttlMs`, whoever
 * changed it (a worker grading picks, another web instance: docs/decisions/024); from half that
 * age a settled entry is refreshed while still served, one refresh at a time: a profile is a slow aggregate,
 * and a crawl of a thousand profiles must not queue a thousand of them ahead of the requests that wait.
 */
export class RecordsCache {
  static readonly TTL_MS = 10_000;
  static readonly MAX_ENTRIES = 5_000;
  static readonly MAX_REFRESHES = 1;
  private readonly entries: TtlMap<unknown>;

  constructor(ttlMs = RecordsCache.TTL_MS) {
    this.entries = new TtlMap({
      ttlMs,
      maxEntries: RecordsCache.MAX_ENTRIES,
      maxRefreshes: RecordsCache.MAX_REFRESHES,
    });
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    // Each key is only ever filled by loads of one type (the key names what is kept).
    return this.entries.get(key, load).value as Promise<T>;
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
