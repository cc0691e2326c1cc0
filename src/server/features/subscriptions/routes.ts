// Capper subscriptions (docs/decisions/037): plans on a capper's page, subscribing with the sandbox card
// form, the bettor's subscriptions, the capper's subscribers, and the sandbox's test clock.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CapperParamsSchema } from '#common/schemas/cappers.js';
import {
  CapperPlanParamsSchema,
  ClockAdvanceSchema,
  ClockResultSchema,
  CLOCK_SANDBOX_ONLY_MESSAGE,
  CreatePlanSchema,
  PlanIdParamsSchema,
  PlanListSchema,
  PlanSchema,
  SubscribeSchema,
  SubscribeToPlanSchema,
  SubscribersSchema,
  SubscriptionIdParamsSchema,
  SubscriptionListSchema,
  SubscriptionSchema,
} from '#common/schemas/subscriptions.js';
import type { Db } from '#server/db/client.js';
import { HttpError } from '#server/lib/http-errors.js';
import { rateLimited } from '#server/lib/rate-limited.js';
import type { PaymentProvider } from '#server/payments/provider.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireAdmin, requireUser } from '../auth/index.js';
import { billingRoutes } from './billing-routes.js';
import { cancelAtProvider, providePlanPrice, retirePlanPrice } from './stripe-billing-service.js';
import {
  cancel,
  changeCard,
  createPlan,
  plansOf,
  retire,
  subscribe,
  subscribersOf,
  subscriptionsOf,
  sweepSubscriptions,
} from './subscriptions-service.js';

const CARDS =
  "Sandbox cards as Stripe's: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined (402), 4000 0000 0000 0341 is saved but its charges fail.";

/** Cards one user may try an hour (subscribing or changing a card): a person, not a script testing cards. */
export const CARD_TRIES_PER_HOUR = 30;

