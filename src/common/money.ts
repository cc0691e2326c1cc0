// Money is stored as integer cents; the API speaks dollars as numbers (docs/product-decisions.md 'Money').
import { PLATFORM_CUT_PERCENT } from './constants.js';

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function centsToDollars(cents: number): number {
  return cents / 100;
}

/**
 * A price as it is charged (decisions 'Money', revised): whole dollars when it has no cents (`$10`),
 * else to the cent (`$9.99`). Never rounded: a buyer is never shown less than they pay.
 */
export function formatPrice(dollars: number): string {
  const cents = dollarsToCents(dollars);
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;
}

/** Admin tables and dialogs show two decimals (spec 9). */
export function formatDollars(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
}

/** The payout fee and what the capper receives, computed in cents so they add up exactly. */
export function payoutBreakdown(amountCents: number): { feeCents: number; netCents: number } {
  const feeCents = Math.round((amountCents * PLATFORM_CUT_PERCENT) / 100);
  return { feeCents, netCents: amountCents - feeCents };
}
