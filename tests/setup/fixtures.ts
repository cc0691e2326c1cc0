// Rows for tests, written through the repositories (the upload issue adds the real way in).
import { purchases, sales } from '#server/db/schema.js';
import { insertVideo, type NewVideoRow, type VideoRow } from '#server/features/videos/videos-repository.js';
import type { TestApp } from './test-app.js';

type AppAndDatabase = Pick<TestApp, 'app' | 'database'>;
let counter = 0;

export async function createVideo(
  t: AppAndDatabase,
  userId: number,
  overrides: Partial<NewVideoRow> = {},
): Promise<VideoRow> {
  counter += 1;
  // Written behind the API's back, so the cached catalog pages are dropped as the API would.
  t.app.catalog.clear();
  return insertVideo(t.database.db, {
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

export async function createPurchase(t: AppAndDatabase, buyerId: number, video: VideoRow): Promise<void> {
  counter += 1;
  const db = t.database.db;
  const [purchase] = await db
    .insert(purchases)
    .values({
      userId: buyerId,
      videoId: video.id,
      videoTitle: video.title,
      selectionsSnapshot: video.emailInformation,
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
