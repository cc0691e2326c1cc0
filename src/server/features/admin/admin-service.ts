import type { Db } from '../../db/client.js';
import { centsToDollars, dollarsToCents } from '../../../common/money.js';
import {
  bonusTooLowMessage,
  type AdminUser,
  type AuditEntry,
  type AuditLogPage,
} from '../../../common/schemas/admin.js';
import { badRequest, forbidden, notFound } from '../../lib/http-errors.js';
import { videoMediaPrefix, type MediaStorage } from '../../media/storage.js';
import { findUserById, type UserRow } from '../auth/users-repository.js';
import { lockUserBalance } from '../earnings/earnings-repository.js';
import { ledger } from '../earnings/earnings-service.js';
import { deleteVideo, findVideoRow } from '../videos/videos-repository.js';
import {
  deleteUser,
  listAuditLog,
  setManualEarnings,
  videoIdsOfUser,
  writeAudit,
} from './admin-repository.js';

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
): Promise<void> {
  await db.transaction(async (tx) => {
    const video = await findVideoRow(tx, videoId);
    if (!video) throw notFound('Video not found');
    await deleteVideo(tx, videoId);
    await writeAudit(tx, {
      actorId: adminId,
      action: 'video.delete',
      targetType: 'video',
      targetId: videoId,
      before: { title: video.title, userId: video.userId, priceCents: video.priceCents },
    });
  });
  await storage.removePrefix(videoMediaPrefix(videoId));
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
): Promise<void> {
  const videoIds = await db.transaction(async (tx) => {
    const user = await findUserById(tx, userId);
    if (!user) throw notFound('User not found');
    if (user.isAdmin) throw forbidden('Admin accounts cannot be deleted.');
    const ids = await videoIdsOfUser(tx, userId);
    await deleteUser(tx, userId);
    await writeAudit(tx, {
      actorId: adminId,
      action: 'user.delete',
      targetType: 'user',
      targetId: userId,
      before: { username: user.username, email: user.email, videos: ids.length },
    });
    return ids;
  });
  for (const id of videoIds) await storage.removePrefix(videoMediaPrefix(id));
}

export async function adminSetManualEarnings(
  db: Db,
  adminId: number,
  userId: number,
  dollars: number,
): Promise<AdminUser> {
  return db.transaction(async (tx) => {
    // The capper's row is locked as for a payout request, so a request cannot slip in between check and change.
    const locked = await lockUserBalance(tx, userId);
    const user = locked && (await findUserById(tx, userId));
    if (!user) throw notFound('User not found');
    const cents = dollarsToCents(dollars);
    // issue 11: lowering a bonus below what was paid out or requested would leave the ledger below zero.
    if (cents < user.manualEarningsCents) {
      const { sales, held } = await ledger(tx, userId, cents);
      const minimumCents = held - sales.cents;
      if (cents < minimumCents) throw badRequest(bonusTooLowMessage(minimumCents, held));
    }
    await setManualEarnings(tx, userId, cents);
    await writeAudit(tx, {
      actorId: adminId,
      action: 'user.manual_earnings',
      targetType: 'user',
      targetId: userId,
      before: { manualEarningsCents: user.manualEarningsCents },
      after: { manualEarningsCents: cents },
    });
    return toAdminUser({ ...user, manualEarningsCents: cents });
  });
}

const asObject = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

/** The admin's Audit log tab (issue 11): every admin decision and every automatic refund, newest first. */
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
