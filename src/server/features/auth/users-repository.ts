import { and, asc, eq, isNull, or, sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { users } from '#server/db/schema.js';
import { centsToDollars } from '#common/money.js';
import type { User } from '#common/schemas/auth.js';
import { usernameKey, usernameSkeleton } from './usernames.js';

export type UserRow = typeof users.$inferSelect;
/** The key and skeleton are derived from the username here, never given by a caller. */
export type NewUserRow = Omit<typeof users.$inferInsert, 'usernameKey' | 'usernameSkeleton'>;

/**
 * Every username lookup (login, ADMIN_USERNAME, `npm run admin`) compares the normalised key. Accounts made
 * before usernames had keys may share a key ('capper' and 'ｃａｐｐｅｒ'): the exact name wins, then the old
 * case-insensitive match, then the oldest account, so each of them still signs in with its own name.
 */
export async function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(eq(users.usernameKey, usernameKey(username)))
    .orderBy(asc(users.id))
    .limit(20);
  if (rows.length === 0) return findUnkeyedUser(db, username);
  return (
    rows.find((row) => row.username === username) ??
    rows.find((row) => row.username.toLowerCase() === username.toLowerCase()) ??
    rows[0]
  );
}

/**
 * A row whose key is not filled yet (written before the column, and no start since: e.g. `npm run
 * seed:demo` on an older database) is still found the old way, so no script stumbles on it.
 */
function findUnkeyedUser(db: Executor, username: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(and(isNull(users.usernameKey), sql`lower(${users.username}) = lower(${username})`))
    .limit(1)
    .then((found) => found[0]);
}

/** An account whose name is the same after normalisation, or looks the same (TR39 skeleton). */
export async function findSimilarUser(
  db: Executor,
  username: string,
): Promise<Pick<UserRow, 'id' | 'username' | 'usernameKey'> | undefined> {
  const key = usernameKey(username);
  const rows = await db
    .select({ id: users.id, username: users.username, usernameKey: users.usernameKey })
    .from(users)
    .where(
      or(
        eq(users.usernameKey, key),
        eq(users.usernameSkeleton, usernameSkeleton(username)),
        sql`lower(${users.username}) = lower(${username})`,
      ),
    )
    .orderBy(asc(users.id))
    .limit(5);
  // The same name (after normalisation) first: it gets the plainer "already exists" message.
  return rows.find((row) => row.usernameKey === key) ?? rows[0];
}

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(eq(users.id, id))
    .limit(1)
    .then((rows) => rows[0]);
}

/** Inserts a user; returns undefined when the username is taken. */
export async function insertUser(db: Executor, user: NewUserRow): Promise<UserRow | undefined> {
  const rows = await db
    .insert(users)
    .values({
      ...user,
      usernameKey: usernameKey(user.username),
      usernameSkeleton: usernameSkeleton(user.username),
    })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

/**
 * Fills the key and skeleton of rows that lack them (accounts made before usernames had keys, rows a script
 * inserted with SQL). Only JavaScript computes a skeleton, so this runs at start, not in a migration; it is
 * idempotent, and one query when there is nothing to do.
 */
export async function backfillUsernameKeys(db: Executor): Promise<number> {
  let filled = 0;
  for (;;) {
    const rows = await db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(or(isNull(users.usernameKey), isNull(users.usernameSkeleton)))
      .orderBy(asc(users.id))
      .limit(500);
    if (rows.length === 0) return filled;
    const values = rows.map(
      (row) => sql`(${row.id}::integer, ${usernameKey(row.username)}, ${usernameSkeleton(row.username)})`,
    );
    await db.execute(sql`
      update ${users} set username_key = v.key, username_skeleton = v.skeleton
      from (values ${sql.join(values, sql`, `)}) as v(id, key, skeleton)
      where ${users.id} = v.id`);
    filled += rows.length;
  }
}

export async function setAdmin(db: Executor, id: number, isAdmin: boolean): Promise<void> {
  await db.update(users).set({ isAdmin }).where(eq(users.id, id));
}

export async function setPasswordHash(db: Executor, id: number, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, id));
}

/** What a signed-in user sees of their own account: never the password hash. */
export function toPublicUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    email: row.email,
    phoneNumber: row.phoneNumber,
    bio: row.bio,
    avatarUrl: row.avatarUrl,
    isAdmin: row.isAdmin,
    manualEarnings: centsToDollars(row.manualEarningsCents),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function deleteUser(db: Executor, userId: number): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}

/** The profile columns that a capper's profile settings read, the e-mail's state among them. */
export async function findProfile(db: Executor, userId: number) {
  const [row] = await db
    .select({
      username: users.username,
      displayName: users.displayName,
      bio: users.bio,
      avatarUrl: users.avatarUrl,
      email: users.email,
      emailConfirmedAt: users.emailConfirmedAt,
      pendingEmail: users.pendingEmail,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return undefined;
  const { emailConfirmedAt, pendingEmail, ...profile } = row;
  const emailConfirmed = row.email !== null && emailConfirmedAt !== null;
  // Awaiting confirmation: a new address, or the one given at registration until its link is followed.
  return { ...profile, emailConfirmed, pendingEmail: pendingEmail ?? (emailConfirmed ? null : row.email) };
}

/** The e-mail columns of one account, locked until the transaction ends (a change and a confirmation queue). */
export async function lockEmailState(db: Executor, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      displayName: users.displayName,
      email: users.email,
      emailConfirmedAt: users.emailConfirmedAt,
      pendingEmail: users.pendingEmail,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

export async function setPendingEmail(db: Executor, userId: number, pendingEmail: string | null) {
  await db.update(users).set({ pendingEmail }).where(eq(users.id, userId));
}

/** The address becomes the account's, confirmed now; a pending one is cleared. */
export async function setConfirmedEmail(db: Executor, userId: number, email: string) {
  await db
    .update(users)
    .set({ email, emailConfirmedAt: sql`now()`, pendingEmail: null })
    .where(eq(users.id, userId));
}

export async function setProfileText(
  db: Executor,
  userId: number,
  text: { displayName: string | null; bio: string | null },
): Promise<void> {
  await db.update(users).set(text).where(eq(users.id, userId));
}

export async function setManualEarningsCents(db: Executor, userId: number, cents: number): Promise<void> {
  await db.update(users).set({ manualEarningsCents: cents }).where(eq(users.id, userId));
}

export async function setAvatarUrl(db: Executor, userId: number, avatarUrl: string | null): Promise<void> {
  await db.update(users).set({ avatarUrl }).where(eq(users.id, userId));
}