export async function subscriptionRoutes(
  app: FastifyInstance,
  options: { db: Db; provider: PaymentProvider },
) {
  const { db, provider } = options;
  const billing = provider.billing;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Subscriptions');
  billingRoutes(app, { db, provider });

  const cardTries = rateLimited(
    app.createRateLimit({
      max: CARD_TRIES_PER_HOUR,
      timeWindow: 60 * 60_000,
      keyGenerator: (request) => `subscription-card:${request.user?.id ?? request.ip}`,
    }),
    'card attempts',
  );
  const limitCardTries = async (request: FastifyRequest) => {
    currentUser(request); // 401 first: a signed-out caller is not counted
    await cardTries(request);
  };

  api.get(
    '/api/cappers/:username/plans',
    {
      schema: {
        summary: "A capper's subscription plans",
        description: 'Public: the active plans, cheapest first. The capper also sees their retired plans.',
        params: CapperParamsSchema,
        response: { 200: PlanListSchema, ...errorResponses(404) },
      },
    },
    async (request) => plansOf(db, request.params.username, request.user),
  );

  api.post(
    '/api/cappers/:username/plans',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Create a subscription plan',
        description:
          'The capper themself only. A price of 99 to 100000 cents per week, month or season (180 days), for one or more leagues, with an optional free trial of up to 30 days.',
        params: CapperParamsSchema,
        body: CreatePlanSchema,
        response: { 201: PlanSchema, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const plan = await createPlan(db, request.params.username, currentUser(request), request.body);
      // Stripe down: the plan stands, and its price is made at its first subscribe.
      if (provider.hostedBilling)
        await providePlanPrice(db, provider.hostedBilling, plan.id).catch((error: unknown) =>
          request.log.warn({ err: error, planId: plan.id }, 'Stripe price not created yet'),
        );
      return reply.code(201).send(plan);
    },
  );

  api.post(
    '/api/cappers/:username/plans/:id/retire',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Retire a subscription plan',
        description:
          'The capper themself only. No new subscriptions; live ones run to the end of their period and end without renewing.',
        params: CapperPlanParamsSchema,
        response: { 200: PlanSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const plan = await retire(db, request.params.username, request.params.id, currentUser(request));
      if (provider.hostedBilling) await retirePlanPrice(db, provider.hostedBilling, plan.id);
      return plan;
    },
  );

  api.get(
    '/api/cappers/:username/subscribers',
    {
      preHandler: requireUser,
      schema: {
        summary: "A capper's live subscribers",
        description: 'The capper themself (or an admin): how many, and the newest 500.',
        params: CapperParamsSchema,
        response: { 200: SubscribersSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => subscribersOf(db, request.params.username, currentUser(request)),
  );

  api.post(
    '/api/plans/:id/subscribe',
    {
      preHandler: limitCardTries,
      schema: {
        summary: 'Subscribe to a plan',
        description: `${CARDS} With a free trial (once per bettor and capper), nothing is charged until it ends; otherwise the first period is charged now. Not your own plan (400), not a retired one or one you already have (409). You read the capper's open picks in the plan's leagues at once, and each one they post while you are subscribed. An optional \`promoCode\` of the plan's capper discounts the first paid period (\`once\`, after any trial) or every period (\`forever\`), with the refusals of POST /api/promo-codes/check (404, 410, 409). At most ${CARD_TRIES_PER_HOUR} card attempts an hour.`,
        params: PlanIdParamsSchema,
        body: SubscribeToPlanSchema,
        response: { 201: SubscriptionSchema, ...errorResponses(401, 402, 404, 409, 410, 429, 501) },
      },
    },
    async (request, reply) => {
      const subscription = await subscribe(
        db,
        billing,
        provider.name,
        request.params.id,
        currentUser(request),
        request.body.card,
        request.body.promoCode,
      );
      return reply.code(201).send(subscription);
    },
  );

  api.get(
    '/api/subscriptions',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Your subscriptions',
        description: 'Newest first, ended ones included.',
        response: { 200: SubscriptionListSchema, ...errorResponses(401) },
      },
    },
    async (request) => subscriptionsOf(db, currentUser(request).id),
  );

  api.post(
    '/api/subscriptions/:id/cancel',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Cancel a subscription',
        description:
          'No renewal; you keep access to the end of the period (or trial) already given. A past-due subscription ends at once.',
        params: SubscriptionIdParamsSchema,
        response: { 200: SubscriptionSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      // A Stripe-managed subscription is cancelled at Stripe first; the sandbox's only here.
      await cancelAtProvider(db, provider.hostedBilling, request.params.id, currentUser(request).id);
      return cancel(db, billing, request.params.id, currentUser(request).id);
    },
  );

  api.put(
    '/api/subscriptions/:id/card',
    {
      preHandler: limitCardTries,
      schema: {
        summary: "Change a subscription's card",
        description: `${CARDS} A past-due subscription is charged on the new card at once.`,
        params: SubscriptionIdParamsSchema,
        body: SubscribeSchema,
        response: { 200: SubscriptionSchema, ...errorResponses(401, 402, 404, 409, 429, 501) },
      },
    },
    async (request) => changeCard(db, billing, request.params.id, currentUser(request).id, request.body.card),
  );

  api.post(
    '/api/payments/sandbox/clock',
    {
      preHandler: requireAdmin,
      schema: {
        summary: "Move the sandbox's test clock on",
        description:
          "An admin's (or a test's): as Stripe's test clocks, the sandbox's time moves on by advanceSeconds and the renewals due by then run at once. A 404 when Stripe takes the payments.",
        body: ClockAdvanceSchema,
        response: { 200: ClockResultSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const clock = billing?.testClock;
      if (!billing || !clock || provider.name !== 'sandbox')
        throw new HttpError(404, CLOCK_SANDBOX_ONLY_MESSAGE);
      await clock.advance(request.body.advanceSeconds);
      const result = await sweepSubscriptions(db, billing);
      return { ...result, now: result.now.toISOString() };
    },
  );
}
