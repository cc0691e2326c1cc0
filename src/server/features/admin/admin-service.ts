import type { Db } from '../../db/client.js';
import { centsToDollars, dollarsToCents } from '../../../common/money.js';
import type { AdminUser } from '../../../common/schemas/admin.js';
import { forbidden, notFound } from '../../lib/http-errors.js';
import { videoMediaPrefix, type MediaStorage } from '../../media/storage.js';
import { findUserById, type UserRow } from '../auth/users-repository.js';
import { deleteVideo, findVideoRow } from '../videos/videos-repository.js';
import { deleteUser, setManualEarnings, videoIdsOfUser, writeAudit } from './admin-repository.js';

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
    const user = await findUserById(tx, userId);
    if (!user) throw notFound('User not found');
    const cents = dollarsToCents(dollars);
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
