import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { videos } from '../../db/schema.js';
import { centsToDollars } from '../../../common/money.js';

// The catalog issue (#3) builds the full listing; the foundation needs the home page's list to exist.
const HOME_LIMIT = 60;

export async function videoRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  app.get('/api/videos', async (request) => {
    const rows = await db
      .select({
        id: videos.id,
        title: videos.title,
        description: videos.description,
        priceCents: videos.priceCents,
        category: videos.category,
        thumbnailUrl: videos.thumbnailUrl,
        videoUrl: videos.videoUrl,
        duration: videos.duration,
        userId: videos.userId,
        createdAt: videos.createdAt,
      })
      .from(videos)
      .where(eq(videos.transcodingStatus, 'ready'))
      .orderBy(desc(videos.createdAt), desc(videos.id))
      .limit(HOME_LIMIT);
    return rows.map(({ priceCents, ...row }) => ({
      ...row,
      price: centsToDollars(priceCents),
      isOwner: request.user?.id === row.userId,
      isPurchased: false,
    }));
  });
}
