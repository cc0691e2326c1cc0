import type { Db, Executor } from '#server/db/client.js';
import { centsToDollars, dollarsToCents, payoutBreakdown } from '#common/money.js';
import {
  OVERDRAW_MESSAGE,
  type Earnings,
  type Payout,
  type PayoutRequestInput,
  type PayoutStatus,
} from '#common/schemas/earnings.js';
import { badRequest, notFound } from '#server/lib/http-errors.js';
import { salesTotals } from '../purchases/index.js';
import {
  insertPayout,
  lockUserBalance,
  payoutsHeldCents,
  setPayoutStatus,
  updateManualEarnings,
  type PayoutRow,
} from './earnings-repository.js';

export function toPayoutRequest(row: PayoutRow): Payout {
  return {
    id: row.id,
    userId: row.userId,
    amount: centsToDollars(row.amountCents),
    fee: centsToDollars(row.feeCents),
    net: centsToDollars(row.netCents),
    paymentMethod: row.paymentMethod,
    accountDetails: row.accountDetails,
    status: row.status as PayoutStatus,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * The ledger (docs/product-decisions.md 'Security overrides'): available = sales + bonus − payouts pending or paid.
 * Only refunded sales can take it below zero: a bonus is never lowered that far (decision 010).
 */
export async function ledger(db: Executor, userId: number, manualEarningsCents: number) {
  const sales = await salesTotals(db, userId);
  const held = await payoutsHeldCents(db, userId);
  return { sales, held, availableCents: sales.cents + manualEarningsCents - held };
}

export async function getEarnings(db: Db, userId: number, manualEarningsCents: number): Promise<Earnings> {
  const { sales, held, availableCents } = await ledger(db, userId, manualEarningsCents);
  return {
    sales: centsToDollars(sales.cents),
    salesCount: sales.count,
    bonus: centsToDollars(manualEarningsCents),
    total: centsToDollars(sales.cents + manualEarningsCents),
    payoutsRequested: centsToDollars(held),
    // What can be paid out: never below zero, so no payout is ever offered out of money that is not there.
    available: centsToDollars(Math.max(0, availableCents)),
  };
}

/**
 * Records a payout request if the balance covers it. The capper's row is locked first, so concurrent
 * requests are checked one after another against the same ledger and can never overdraw it.
 */
export async function requestPayout(db: Db, userId: number, input: PayoutRequestInput): Promise<Payout> {
  const amountCents = dollarsToCents(input.amount);
  return db.transaction(async (tx) => {
    const user = await lockUserBalance(tx, userId);
    if (!user) throw notFound('User not found');
    const { availableCents } = await ledger(tx, userId, user.manualEarningsCents);
    if (amountCents > availableCents) throw badRequest(OVERDRAW_MESSAGE);
    const { feeCents, netCents } = payoutBreakdown(amountCents);
    const row = await insertPayout(tx, {
      userId,
      amountCents,
      feeCents,
      netCents,
      paymentMethod: input.paymentMethod,
      accountDetails: input.accountDetails,
      status: 'pending',
    });
    return toPayoutRequest(row);
  });
}

/** A bonus or manual earnings an admin grants: the earnings feature alone writes a balance (docs/decisions/032). */
export async function setManualEarnings(tx: Executor, userId: number, cents: number): Promise<void> {
  await updateManualEarnings(tx, userId, cents);
}

/** An admin's decision on a payout request (checked and audited by the admin feature, under the balance lock). */
export async function decidePayoutRequest(
  tx: Executor,
  id: number,
  change: { status: 'paid' | 'rejected'; decidedBy: number },
): Promise<PayoutRow> {
  return setPayoutStatus(tx, id, change);
}
