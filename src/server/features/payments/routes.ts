import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { centsToDollars } from '../../../common/money.js';
import {
  CreatePaymentIntentSchema,
  PaymentCompleteSchema,
  SandboxConfirmSchema,
  isRefundReason,
  refundMessage,
  type PaymentCompleteResponse,
  type Refund,
} from '../../../common/schemas/payments.js';
import type { Db } from '../../db/client.js';
import { webhookEvents } from '../../db/schema.js';
import { HttpError, badRequest, conflict } from '../../lib/http-errors.js';
import type { PaymentProvider } from '../../payments/provider.js';
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

  api.post(
    '/api/create-payment-intent',
    { preHandler: requireUser, schema: { body: CreatePaymentIntentSchema } },
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
    { preHandler: requireUser, schema: { body: PaymentCompleteSchema } },
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
  api.get('/api/user/refunds', { preHandler: requireUser }, async (request) => {
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
  });

  if (provider instanceof SandboxProvider) {
    api.post(
      '/api/payments/sandbox/confirm',
      { preHandler: requireUser, schema: { body: SandboxConfirmSchema } },
      async (request) =>
        confirmSandboxPayment(db, provider, request.body, currentUser(request).id, request.log),
    );
  }

  if (provider.name === 'stripe') {
    const stripe = provider as StripeProvider;
    await app.register(async (webhook) => {
      // The signature covers the exact bytes Stripe sent: keep the body raw on this route only.
      webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
        done(null, body),
      );
      webhook.post('/api/stripe/webhook', async (request) => {
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
      });
    });
  }
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
