import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { centsToDollars } from '../../../common/money.js';
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
} from '../../../common/schemas/payments.js';
import type { Db } from '../../db/client.js';
import { webhookEvents } from '../../db/schema.js';
import { HttpError, badRequest, conflict, notFound } from '../../lib/http-errors.js';
import type { PaymentProvider } from '../../payments/provider.js';
import { errorResponses, tagRoutes } from '../../plugins/api-contract.js';
import { SandboxProvider } from '../../payments/sandbox-provider.js';
import type { StripeProvider } from '../../payments/stripe-provider.js';
import { currentUser, requireUser } from '../auth/session.js';
import { KeyedMutex } from './keyed-mutex.js';
import { listRefundsOfBuyer } from './payments-repository.js';
import {
  confirmSandboxPayment,
  createPaymentIntent,
  fulfilPayment,
  revokePayment,
} from './payments-service.js';
import { eq } from 'drizzle-orm';

export async function paymentRoutes(app: FastifyInstance, options: { db: Db; provider: PaymentProvider }) {
  const { db, provider } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // One per app: concurrent checkouts of one buyer and video wait for each other here (issue 11).
  const intentLocks = new KeyedMutex();
  tagRoutes(app, 'Payments');

  api.post(
    '/api/create-payment-intent',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Start paying for a video',
        description:
          "The buyer's open intent for this video at its current price (asked again, the same one). The amount is the server's.",
        body: CreatePaymentIntentSchema,
        response: { 200: PaymentIntentResponseSchema, ...errorResponses(401, 404, 409) },
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
      ),
  );

  // 200 when the purchase is recorded (now, or earlier for this same payment); 409 with the refund's
  // sentence when the payment unlocked nothing and was given back (decision 010).
  api.post(
    '/api/payment-complete',
    {
      preHandler: requireUser,
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

  // The buyer's refunded payments, newest first (issue 11): the dashboard lists the latest 100.
  api.get(
    '/api/user/refunds',
    {
      preHandler: requireUser,
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

  // Both providers' routes are always there, so the API document describes both (issue 13); the one whose
  // provider is not in use answers 404.
  const sandbox = provider instanceof SandboxProvider ? provider : null;
  api.post(
    '/api/payments/sandbox/confirm',
    {
      preHandler: requireUser,
      schema: {
        summary: "Pay with the sandbox's card form (no Stripe keys set)",
        description:
          "Stripe's test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 fails for insufficient funds. A 409 means the price changed: nothing was charged. A 404 when Stripe takes the payments.",
        body: SandboxConfirmSchema,
        response: { 200: SandboxConfirmResponseSchema, ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => {
      if (!sandbox) throw notFound('The sandbox card form is not in use: payments go through Stripe.');
      return confirmSandboxPayment(db, sandbox, request.body, currentUser(request).id, request.log);
    },
  );

  const stripe = provider.name === 'stripe' ? (provider as StripeProvider) : null;
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
      async (request) => {
        if (!stripe) throw notFound('Stripe is not configured.');
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string' || !Buffer.isBuffer(request.body))
          throw badRequest('Missing Stripe signature.');
        let event: Stripe.Event;
        try {
          event = stripe.constructEvent(request.body, signature);
        } catch {
          throw badRequest('Invalid Stripe signature.');
        }
        const [seen] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id)).limit(1);
        if (seen) return { received: true, duplicate: true };
        await handleStripeEvent(db, provider, event);
        await db.insert(webhookEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
        return { received: true };
      },
    );
  });
}

/**
 * Fulfilment and refunds are idempotent, so a delivery Stripe retries after a failure is harmless. A payment
 * that unlocks nothing is refunded here too (issue 11): only the same payment recorded already is 'done'.
 */
async function handleStripeEvent(db: Db, provider: PaymentProvider, event: Stripe.Event): Promise<void> {
  if (event.type === 'payment_intent.succeeded') {
    try {
      await fulfilPayment(db, provider, event.data.object.id);
    } catch (error) {
      // An intent that is not ours (another application on the same Stripe account).
      if (error instanceof HttpError && error.statusCode === 404) return;
      throw error;
    }
  } else if (event.type === 'charge.refunded') {
    const intent = event.data.object.payment_intent;
    const id = typeof intent === 'string' ? intent : intent?.id;
    if (id) await revokePayment(db, id);
  }
}
