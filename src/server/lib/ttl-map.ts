// Short-lived answers of slow reads, shared by the catalog's cache (features/videos) and the records' cache
// (features/cappers). lru-cache holds the entries; the refresh policy is ours (decision 030).
import { LRUCache } from 'lru-cache';

/** One load's answer. `X`: what its user keeps beside it (the catalog: the answer's bytes, made once). */
export type TtlEntry<T, X extends object = object> = {
  readonly value: Promise<T>;
  /** When its query was sent: its answer shows the database as of then or later. */
  readonly sentAt: number;
  /** Its answer has arrived (only then may a refresh run in its place). */
  settled?: boolean;
  refreshing?: boolean;
  /** Its refresh, once sent: the entry in its place when this one is too old to serve. */
  next?: TtlEntry<T, X>;
} & Partial<X>;

export interface TtlMapOptions {
  ttlMs: number;
  /** Past this many entries the least recently used go. */
  maxEntries: number;
  /** The oldest a settled entry may be served while its refresh waits: `ttlMs` unless said otherwise. */
  maxAgeMs?: number;
  /**
   * Background refreshes under way at once, at most (unbounded unless said). A client walking a thousand
   * keys would otherwise start a thousand refreshes in a second; on the embedded database's one connection
   * they queue, and the misses behind them wait for all of them. A refresh not started now is started by a
   * later request, or the entry expires.
   */
  maxRefreshes?: number;
}

/**
 * Short-lived entries keyed by text: a miss under load runs one query, not one per waiting request. No
 * entry is served once its query was sent `ttlMs` ago or more, so what it shows lags the database by less
 * than `ttlMs`, whoever changed it (this process or another instance, decision 024). From half that age a
 * settled entry is refreshed in the background while it is still served: requests do not all wait behind
 * one refresh that queues behind slow queries (cached pages while slow searches run); with no other writer
 * a settled entry may be served up to `maxAgeMs` while that refresh waits. clear() and delete() drop
 * entries outright: nothing is served stale after a change this process made.
 */
export class TtlMap<T, X extends object = object> {
  private readonly entries: LRUCache<string, TtlEntry<T, X>>;
  private readonly ttlMs: number;
  private readonly maxAgeMs: number;
  private readonly maxRefreshes: number;
  private refreshes = 0;

  constructor(options: TtlMapOptions) {
    this.ttlMs = options.ttlMs;
    this.entries = new LRUCache({ max: options.maxEntries });
    this.maxAgeMs = options.maxAgeMs ?? options.ttlMs;
    this.maxRefreshes = options.maxRefreshes ?? Infinity;
  }

  get(key: string, load: () => Promise<T>): TtlEntry<T, X> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && (now - hit.sentAt < this.ttlMs || (hit.settled && now - hit.sentAt < this.maxAgeMs))) {
      if (
        hit.settled &&
        !hit.refreshing &&
        now - hit.sentAt >= this.ttlMs / 2 &&
        this.refreshes < this.maxRefreshes
      ) {
        hit.refreshing = true;
        this.refreshes++;
        hit.next = this.fill(key, load(), hit);
        const done = () => {
          this.refreshes--;
        };
        hit.next.value.then(done, done);
      }
      return hit;
    }
    // Too old to serve: its refresh (sent later, so younger) answers if there is one, else a new load.
    if (hit?.next && now - hit.next.sentAt < this.maxAgeMs) {
      this.entries.set(key, hit.next);
      return hit.next;
    }
    const entry = this.fill(key, load(), null);
    this.entries.set(key, entry);
    return entry;
  }

  /** A new entry for `value`, in the map at once (`stale` null) or once it arrives, in place of `stale`. */
  private fill(key: string, value: Promise<T>, stale: TtlEntry<T, X> | null): TtlEntry<T, X> {
    const entry = { value, sentAt: Date.now() } as TtlEntry<T, X>;
    value.then(
      () => {
        entry.settled = true;
        if (stale && this.entries.peek(key) === stale) this.entries.set(key, entry);
      },
      () => {
        // A failed load is never served: the stale entry may try again, a new one goes.
        if (stale) {
          stale.refreshing = false;
          stale.next = undefined;
        }
        if (this.entries.peek(key) === entry) this.entries.delete(key);
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
