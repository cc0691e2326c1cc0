import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { centsToDollars } from '#common/money.js';
import { PurchaseSchema, SaleSchema, type Purchase, type Sale } from '#common/schemas/payments.js';
import { IdParamsSchema, PurchasesPageQuerySchema } from '#common/schemas/ids.js';
import type { SealedPick } from '#common/pick-seal.js';
import {
  PurchaseReceiptSchema,
  VideoSalesSchema,
  type PurchaseOutcome,
  type PurchaseReceipt,
} from '#common/schemas/purchases.js';
import type { Db } from '#server/db/client.js';
import { notFound } from '#server/lib/http-errors.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '../auth/index.js';
import { toPublicVideo, viewerOf } from '../videos/index.js';
import { legStateViews } from '../picks/index.js';
import {
  findPurchaseOfBuyer,
  listPurchasesOfUser,
  listSalesOfSeller,
  salesByVideo,
  type PickStandingRow,
} from './purchases-repository.js';

/** Another user's purchase, or none at all: the same answer, so a receipt's existence is not revealed. */
export const RECEIPT_NOT_FOUND = 'Purchase not found.';

/** Where a bought pick stands, as GET /api/picks/{id} says it; a moderated pick shows no result. */
export function outcomeOf(pick: PickStandingRow | null, now: Date): PurchaseOutcome | null {
  if (!pick) return null;
  const moderated = pick.removed === 'moderation';
  const graded = pick.result !== null;
  return {
    status: graded ? 'graded' : now >= pick.locksAt ? 'started' : 'open',
    result: graded && !moderated ? (pick.result as NonNullable<PurchaseOutcome['result']>) : null,
    unitsWon: graded && !moderated ? pick.unitsWon : null,
    removed: (pick.removed as PurchaseOutcome['removed']) ?? null,
  };
}

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
        const now = new Date();
        return rows.map(({ purchase, video, capper, pick }): Purchase => {
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
            videos: alive ? toPublicVideo({ video, capper, isPurchased: true, pick }, viewer) : null,
            outcome: alive ? outcomeOf(pick, now) : null,
          };
        });
      },
    );

    api.get(
      '/api/purchases/:id',
      {
        schema: {
          summary: "A purchase's receipt, for its buyer",
          description:
            'The amount charged, how it was paid, the pick with its legs and where each stands, and the sealed pick with its salt so the buyer can verify the commitment. 404 for anyone but the buyer.',
          params: IdParamsSchema,
          response: { 200: PurchaseReceiptSchema, ...errorResponses(401, 404) },
        },
      },
      async (request): Promise<PurchaseReceipt> => {
        const row = await findPurchaseOfBuyer(db, request.params.id, currentUser(request).id);
        if (!row) throw notFound(RECEIPT_NOT_FOUND);
        const { purchase, video, capper, pick } = row;
        const moderated = pick?.removed === 'moderation';
        const sealed = pick && !moderated ? (JSON.parse(pick.sealed) as SealedPick) : null;
        return {
          id: purchase.id,
          videoId: video ? video.id : null,
          title: video?.title ?? purchase.videoTitle,
          capper: video && capper ? { username: capper.username, displayName: capper.displayName } : null,
          amount: centsToDollars(purchase.amountCents),
          currency: row.currency ?? 'usd',
          purchasedAt: purchase.createdAt.toISOString(),
          paymentIntentId: purchase.paymentIntentId,
          paymentMethod: row.provider === 'sandbox' || row.provider === 'stripe' ? row.provider : null,
          selections: video ? (video.selections ?? null) : purchase.selectionsSnapshot,
          outcome: video ? outcomeOf(pick, new Date()) : null,
          pick:
            video && pick && sealed
              ? {
                  version: pick.version,
                  commitment: pick.commitment,
                  parlay: pick.parlay,
                  legs: sealed.legs,
                  states: await legStateViews(db, video.id),
                  sealed,
                }
              : null,
        };
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

    api.get(
      '/api/user/sales/by-video',
      {
        schema: {
          summary: "The signed-in capper's sales count and total per video",
          description:
            'One row per video with at least one sale (a deleted video has videoId null and is left out).',
          response: { 200: VideoSalesSchema.array(), ...errorResponses(401) },
        },
      },
      async (request) => {
        const rows = await salesByVideo(db, currentUser(request).id);
        return rows.flatMap((row) =>
          row.videoId === null
            ? []
            : [{ videoId: row.videoId, sales: Number(row.sales), amount: centsToDollars(Number(row.cents)) }],
        );
      },
    );
  });
}
