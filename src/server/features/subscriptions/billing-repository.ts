// Stripe Billing's rows of the subscriptions feature (docs/decisions/041): plans' Stripe prices, bettors'
// Stripe customers, and subscriptions found by their Stripe id.
import { and, eq, ne, sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import {
  billingCustomers,
  subscriptionInvoices,
  subscriptionPlans,
  subscriptions,
  users,
} from '#server/db/schema.js';

export async function setPlanPrice(
  db: Executor,
  planId: number,
  ids: { productId: string; priceId: string },
): Promise<void> {
  await db
    .update(subscriptionPlans)
    .set({ providerProductId: ids.productId, providerPriceId: ids.priceId })
    .where(eq(subscriptionPlans.id, planId));
}

export async function planPrice(db: Executor, planId: number): Promise<string | null> {
  const [row] = await db
    .select({ priceId: subscriptionPlans.providerPriceId })
    .from(subscriptionPlans)
    .where(eq(subscriptionPlans.id, planId))
    .limit(1);
  return row?.priceId ?? null;
}

export async function findCustomer(db: Executor, userId: number, provider: string): Promise<string | null> {
  const [row] = await db
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, provider)))
    .limit(1);
  return row?.customerId ?? null;
}

export async function insertCustomer(db: Executor, row: typeof billingCustomers.$inferInsert): Promise<void> {
  await db.insert(billingCustomers).values(row).onConflictDoNothing();
}

export async function findUserForBilling(db: Executor, userId: number) {
  const [row] = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

export async function findByProviderId(db: Executor, providerSubscriptionId: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
    .limit(1);
  return row;
}

export async function lockByProviderId(tx: Executor, providerSubscriptionId: string) {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
    .for('update');
  return row;
}

/** A plan's Stripe subscriptions not ended (a retired plan stops them renewing). */
export async function listLiveHostedOfPlan(db: Executor, planId: number, provider: string) {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.planId, planId),
        eq(subscriptions.provider, provider),
        ne(subscriptions.status, 'ended'),
        sql`${subscriptions.providerSubscriptionId} is not null`,
      ),
    );
}

/** Whether the subscription has a paid period already (its first payment is a start, not a renewal). */
export async function hasInvoice(db: Executor, subscriptionId: number): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptionInvoices.id })
    .from(subscriptionInvoices)
    .where(eq(subscriptionInvoices.subscriptionId, subscriptionId))
    .limit(1);
  return rows.length > 0;
}
