import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.js';
import { centsToDollars, dollarsToCents } from '#common/money.js';
import { type AdminUser, type AuditEntry, type AuditLogPage } from '#common/schemas/admin.js';
import { type AdminPayout, type Payout, type PayoutDecision } from '#common/schemas/earnings.js';
import { writeAudit } from '#server/db/audit-log.js';
import { emit } from '#server/events/index.js';
import { forbidden, notFound } from '#server/lib/http-errors.js';
import { queueMediaRemoval, removeQueuedMedia } from '#server/media/media-removal.js';
import { videoMediaPrefix, type MediaStorage } from '#server/media/storage.js';
import { deleteAccount, findUserById, type UserRow } from '../auth/index.js';
import { decidePayoutRequest, setManualEarnings, toPayoutRequest } from '../earnings/index.js';
import { removePicksOfCapper } from '../picks/index.js';
import { deleteVideoWithPick, findVideoRow } from '../videos/index.js';
import { listAllPayouts, listAuditLog, videoIdsOfUser } from './admin-repository.js';

export function toAdminUser(row: UserRow): AdminUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    phoneNumber: row.phoneNumber,
    password: 'hidden',
    isAdmin: row.isAdmin,
    manualEarnings: centsToDollars(row.manualEarningsCents),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function adminDeleteVideo(
  db: Db,
  storage: MediaStorage,
  adminId: number,
  videoId: number,
  log?: FastifyBaseLogger,
): Promise<void> {
  const removal = await db.transaction(async (tx) => {
    const video = await findVideoRow(tx, videoId);
    if (!video) throw notFound('Video not found');
    // Moderation takes a pick off the record's results (the record says it was removed).
    const removal = await deleteVideoWithPick(tx, video, { moderation: video.userId !== adminId });
    await writeAudit(tx, {
      actorId: adminId,
      action: 'video.delete',
      targetType: 'video',
      targetId: videoId,
      before: { title: video.title, userId: video.userId, priceCents: video.priceCents },
    });
    return removal;
  });
  await removeQueuedMedia(db, storage, removal, log);
}

/**
 * Deletes a non-admin user with their videos, purchases, sessions and payout requests in one
 * transaction (foreign keys cascade), then their media files once that has committed.
 */
export async function adminDeleteUser(
  db: Db,
  storage: MediaStorage,
  adminId: number,
  userId: number,
  log?: FastifyBaseLogger,
): Promise<void> {
  const removal = await db.transaction(async (tx) => {
    const user = await findUserById(tx, userId);
    if (!user) throw notFound('User not found');
    if (user.isAdmin) throw forbidden('Admin accounts cannot be deleted.');
    const ids = await videoIdsOfUser(tx, userId);
    // The account's picks leave the record by moderation, and the public log says so.
    await removePicksOfCapper(tx, userId);
    await deleteAccount(tx, userId);
    await writeAudit(tx, {
      actorId: adminId,
      action: 'user.delete',
      targetType: 'user',
      targetId: userId,
      before: { username: user.username, email: user.email, videos: ids.length },
    });
    await emit(tx, { type: 'user.deleted', userId });
    return queueMediaRemoval(tx, ids.map(videoMediaPrefix));
  });
  await removeQueuedMedia(db, storage, removal, log);
}

export async function adminSetManualEarnings(
  db: Db,
  adminId: number,
  userId: number,
  dollars: number,
): Promise<AdminUser> {
  const cents = dollarsToCents(dollars);
  return db.transaction(async (tx) => {
    const before = await setManualEarnings(tx, userId, cents);
    const user = before && (await findUserById(tx, userId));
    if (!user) throw notFound('User not found');
    await writeAudit(tx, {
      actorId: adminId,
      action: 'user.manual_earnings',
      targetType: 'user',
      targetId: userId,
      before: { manualEarningsCents: before.manualEarningsCents },
      after: { manualEarningsCents: cents },
    });
    return toAdminUser(user);
  });
}

const asObject = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

/** The admin's Audit log tab: every admin decision and every automatic refund, newest first. */
export async function getAuditLog(db: Db, page: { limit: number; offset: number }): Promise<AuditLogPage> {
  const { rows, total } = await listAuditLog(db, page);
  return {
    total,
    entries: rows.map(({ entry, actorUsername }): AuditEntry => ({
      id: entry.id,
      actorId: entry.actorId,
      actorUsername,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      before: asObject(entry.before),
      after: asObject(entry.after),
      createdAt: entry.createdAt.toISOString(),
    })),
  };
}

/** The admin's Payouts tab: every request, newest first, with its capper's name. */
export async function listPayouts(db: Db, page: { limit: number; offset: number }): Promise<AdminPayout[]> {
  const rows = await listAllPayouts(db, page);
  return rows.map(({ payout, username }) => ({ ...toPayoutRequest(payout), username }));
}

/** An admin settles a pending request (earnings checks it under the capper's balance lock), audited. */
export async function decidePayout(
  db: Db,
  adminId: number,
  payoutId: number,
  status: PayoutDecision,
): Promise<Payout> {
  return db.transaction(async (tx) => {
    const { before, after } = await decidePayoutRequest(tx, payoutId, { status, decidedBy: adminId });
    await writeAudit(tx, {
      actorId: adminId,
      action: `payout.${status}`,
      targetType: 'payout_request',
      targetId: payoutId,
      before: { status: before.status },
      after: { status },
    });
    return toPayoutRequest(after);
  });
}
