// Open tus uploads and the per-user caps on them (docs/decisions/007).
import { eq, lte, sql } from '#server/db/drizzle.js';
import { MAX_UPLOAD_BYTES } from '#common/constants.js';
import { lockKey } from '#server/db/advisory-locks.js';
import type { Executor } from '#server/db/client.js';
import { uploads } from '#server/db/schema.js';
import { rowsOf } from '#server/db/rows.js';

/** Unfinished uploads one user may hold at once. */
export const OPEN_UPLOADS_MAX = 5;
/** Bytes those may reserve together: two uploads of the largest size. */
export const RESERVED_BYTES_MAX = 2 * MAX_UPLOAD_BYTES;

export type Reservation = 'reserved' | 'too-many' | 'too-large';

/**
 * Counts the user's open uploads and reserves one more if the caps allow it, in one transaction under a
 * per-user advisory lock: concurrent creates (one instance or several) are counted one after the other.
 */
export async function reserveUpload(
  db: Executor,
  upload: { id: string; userId: number; sizeBytes: number; expiresAt: Date },
): Promise<Reservation> {
  return db.transaction(async (tx) => {
    await lockKey(tx, 'uploads', upload.userId);
    const [open] = rowsOf<{ count: number | string; bytes: number | string }>(
      await tx.execute(
        sql`select count(*) as count, coalesce(sum(${uploads.sizeBytes}), 0) as bytes from ${uploads}
            where ${uploads.userId} = ${upload.userId} and ${uploads.expiresAt} > now()`,
      ),
    );
    if (Number(open?.count ?? 0) >= OPEN_UPLOADS_MAX) return 'too-many';
    if (Number(open?.bytes ?? 0) + upload.sizeBytes > RESERVED_BYTES_MAX) return 'too-large';
    await tx.insert(uploads).values(upload);
    return 'reserved';
  });
}

/** The upload is no longer open: it became a video, was refused, cancelled, or its creation failed. */
export async function releaseUpload(db: Executor, id: string): Promise<void> {
  await db.delete(uploads).where(eq(uploads.id, id));
}

/** Expired reservations (they stopped counting at expiry already); the sweep keeps the table small. */
export async function deleteExpiredUploads(db: Executor, now = new Date()): Promise<number> {
  const rows = await db.delete(uploads).where(lte(uploads.expiresAt, now)).returning({ id: uploads.id });
  return rows.length;
}
