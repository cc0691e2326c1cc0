// Capper subscription plans and bettors' subscriptions (docs/decisions/037): what the API takes and answers.
import { z } from 'zod';
import { LEAGUES } from '../leagues.js';
import { idSchema } from './ids.js';
import { SandboxConfirmSchema } from './payments.js';

export const PLAN_INTERVALS = ['week', 'month', 'season'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];
/** How long one paid period lasts; a season is 180 days (docs/decisions/037). */
export const INTERVAL_DAYS: Record<PlanInterval, number | 'month'> = { week: 7, month: 'month', season: 180 };
export const PLAN_LIMITS = {
  nameMax: 60,
  priceMinCents: 99,
  priceMaxCents: 100_000,
  trialMaxDays: 30,
} as const;
/** After a failed renewal, access lasts this long while the charge is retried daily (docs/decisions/037). */
export const GRACE_DAYS = 3;

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'ended'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIBE_SELF_MESSAGE = 'You cannot subscribe to your own plan.';
export const PLAN_RETIRED_MESSAGE = 'This plan is retired and takes no new subscribers.';
export const ALREADY_SUBSCRIBED_MESSAGE = 'You already have a subscription to this plan.';
export const PLAN_NOT_FOUND_MESSAGE = 'Plan not found';
export const TRIAL_USED_MESSAGE = 'Your free trial with this capper was just used: subscribe again to pay.';
export const SUBSCRIPTION_NOT_FOUND_MESSAGE = 'Subscription not found';
export const NOT_YOUR_PLANS_MESSAGE = 'Only the capper can manage their own plans.';
export const NO_BILLING_MESSAGE = 'Subscriptions are not available with this payment provider yet.';
export const CLOCK_SANDBOX_ONLY_MESSAGE = 'The test clock exists only with the sandbox payment provider.';

export const PlanIdParamsSchema = z.object({ id: idSchema('Plan id must be a whole number') });
export const SubscriptionIdParamsSchema = z.object({
  id: idSchema('Subscription id must be a whole number'),
});
export const CapperPlanParamsSchema = z.object({
  username: z.string().min(1).max(100),
  id: idSchema('Plan id must be a whole number'),
});

export const CreatePlanSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(PLAN_LIMITS.nameMax, `Name must be at most ${PLAN_LIMITS.nameMax} characters`),
  priceCents: z
    .number({ error: 'priceCents must be a number' })
    .int('priceCents must be a whole number of cents')
    .min(PLAN_LIMITS.priceMinCents, 'The price must be at least $0.99')
    .max(PLAN_LIMITS.priceMaxCents, 'The price must be at most $1,000'),
  interval: z.enum(PLAN_INTERVALS, { error: 'Interval must be week, month or season' }),
  leagues: z
    .array(z.enum(LEAGUES, { error: `Leagues must be among: ${LEAGUES.join(', ')}` }))
    .min(1, 'Choose at least one league')
    .max(LEAGUES.length)
    .refine((leagues) => new Set(leagues).size === leagues.length, 'Each league once'),
  trialDays: z
    .number({ error: 'trialDays must be a number' })
    .int('trialDays must be a whole number')
    .min(0, 'trialDays cannot be negative')
    .max(PLAN_LIMITS.trialMaxDays, `A trial lasts at most ${PLAN_LIMITS.trialMaxDays} days`)
    .default(0),
});
export type CreatePlan = z.input<typeof CreatePlanSchema>;

export const PlanSchema = z
  .object({
    id: z.int(),
    capperUsername: z.string(),
    name: z.string(),
    priceCents: z.int(),
    interval: z.enum(PLAN_INTERVALS),
    leagues: z.array(z.string()),
    trialDays: z.int(),
    active: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'SubscriptionPlan' });
export type Plan = z.infer<typeof PlanSchema>;
export const PlanListSchema = z.array(PlanSchema);

/** POST /api/plans/{id}/subscribe and PUT /api/subscriptions/{id}/card: the sandbox card form. */
export const SubscribeSchema = z.object({ card: SandboxConfirmSchema.shape.card });
export type Subscribe = z.infer<typeof SubscribeSchema>;
/** POST /api/plans/{id}/subscribe: the card, and optionally a promo code of the plan's capper (decision 039). */
export const SubscribeToPlanSchema = SubscribeSchema.extend({
  promoCode: z
    .string({ error: 'A promo code is text' })
    .trim()
    .min(1, 'Enter a code')
    .max(40, 'No such code for this capper')
    .optional(),
});
export type SubscribeToPlan = z.infer<typeof SubscribeToPlanSchema>;

/** A promo code on a subscription, as it stood when it was taken (decision 039). */
export const SubscriptionPromoSchema = z
  .object({
    code: z.string(),
    kind: z.enum(['percent', 'fixed']),
    percentOff: z.int().nullable(),
    amountOffCents: z
      .int()
      .nullable()
      .meta({ description: 'For a fixed code: cents off each discounted period' }),
    duration: z.enum(['once', 'forever']),
    active: z.boolean().meta({ description: 'Whether the next charge is still discounted' }),
  })
  .meta({ id: 'SubscriptionPromo' });

export const SubscriptionSchema = z
  .object({
    id: z.int(),
    plan: PlanSchema,
    status: z.enum(SUBSCRIPTION_STATUSES),
    cardLast4: z.string(),
    trialEnd: z.iso.datetime().nullable(),
    currentPeriodEnd: z.iso.datetime(),
    nextRenewal: z.iso.datetime().nullable().meta({
      description: 'When the next charge is tried; null once cancelled or ended.',
    }),
    accessUntil: z.iso.datetime().nullable().meta({
      description: 'When access ends if nothing is renewed; null once ended.',
    }),
    promo: SubscriptionPromoSchema.nullable(),
    nextChargeCents: z.int().nullable().meta({
      description: 'What the next renewal charges, discount included; null when nothing renews.',
    }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof SubscriptionSchema>;
export const SubscriptionListSchema = z.array(SubscriptionSchema);

/** GET /api/cappers/{username}/subscribers: the capper's own view. */
export const SubscribersSchema = z
  .object({
    count: z.int().describe('Live subscriptions (trialing, active, past due or cancelled before their end).'),
    subscribers: z.array(
      z.object({
        username: z.string(),
        planName: z.string(),
        status: z.enum(SUBSCRIPTION_STATUSES),
        since: z.iso.datetime(),
      }),
    ),
  })
  .meta({ id: 'Subscribers' });
export type Subscribers = z.infer<typeof SubscribersSchema>;

export const ClockAdvanceSchema = z.object({
  advanceSeconds: z
    .number({ error: 'advanceSeconds must be a number' })
    .int('advanceSeconds must be a whole number')
    .min(1, 'advanceSeconds must be positive')
    .max(5 * 366 * 24 * 3600, 'advanceSeconds is too large'),
});

export const ClockResultSchema = z
  .object({
    now: z.iso.datetime(),
    renewed: z.int(),
    failed: z.int(),
    ended: z.int(),
  })
  .meta({ id: 'SandboxClock' });
export type ClockResult = z.infer<typeof ClockResultSchema>;
