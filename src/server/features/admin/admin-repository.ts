import { asc, count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditLog, users, videos } from '../../db/schema.js';

export async function listUsers(db: Executor, page: { limit: number; offset: number }) {
  return db.select().from(users).orderBy(asc(users.id)).limit(page.limit).offset(page.offset);
}

export async function videoIdsOfUser(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.select({ id: videos.id }).from(videos).where(eq(videos.userId, userId));
  return rows.map((row) => row.id);
}

export async function deleteUser(db: Executor, userId: number): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}

export async function setManualEarnings(db: Executor, userId: number, cents: number): Promise<void> {
  await db.update(users).set({ manualEarningsCents: cents }).where(eq(users.id, userId));
}

export async function writeAudit(
  db: Executor,
  entry: {
    /** Null for PickReel itself (an automatic refund). */
    actorId: number | null;
    action: string;
    targetType: string;
    targetId: number | null;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
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
