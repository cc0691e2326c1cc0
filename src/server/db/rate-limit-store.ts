// @fastify/rate-limit's counters in the database instead of each process's memory (several
// instances on one PostgreSQL are one site, so a limit counts the requests of all of them;
// docs/decisions/024). One upsert per counted request, in the table the sign-in throttles use.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from './drizzle.js';
import type { Db } from './client.js';
import { rowsOf } from './rows.js';
import { authThrottles } from './schema.js';

/** Keys of these counters start so, apart from the sign-in throttles' `ip:` and `login:` ones. */
const KEY_PREFIX = 'limit:';

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

/**
 * Counts one request under `key` in a fixed window of `windowMs`, atomically (one upsert: concurrent
 * requests on any instance cannot all read the same count). The database's clock decides when a window
 * ends, so instances whose clocks differ still share one window. Expired rows are swept with the sign-in
 * throttles' (auth's hourly deleteExpiredThrottles).
 */
export async function countRequest(db: Db, key: string, windowMs: number): Promise<RateLimitHit> {
  const t = authThrottles;
  const window = sql`(${Math.max(1, Math.trunc(windowMs))}::int * interval '1 millisecond')`;
  const result = await db.execute(sql`
    insert into ${t} (key, hits, reset_at) values (${KEY_PREFIX + key}, 1, now() + ${window})
    on conflict (key) do update set
      hits = case when ${t.resetAt} <= now() then 1 else ${t.hits} + 1 end,
      reset_at = case when ${t.resetAt} <= now() then excluded.reset_at else ${t.resetAt} end
    returning hits, ceil(extract(epoch from (reset_at - now())) * 1000)::float8 as ttl`);
  const [row] = rowsOf<{ hits: number | string; ttl: number | string }>(result);
  return { current: Number(row!.hits), ttl: Math.max(0, Number(row!.ttl)) };
}

/** A store class for `app.register(rateLimit, { store })`: every limiter made from it counts in `db`. */
export function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      countRequest(db, key, timeWindow).then(
        (hit) => callback(null, hit),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** A route's or createRateLimit's own limiter: the same table (keys carry their route's prefix). */
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return DatabaseRateLimitStore;
}
