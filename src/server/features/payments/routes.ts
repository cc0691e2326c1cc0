import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { centsToDollars } from '#common/money.js';
import {
  CreatePaymentIntentSchema,
  PaymentCompleteResponseSchema,
  PaymentCompleteSchema,
  PaymentIntentResponseSchema,
  RefundSchema,
  SandboxConfirmResponseSchema,
  SandboxConfirmSchema,
  WebhookReceiptSchema,
  isRefundReason,
  refundMessage,
  type PaymentCompleteResponse,
  type Refund,
} from '#common/schemas/payments.js';
import type { Db } from '#server/db/client.js';
import { conflict } from '#server/lib/http-errors.js';
import { KeyedMutex } from '#server/lib/keyed-mutex.js';
import type { PaymentProvider } from '#server/payments/provider.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '../auth/index.js';
import { listRefundsOfBuyer } from './payments-repository.js';
import {
  confirmSandboxPayment,
  createPaymentIntent,
  fulfilPayment,
  receiveWebhook,
} from './payments-service.js';

export async function paymentRoutes(app: FastifyInstance, options: { db: Db; provider: PaymentProvider }) {
  const { db, provider } = options;
  // One per app: concurrent checkouts of one buyer and video wait for each other here, and
  // deliveries of one webhook event too.
  const intentLocks = new KeyedMutex();
  const webhookLocks = new KeyedMutex();
  tagRoutes(app, 'Payments');

  // The buyer's routes: signed in, checked once for the group (after validation, as a route's preHandler was).
  await app.register(async (buyer) => {
    buyer.addHook('preHandler', requireUser);
    const api = buyer.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/api/create-payment-intent',
      {
        schema: {
          summary: 'Start paying for a video',
          description:
            "The buyer's open intent for this video at its current price (asked again, the same one). The amount is the server's: with `promoCode`, the price less the capper's code (404, 409 or 410 with the reason when it cannot be used); the code's use is held until the payment succeeds or the intent closes.",
          body: CreatePaymentIntentSchema,
          response: { 200: PaymentIntentResponseSchema, ...errorResponses(401, 404, 409, 410) },
        },
      },
      async (request) =>
        createPaymentIntent(
          db,
          provider,
          intentLocks,
          currentUser(request).id,
          request.body.videoId,
          request.log,
          request.body.promoCode,
        ),
    );

    // 200 when the purchase is recorded (now, or earlier for this same payment); 409 with the refund's
    // sentence when the payment unlocked nothing and was given back (decision 010).
    api.post(
      '/api/payment-complete',
      {
        schema: {
          summary: 'Record a succeeded payment',
          description:
            'The purchase is recorded once (asked again for the same payment, the same answer). A 409 says the payment unlocked nothing and was refunded; its message is the sentence for the buyer.',
          body: PaymentCompleteSchema,
          response: { 200: PaymentCompleteResponseSchema, ...errorResponses(401, 402, 404, 409) },
        },
      },
      async (request): Promise<PaymentCompleteResponse> => {
        const result = await fulfilPayment(db, provider, request.body.paymentIntentId, {
          buyerId: currentUser(request).id,
          videoId: request.body.videoId,
        });
        if (result.outcome === 'refunded') throw conflict(result.message);
        return { purchased: true, purchaseId: result.purchaseId };
      },
    );

    // The buyer's refunded payments, newest first: the dashboard lists the latest 100.
    api.get(
      '/api/user/refunds',
      {
        schema: {
          summary: "The signed-in buyer's refunded payments",
          description: 'Newest first, the latest 100.',
          response: { 200: RefundSchema.array(), ...errorResponses(401) },
        },
      },
      async (request) => {
        const rows = await listRefundsOfBuyer(db, currentUser(request).id, { limit: 100, offset: 0 });
        return rows.map(({ intent, videoTitle }): Refund => {
          const reason = isRefundReason(intent.refundReason) ? intent.refundReason : 'provider_refund';
          return {
            paymentIntentId: intent.id,
            videoId: intent.videoId,
            videoTitle,
            amount: centsToDollars(intent.amountCents),
            reason,
            message: refundMessage(reason, intent.amountCents),
            refundedAt: (intent.refundedAt ?? intent.updatedAt).toISOString(),
          };
        });
      },
    );

    // Both providers' routes are always there, so the API document describes both; the one whose
    // provider lacks the capability (`provider.sandbox`, `provider.webhooks`) answers 404.
    api.post(
      '/api/payments/sandbox/confirm',
      {
        schema: {
          summary: "Pay with the sandbox's card form (no Stripe keys set)",
          description:
            "Stripe's test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 fails for insufficient funds. A 409 means the price changed: nothing was charged. A 404 when Stripe takes the payments.",
          body: SandboxConfirmSchema,
          response: { 200: SandboxConfirmResponseSchema, ...errorResponses(401, 404, 409) },
        },
      },
      async (request) =>
        confirmSandboxPayment(db, provider, request.body, currentUser(request).id, request.log),
    );
  });

  // Signed by Stripe, not by a session: a sibling scope, outside the buyer's hook.
  await app.register(async (webhook) => {
    // The signature covers the exact bytes Stripe sent: keep the body raw on this route only.
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    webhook.post(
      '/api/stripe/webhook',
      {
        schema: {
          summary: "Stripe's events (Stripe keys set)",
          description:
            'Signed by Stripe (Stripe-Signature, checked against STRIPE_WEBHOOK_SECRET over the raw body): payment_intent.succeeded records the purchase, charge.refunded takes it back. No session or same-site check. A 404 when the sandbox takes the payments.',
          response: { 200: WebhookReceiptSchema, ...errorResponses(404) },
        },
      },
      async (request) =>
        receiveWebhook(db, provider, webhookLocks, {
          rawBody: request.body,
          signature: request.headers['stripe-signature'],
        }),
    );
  });
}
