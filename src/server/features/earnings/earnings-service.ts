import type { Db, Executor } from '../../db/client.js';
import { centsToDollars, dollarsToCents, payoutBreakdown } from '../../../common/money.js';
import {
  OVERDRAW_MESSAGE,
  type Earnings,
  type PayoutRequest,
  type PayoutRequestInput,
  type PayoutStatus,
} from '../../../common/schemas/earnings.js';
import { badRequest, conflict, notFound } from '../../lib/http-errors.js';
import { writeAudit } from '../admin/admin-repository.js';
import { salesTotals } from '../purchases/purchases-repository.js';
import {
  findPayoutForUpdate,
  insertPayout,
  lockUserBalance,
  payoutsHeldCents,
  setPayoutStatus,
  type PayoutRow,
} from './earnings-repository.js';

export function toPayoutRequest(row: PayoutRow): PayoutRequest {
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

/** The ledger (decisions.md 'Security overrides'): available = sales + bonus − payouts pending or paid. */
async function ledger(db: Executor, userId: number, manualEarningsCents: number) {
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
    available: centsToDollars(availableCents),
  };
}

/**
 * Records a payout request if the balance covers it. The capper's row is locked first, so concurrent
 * requests are checked one after another against the same ledger and can never overdraw it.
 */
export async function requestPayout(
  db: Db,
  userId: number,
  input: PayoutRequestInput,
): Promise<PayoutRequest> {
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

/** An admin settles a pending request: paid, or rejected (its amount returns to the capper's balance). */
export async function decidePayout(
  db: Db,
  adminId: number,
  payoutId: number,
  status: 'paid' | 'rejected',
): Promise<PayoutRequest> {
  return db.transaction(async (tx) => {
    const payout = await findPayoutForUpdate(tx, payoutId);
    if (!payout) throw notFound('Payout request not found');
    if (payout.status !== 'pending') throw conflict(`This payout request is already ${payout.status}.`);
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
