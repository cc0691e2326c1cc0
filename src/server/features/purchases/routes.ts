import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { centsToDollars } from '../../../common/money.js';
import type { Purchase, Sale } from '../../../common/schemas/payments.js';
import { queryInt } from '../../../common/schemas/ids.js';
import type { Db } from '../../db/client.js';
import { currentUser, requireUser } from '../auth/session.js';
import type { CatalogCache } from '../videos/catalog-cache.js';
import { toPublicVideo, viewerOf } from '../videos/videos-service.js';
import { listPurchasesOfUser, listSalesOfSeller } from './purchases-repository.js';

const PageQuery = z.object({
  limit: queryInt({ name: 'Limit', min: 1, max: 1000, default: 1000 }),
  offset: queryInt({ name: 'Offset', min: 0, max: 1_000_000, default: 0 }),
});

export async function purchaseRoutes(app: FastifyInstance, options: { db: Db; catalog: CatalogCache }) {
  const { db } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/user/purchases',
    { preHandler: requireUser, schema: { querystring: PageQuery } },
    async (request) => {
      const user = currentUser(request);
      const viewer = viewerOf(user);
      const rows = await listPurchasesOfUser(db, user.id, request.query);
      return rows.map(({ purchase, video, capper }): Purchase => {
        const alive = video !== null && capper !== null;
        return {
          id: purchase.id,
          videoId: purchase.videoId,
          amount: centsToDollars(purchase.amountCents),
          paymentIntentId: purchase.paymentIntentId,
          createdAt: purchase.createdAt.toISOString(),
          purchaseDate: purchase.createdAt.toISOString(),
          videoTitle: purchase.videoTitle,
          selectionsSnapshot: alive ? null : purchase.selectionsSnapshot,
          videos: alive ? toPublicVideo({ video, capper, isPurchased: true }, viewer) : null,
        };
      });
    },
  );

  api.get(
    '/api/user/sales',
    { preHandler: requireUser, schema: { querystring: PageQuery } },
    async (request) => {
      const rows = await listSalesOfSeller(db, currentUser(request).id, request.query);
      return rows.map((row): Sale => ({
        id: row.id,
        amount: centsToDollars(row.amountCents),
        videoId: row.videoId,
        videoTitle: row.videoTitle,
        createdAt: row.createdAt.toISOString(),
      }));
    },
  );
}
