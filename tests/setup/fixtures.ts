// Rows for tests, written through the repositories (the upload issue adds the real way in).
import type { Db } from '../../src/server/db/client.js';
import { purchases, sales } from '../../src/server/db/schema.js';
import {
  insertVideo,
  type NewVideoRow,
  type VideoRow,
} from '../../src/server/features/videos/videos-repository.js';

let counter = 0;

export async function createVideo(
  db: Db,
  userId: number,
  overrides: Partial<NewVideoRow> = {},
): Promise<VideoRow> {
  counter += 1;
  return insertVideo(db, {
    userId,
    title: `Lakers vs Celtics pick ${counter}`,
    description: `Game breakdown number ${counter}`,
    emailInformation: `SECRET-SELECTIONS-${counter}: Lakers -3.5`,
    priceCents: 1999,
    category: 'NBA',
    videoUrl: `/media/videos/${counter}/video.mp4`,
    thumbnailUrl: `/media/videos/${counter}/thumb.jpg`,
    transcodingStatus: 'ready',
    isTranscoded: true,
    duration: 75,
    ...overrides,
  });
}

export async function createPurchase(db: Db, buyerId: number, video: VideoRow): Promise<void> {
  counter += 1;
  const [purchase] = await db
    .insert(purchases)
    .values({
      userId: buyerId,
      videoId: video.id,
      amountCents: video.priceCents,
      paymentIntentId: `pi_test_${counter}_${Date.now()}`,
    })
    .returning();
  await db.insert(sales).values({
    sellerId: video.userId,
    videoId: video.id,
    purchaseId: purchase!.id,
    buyerId,
    amountCents: video.priceCents,
  });
}
