// Transaction-scoped advisory locks: pg_advisory_xact_lock(space, key), released at commit or rollback. Every
// feature's space is listed here, so no two uses share one by accident.
import { sql } from './drizzle.js';
import type { Executor } from './client.js';

export const LOCK_SPACES = {
  /** A username's key and skeleton while an account is made (auth). */
  usernames: 1_107_011,
  /** A user's open uploads while one more is reserved (uploads): 'upl' in ASCII. */
  uploads: 0x75706c,
  /** A video's views while a group of them is counted (videos): 'vue' in ASCII. */
  videoViews: 0x767565,
  /** One recipient's mails of one kind while the hourly limit is checked (server/mail): 'mai' in ASCII. */
  mail: 0x6d6169,
  /** A user's push subscriptions while one more is counted against the limit (push): 'psh' in ASCII. */
  pushSubscriptions: 0x707368,
  /** One bettor's subscriptions while a new one checks their trials and live ones (subscriptions): 'sub'. */
  subscriptions: 0x737562,
} as const;

export type LockSpace = keyof typeof LOCK_SPACES;

/** Waits for the key's lock in the space, held until the transaction ends. */
export async function lockKey(tx: Executor, space: LockSpace, key: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACES[space]}::int, ${key}::int)`);
}

/**
 * The keys' locks in one statement, in ascending order: two transactions that ask for overlapping keys take
 * them in the same order, so they cannot deadlock.
 */
export async function lockKeysInOrder(
  tx: Executor,
  space: LockSpace,
  keys: readonly number[],
): Promise<void> {
  const sorted = [...new Set(keys)].sort((a, b) => a - b);
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACES[space]}::int, id)
      from unnest(${`{${sorted.join(',')}}`}::int[]) as id order by id`);
}
