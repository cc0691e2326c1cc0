import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { centsToDollars } from '#common/money.js';
import { PurchaseSchema, SaleSchema, type Purchase, type Sale } from '#common/schemas/payments.js';
import { PurchasesPageQuerySchema } from '#common/schemas/ids.js';
import type { Db } from '#server/db/client.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '../auth/index.js';
import { toPublicVideo, viewerOf } from '../videos/index.js';
import { listPurchasesOfUser, listSalesOfSeller } from './purchases-repository.js';

export async function purchaseRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  tagRoutes(app, 'Purchases');

  // Every route here is the signed-in user's: one hook for the group (after validation, as before).
  await app.register(async (signedIn) => {
    signedIn.addHook('preHandler', requireUser);
    const api = signedIn.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/api/user/purchases',
      {
        schema: {
          summary: "The signed-in buyer's purchases",
          description:
            'Newest first, each with its video (winning selections included), or, once the video is deleted, the selections as they stood at purchase.',
          querystring: PurchasesPageQuerySchema,
          response: { 200: PurchaseSchema.array(), ...errorResponses(401) },
        },
      },
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
      {
        schema: {
          summary: "The signed-in capper's sales",
          querystring: PurchasesPageQuerySchema,
          response: { 200: SaleSchema.array(), ...errorResponses(401) },
        },
      },
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
  });
}
