import type { Db, Executor } from '../../db/client.js';
import { centsToDollars, dollarsToCents, payoutBreakdown } from '../../../common/money.js';
import {
  OVERDRAW_MESSAGE,
  negativeBalanceMessage,
  type Earnings,
  type Payout,
  type PayoutRequestInput,
  type PayoutStatus,
} from '../../../common/schemas/earnings.js';
import { badRequest, conflict, notFound } from '../../lib/http-errors.js';
import { writeAudit } from '../admin/admin-repository.js';
import { salesTotals } from '../purchases/purchases-repository.js';
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
 * The ledger (docs/decisions/000 'Security overrides'): available = sales + bonus − payouts pending or paid.
 * Only refunded sales can take it below zero: a bonus is never lowered that far (issue 11, decision 010).
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

/**
 * An admin settles a pending request: paid, or rejected (its amount returns to the capper's balance). Paying
 * is refused while the capper's ledger is below zero (sales refunded after the request; issue 11): the
 * capper's row is locked first, as for payout requests and bonus changes, so none of them can race this.
 */
export async function decidePayout(
  db: Db,
  adminId: number,
  payoutId: number,
  status: 'paid' | 'rejected',
): Promise<Payout> {
  return db.transaction(async (tx) => {
    const owner = await findPayoutOwner(tx, payoutId);
    if (owner === undefined) throw notFound('Payout request not found');
    const user = await lockUserBalance(tx, owner);
    const payout = await findPayoutForUpdate(tx, payoutId);
    if (!payout) throw notFound('Payout request not found');
    if (payout.status !== 'pending') throw conflict(`This payout request is already ${payout.status}.`);
    if (status === 'paid' && user) {
      const { availableCents } = await ledger(tx, payout.userId, user.manualEarningsCents);
      if (availableCents < 0) throw conflict(negativeBalanceMessage(availableCents));
    }
    const row = await setPayoutStatus(tx, payoutId, { status, decidedBy: adminId });
    await writeAudit(tx, {
      actorId: adminId,
      action: `payout.${status}`,
      targetType: 'payout_request',
      targetId: payoutId,
      before: { status: payout.status },
      after: { status },
    });
    return toPayoutRequest(row);
  });
}
