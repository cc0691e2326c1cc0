import type { Db, Executor } from '#server/db/client.js';
import { centsToDollars, dollarsToCents, payoutBreakdown } from '#common/money.js';
import { bonusTooLowMessage } from '#common/schemas/admin.js';
import {
  negativeBalanceMessage,
  OVERDRAW_MESSAGE,
  type Earnings,
  type Payout,
  type PayoutRequestInput,
  type PayoutStatus,
} from '#common/schemas/earnings.js';
import { badRequest, conflict, notFound } from '#server/lib/http-errors.js';
import { saveManualEarnings } from '../auth/index.js';
import { salesTotals } from '../purchases/index.js';
import { subscriptionRevenue } from '../subscriptions/index.js';
import {
  findPayoutForUpdate,
  findPayoutOwner,
  insertPayout,
  lockUserBalance,
  payoutsHeldCents,
  setPayoutStatus,
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
  // Paid subscription periods count as sales do (docs/decisions/037), with the same fee on payout.
  const subscriptions = await subscriptionRevenue(db, userId);
  const held = await payoutsHeldCents(db, userId);
  return {
    sales,
    subscriptions,
    held,
    availableCents: sales.cents + subscriptions.cents + manualEarningsCents - held,
  };
}

export async function getEarnings(db: Db, userId: number, manualEarningsCents: number): Promise<Earnings> {
  const { sales, subscriptions, held, availableCents } = await ledger(db, userId, manualEarningsCents);
  return {
    sales: centsToDollars(sales.cents),
    salesCount: sales.count,
    subscriptions: centsToDollars(subscriptions.cents),
    bonus: centsToDollars(manualEarningsCents),
    total: centsToDollars(sales.cents + subscriptions.cents + manualEarningsCents),
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

/**
 * A bonus or manual earnings an admin grants, checked here and kept on the account by auth (docs/decisions/032).
 * The capper's row is locked as for a payout request, so a request cannot slip in between check and change,
 * and a bonus is never lowered below what was paid out or requested (the ledger would go below zero).
 * Returns the bonus it replaced, or undefined when there is no such user.
 */
export async function setManualEarnings(
  tx: Executor,
  userId: number,
  cents: number,
): Promise<{ manualEarningsCents: number } | undefined> {
  const before = await lockUserBalance(tx, userId);
  if (!before) return undefined;
  if (cents < before.manualEarningsCents) {
    const { sales, subscriptions, held } = await ledger(tx, userId, cents);
    const minimumCents = held - sales.cents - subscriptions.cents;
    if (cents < minimumCents) throw badRequest(bonusTooLowMessage(minimumCents, held));
  }
  await saveManualEarnings(tx, userId, cents);
  return before;
}

/**
 * An admin settles a pending request: paid, or rejected (its amount returns to the capper's balance). Paying
 * is refused while the capper's ledger is below zero (sales refunded after the request): the capper's row
 * is locked first, as for payout requests and bonus changes, so none of them can race this. Returns the
 * request before and after.
 */
export async function decidePayoutRequest(
  tx: Executor,
  id: number,
  change: { status: 'paid' | 'rejected'; decidedBy: number },
): Promise<{ before: PayoutRow; after: PayoutRow }> {
  const owner = await findPayoutOwner(tx, id);
  if (owner === undefined) throw notFound('Payout request not found');
  const user = await lockUserBalance(tx, owner);
  const before = await findPayoutForUpdate(tx, id);
  if (!before) throw notFound('Payout request not found');
  if (before.status !== 'pending') throw conflict(`This payout request is already ${before.status}.`);
  if (change.status === 'paid' && user) {
    const { availableCents } = await ledger(tx, before.userId, user.manualEarningsCents);
    if (availableCents < 0) throw conflict(negativeBalanceMessage(availableCents));
  }
  return { before, after: await setPayoutStatus(tx, id, change) };
}
