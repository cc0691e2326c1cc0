// Promo codes (docs/decisions/039): the capper manages theirs; any signed-in buyer checks one.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CapperParamsSchema } from '#common/schemas/cappers.js';
import {
  CheckPromoCodeSchema,
  CreatePromoCodeSchema,
  PromoCodeListSchema,
  PromoCodeParamsSchema,
  PromoCodeSchema,
  PromoQuoteSchema,
} from '#common/schemas/promos.js';
import type { Db } from '#server/db/client.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '../auth/index.js';
import { checkPromoCode, createPromoCode, listPromoCodes, retirePromo } from './promos-service.js';

export async function promoRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  tagRoutes(app, 'Promo codes');
  await app.register(async (signedIn) => {
    signedIn.addHook('preHandler', requireUser);
    const api = signedIn.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/api/cappers/:username/promo-codes',
      {
        schema: {
          summary: "A capper's promo codes",
          description: 'Only the capper reads theirs (403 otherwise): newest first, with uses and status.',
          params: CapperParamsSchema,
          response: { 200: PromoCodeListSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => listPromoCodes(db, request.params.username, currentUser(request).id),
    );

    api.post(
      '/api/cappers/:username/promo-codes',
      {
        schema: {
          summary: 'Create a promo code',
          description:
            'Only the capper. A code is 3–20 letters, digits or dashes, unique per capper whatever its case (409). Percent 1–90, or a fixed amount in dollars; optional expiry and maximum uses; `once` (a subscription’s first period) or `forever`.',
          params: CapperParamsSchema,
          body: CreatePromoCodeSchema,
          response: { 200: PromoCodeSchema, ...errorResponses(401, 404, 409) },
        },
      },
      async (request) => createPromoCode(db, request.params.username, currentUser(request).id, request.body),
    );

    api.post(
      '/api/cappers/:username/promo-codes/:id/retire',
      {
        schema: {
          summary: 'Retire a promo code',
          description: 'Only the capper. A retired code is refused at checkout; its uses stay on record.',
          params: PromoCodeParamsSchema,
          response: { 200: PromoCodeSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) => retirePromo(db, request.params.username, currentUser(request).id, request.params.id),
    );

    api.post(
      '/api/promo-codes/check',
      {
        schema: {
          summary: 'Check a promo code',
          description:
            "For a pick (`videoId`): the price before and after, as the checkout would charge it. For a plan (`planId`): its first paid period's (after any trial), and `renewalPrice`, each later period's (discounted for a `forever` code). For a capper (`username`): what the code takes off. 404 no such code (or plan), 410 expired, 409 used up, retired, already used by you, or a retired plan.",
          body: CheckPromoCodeSchema,
          response: { 200: PromoQuoteSchema, ...errorResponses(401, 404, 409, 410) },
        },
      },
      async (request) => checkPromoCode(db, currentUser(request).id, request.body),
    );
  });
}
