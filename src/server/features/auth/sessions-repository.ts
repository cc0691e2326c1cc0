import { and, eq, gt, lt } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { sessions, users } from '#server/db/schema.js';
import type { UserRow } from './users-repository.js';

export async function insertSession(
  db: Executor,
  session: { id: string; userId: number; expiresAt: Date },
): Promise<void> {
  await db.insert(sessions).values(session);
}

export async function findUserBySession(
  db: Executor,
  sessionId: string,
  now: Date,
): Promise<UserRow | undefined> {
  const rows = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now)))
    .limit(1);
  return rows[0]?.user;
}

export async function deleteSession(db: Executor, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function deleteSessionsExpiredBy(db: Executor, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}
