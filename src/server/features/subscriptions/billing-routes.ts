// Stripe Billing's routes (docs/decisions/041): starting a subscription the browser confirms with the
// Payment Element, and the Customer Portal. Both answer 404 when the sandbox takes the payments.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PortalSessionSchema,
  ProviderSubscriptionParamsSchema,
  StripeSubscribeResponseSchema,
} from '#common/schemas/billing.js';
import { PlanIdParamsSchema, SubscriptionSchema } from '#common/schemas/subscriptions.js';
import type { Db } from '#server/db/client.js';
import type { PaymentProvider } from '#server/payments/provider.js';
import { errorResponses } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '../auth/index.js';
import { portalSession, refreshFromStripe, subscribeWithStripe } from './stripe-billing-service.js';

export function billingRoutes(app: FastifyInstance, options: { db: Db; provider: PaymentProvider }) {
  const { db, provider } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/plans/:id/subscribe/stripe',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Subscribe to a plan with Stripe Billing',
        description:
          "Stripe keys set: starts an incomplete Stripe subscription and answers the client secret Stripe.js confirms (intentType payment: the first invoice's payment; setup: a trial's card, nothing due now). The subscription appears in GET /api/subscriptions once Stripe's webhook says it is paid or trialing. A 404 with the sandbox.",
        params: PlanIdParamsSchema,
        response: { 201: StripeSubscribeResponseSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const started = await subscribeWithStripe(
        db,
        provider.hostedBilling,
        request.params.id,
        currentUser(request).id,
      );
      return reply.code(201).send(started);
    },
  );

  api.post(
    '/api/billing/subscriptions/:providerSubscriptionId/refresh',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Read a Stripe subscription after confirming it',
        description:
          "Stripe keys set: your subscription as Stripe has it now, written at once (the webhook would do the same). A 409 while Stripe has not confirmed it; a 404 for another's or with the sandbox.",
        params: ProviderSubscriptionParamsSchema,
        response: { 200: SubscriptionSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) =>
      refreshFromStripe(
        db,
        provider.hostedBilling,
        request.params.providerSubscriptionId,
        currentUser(request).id,
      ),
  );

  api.post(
    '/api/billing/portal',
    {
      preHandler: requireUser,
      schema: {
        summary: 'A Stripe Customer Portal session (cards, invoices, cancelling)',
        description:
          'Stripe keys set: the URL of a portal session for your Stripe customer, returning to /subscriptions. A 404 with the sandbox or before your first Stripe subscription.',
        response: { 200: PortalSessionSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) =>
      portalSession(
        db,
        provider.hostedBilling,
        currentUser(request).id,
        `${request.protocol}://${request.host}/subscriptions`,
      ),
  );
}
