// Money is stored as integer cents; the API speaks dollars as numbers (docs/decisions/000 'Money').
import { PLATFORM_CUT_PERCENT } from './constants.js';

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** Cards, purchases and checkout show whole dollars, floored (spec 9). */
export function formatWholeDollars(dollars: number): string {
  return `$${Math.floor(dollars)}`;
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
