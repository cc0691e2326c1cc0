// A capper's promo codes (docs/decisions/039): the capper's management forms and the checkout's check.
import { z } from 'zod';

export const PROMO_KINDS = ['percent', 'fixed'] as const;
export const PROMO_DURATIONS = ['once', 'forever'] as const;
/** Stripe's smallest card charge in USD: no discount takes a price below it. */
export const MIN_CHARGE_CENTS = 50;
export const PROMO_CODE_PATTERN = /^[A-Za-z0-9-]{3,20}$/;

export const PROMO_MESSAGES = {
  notFound: 'No such code for this capper',
  expired: 'This code has expired',
  usedUp: 'This code has been used up',
  retired: 'This code is no longer active',
  usedByYou: 'You have already used this code',
  ownCode: 'You cannot use a promo code on your own pick',
  duplicate: 'You already have a code with this name',
} as const;

export const PromoCodeTextSchema = z
  .string({ error: 'Enter a code' })
  .trim()
  .min(3, 'A code has at least 3 characters')
  .max(20, 'A code has at most 20 characters')
  .regex(PROMO_CODE_PATTERN, 'Use only letters A–Z, digits 0–9 and dashes')
  .transform((code) => code.toUpperCase());

export const CreatePromoCodeSchema = z
  .object({
    code: PromoCodeTextSchema,
    kind: z.enum(PROMO_KINDS, { error: 'Choose percent or fixed amount' }),
    percentOff: z
      .number({ error: 'Percent off must be a number' })
      .int('Percent off must be a whole number')
      .min(1, 'Percent off must be at least 1')
      .max(90, 'Percent off must be at most 90')
      .optional(),
    amountOff: z
      .number({ error: 'Amount off must be a number' })
      .min(0.01, 'Amount off must be at least $0.01')
      .max(10_000, 'Amount off must be at most $10,000')
      .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
        message: 'Amount off can have at most two decimals',
      })
      .optional(),
    expiresAt: z.iso
      .datetime({ offset: true, error: 'Expiry must be a date and time' })
      .refine((value) => Date.parse(value) > Date.now(), { message: 'Expiry must be in the future' })
      .optional(),
    maxUses: z
      .number({ error: 'Maximum uses must be a number' })
      .int('Maximum uses must be a whole number')
      .min(1, 'Maximum uses must be at least 1')
      .max(1_000_000, 'Maximum uses must be at most 1,000,000')
      .optional(),
    duration: z.enum(PROMO_DURATIONS, { error: 'Duration is once or forever' }).default('once'),
  })
  .superRefine((value, ctx) => {
    if (value.kind === 'percent' && value.percentOff === undefined)
      ctx.addIssue({ code: 'custom', path: ['percentOff'], message: 'Enter the percent off' });
    if (value.kind === 'percent' && value.amountOff !== undefined)
      ctx.addIssue({ code: 'custom', path: ['amountOff'], message: 'A percent code has no amount off' });
    if (value.kind === 'fixed' && value.amountOff === undefined)
      ctx.addIssue({ code: 'custom', path: ['amountOff'], message: 'Enter the amount off' });
    if (value.kind === 'fixed' && value.percentOff !== undefined)
      ctx.addIssue({ code: 'custom', path: ['percentOff'], message: 'A fixed code has no percent off' });
  });
export type CreatePromoCode = z.input<typeof CreatePromoCodeSchema>;

export const PromoCodeParamsSchema = z.object({
  username: z.string().min(1).max(100),
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

export const PromoCodeSchema = z
  .object({
    id: z.int(),
    code: z.string(),
    kind: z.enum(PROMO_KINDS),
    percentOff: z.int().nullable(),
    amountOff: z.number().nullable().meta({ description: 'Dollars, for a fixed code' }),
    expiresAt: z.iso.datetime().nullable(),
    maxUses: z.int().nullable(),
    uses: z.int().meta({ description: 'Paid uses' }),
    reserved: z.int().meta({ description: 'Checkouts holding a use until they are paid or closed' }),
    duration: z.enum(PROMO_DURATIONS),
    status: z.enum(['active', 'expired', 'used_up', 'retired']),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'PromoCode' });
export type PromoCode = z.infer<typeof PromoCodeSchema>;

export const PromoCodeListSchema = z.array(PromoCodeSchema);

export const CheckPromoCodeSchema = z
  .object({
    username: z.string().min(1).max(100).optional(),
    videoId: z.number().int().positive().max(2_147_483_647).optional(),
    planId: z.number().int().positive().max(2_147_483_647).optional(),
    code: z.string({ error: 'Enter a code' }).trim().min(1, 'Enter a code').max(40, PROMO_MESSAGES.notFound),
  })
  .refine(
    (value) => [value.username, value.videoId, value.planId].filter((v) => v !== undefined).length === 1,
    { message: 'Name one of the capper (username), the pick (videoId) or the plan (planId)' },
  );

/** What a code takes off; with a pick, the price before and after (dollars), as the checkout charges it. */
export const PromoQuoteSchema = z
  .object({
    code: z.string(),
    kind: z.enum(PROMO_KINDS),
    percentOff: z.int().nullable(),
    amountOff: z.number().nullable(),
    duration: z.enum(PROMO_DURATIONS),
    originalPrice: z.number().nullable(),
    discount: z.number().nullable(),
    price: z
      .number()
      .nullable()
      .meta({ description: 'What the pick (or the first paid period) costs with the code' }),
    renewalPrice: z.number().nullable().meta({
      description: 'For a plan: what each period after the first paid one costs (the list price for `once`)',
    }),
  })
  .meta({ id: 'PromoQuote' });
export type PromoQuote = z.infer<typeof PromoQuoteSchema>;

/** A checkout replaced by one with another code, or none: its intent is never paid. */
export const PROMO_CHANGED_BEFORE_PAYMENT =
  'The promo code on this checkout changed. You have not been charged; please review the price.';

/** A checkout left unpaid past its hold, whose code's use another buyer took. */
export const PROMO_HOLD_EXPIRED =
  'Your promo code was held for this checkout for 30 minutes and has been released. You have not been charged.';
