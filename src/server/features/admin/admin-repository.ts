import { asc, count, desc, eq } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { auditLog, payoutRequests, users, videos } from '#server/db/schema.js';

export async function listUsers(db: Executor, page: { limit: number; offset: number }) {
  return db.select().from(users).orderBy(asc(users.id)).limit(page.limit).offset(page.offset);
}

export async function videoIdsOfUser(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.select({ id: videos.id }).from(videos).where(eq(videos.userId, userId));
  return rows.map((row) => row.id);
}

/** The audit log, newest first, with the acting admin's name (null for PickReel itself or a deleted admin). */
export async function listAuditLog(db: Executor, page: { limit: number; offset: number }) {
  const rows = await db
    .select({ entry: auditLog, actorUsername: users.username })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(auditLog);
  return { rows, total: Number(total?.n ?? 0) };
}

// Payout requests as the admin's Payouts tab lists them (earnings decides them, and keeps the capper's side).
export async function listAllPayouts(db: Executor, page: { limit: number; offset: number }) {
  return db
    .select({ payout: payoutRequests, username: users.username })
    .from(payoutRequests)
    .innerJoin(users, eq(users.id, payoutRequests.userId))
    .orderBy(desc(payoutRequests.createdAt), desc(payoutRequests.id))
    .limit(page.limit)
    .offset(page.offset);
}
