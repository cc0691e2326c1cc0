import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import {
  CreatePaymentIntentSchema,
  PaymentCompleteSchema,
  SandboxConfirmSchema,
} from '../../../common/schemas/payments.js';
import type { Db } from '../../db/client.js';
import { webhookEvents } from '../../db/schema.js';
import { HttpError, badRequest, notFound } from '../../lib/http-errors.js';
import type { PaymentProvider } from '../../payments/provider.js';
import { SandboxProvider } from '../../payments/sandbox-provider.js';
import type { StripeProvider } from '../../payments/stripe-provider.js';
import { currentUser, requireUser } from '../auth/session.js';
import { createPaymentIntent, fulfilPayment, revokePayment } from './payments-service.js';
import { eq } from 'drizzle-orm';

export async function paymentRoutes(app: FastifyInstance, options: { db: Db; provider: PaymentProvider }) {
  const { db, provider } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/create-payment-intent',
    { preHandler: requireUser, schema: { body: CreatePaymentIntentSchema } },
    async (request) => createPaymentIntent(db, provider, currentUser(request).id, request.body.videoId),
  );

  api.post(
    '/api/payment-complete',
    { preHandler: requireUser, schema: { body: PaymentCompleteSchema } },
    async (request) => {
      const { purchaseId } = await fulfilPayment(db, provider, request.body.paymentIntentId, {
        buyerId: currentUser(request).id,
        videoId: request.body.videoId,
      });
      return { purchased: true, purchaseId };
    },
  );

  if (provider instanceof SandboxProvider) {
    api.post(
      '/api/payments/sandbox/confirm',
      { preHandler: requireUser, schema: { body: SandboxConfirmSchema } },
      async (request) => {
        const result = await provider.confirm(request.body, currentUser(request).id);
        if (!result) throw notFound('Payment not found.');
        return result;
      },
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

/** Fulfilment and refunds are idempotent, so a delivery Stripe retries after a failure is harmless. */
async function handleStripeEvent(db: Db, provider: PaymentProvider, event: Stripe.Event): Promise<void> {
  if (event.type === 'payment_intent.succeeded') {
    try {
      await fulfilPayment(db, provider, event.data.object.id);
    } catch (error) {
      // Already recorded by the browser's payment-complete call, or an intent that is not ours.
      if (error instanceof HttpError && (error.statusCode === 409 || error.statusCode === 404)) return;
      throw error;
    }
  } else if (event.type === 'charge.refunded') {
    const intent = event.data.object.payment_intent;
    const id = typeof intent === 'string' ? intent : intent?.id;
    if (id) await revokePayment(db, id);
  }
}
