import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { centsToDollars } from '../../../common/money.js';
import type { User } from '../../../common/schemas/auth.js';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1)
    .then((rows) => rows[0]);
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
  const rows = await db.insert(users).values(user).onConflictDoNothing().returning();
  return rows[0];
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
