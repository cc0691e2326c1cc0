// The subscriptions feature's queries (docs/decisions/037): it alone writes subscription_plans,
// subscriptions, subscription_invoices and pick_access; it reads users, picks, pick_legs and events.
import { and, asc, count, desc, eq, isNull, ne, or, sql, type SQL } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { rowsOf } from '#server/db/rows.js';
import {
  pickAccess,
  subscriptionInvoices,
  subscriptionPlans,
  subscriptions,
  users,
} from '#server/db/schema.js';

export type PlanRow = typeof subscriptionPlans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
// Stripe's product and price ids stay out of the plan's answer: the billing code reads them itself.
export type PlanWithCapper = Omit<PlanRow, 'providerProductId' | 'providerPriceId'> & {
  capperUsername: string;
};

export async function findCapper(
  db: Executor,
  username: string,
): Promise<{ id: number; username: string } | undefined> {
  const [row] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return row;
}

const planWithCapper = { ...getPlanColumns(), capperUsername: users.username };
function getPlanColumns() {
  const { id, capperId, name, priceCents, interval, leagues, trialDays, retiredAt, createdAt } =
    subscriptionPlans;
  return { id, capperId, name, priceCents, interval, leagues, trialDays, retiredAt, createdAt };
}

export async function insertPlan(
  db: Executor,
  plan: typeof subscriptionPlans.$inferInsert,
): Promise<PlanRow> {
  const [row] = await db.insert(subscriptionPlans).values(plan).returning();
  return row!;
}

export async function listPlans(
  db: Executor,
  capperId: number,
  withRetired: boolean,
): Promise<PlanWithCapper[]> {
  return db
    .select(planWithCapper)
    .from(subscriptionPlans)
    .innerJoin(users, eq(users.id, subscriptionPlans.capperId))
    .where(
      and(
        eq(subscriptionPlans.capperId, capperId),
        withRetired ? undefined : isNull(subscriptionPlans.retiredAt),
      ),
    )
    .orderBy(asc(subscriptionPlans.priceCents), asc(subscriptionPlans.id));
}

export async function findPlan(db: Executor, id: number): Promise<PlanWithCapper | undefined> {
  const [row] = await db
    .select(planWithCapper)
    .from(subscriptionPlans)
    .innerJoin(users, eq(users.id, subscriptionPlans.capperId))
    .where(eq(subscriptionPlans.id, id))
    .limit(1);
  return row;
}

/** Locks the plan's row: a retirement and a new subscription to it go one after the other. */
export async function lockPlan(tx: Executor, id: number): Promise<PlanRow | undefined> {
  const [row] = await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id)).for('update');
  return row;
}

export async function retirePlan(db: Executor, id: number, at: Date): Promise<void> {
  await db
    .update(subscriptionPlans)
    .set({ retiredAt: at })
    .where(and(eq(subscriptionPlans.id, id), isNull(subscriptionPlans.retiredAt)));
}

export async function hasLiveSubscription(
  db: Executor,
  planId: number,
  subscriberId: number,
): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.planId, planId),
        eq(subscriptions.subscriberId, subscriberId),
        ne(subscriptions.status, 'ended'),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Whether this bettor ever had a trial with this capper, on any plan (trials are once per capper). */
export async function hadTrial(db: Executor, subscriberId: number, capperId: number): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.subscriberId, subscriberId),
        eq(subscriptions.capperId, capperId),
        sql`${subscriptions.trialEnd} is not null`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function insertSubscription(
  db: Executor,
  row: typeof subscriptions.$inferInsert,
): Promise<SubscriptionRow> {
  const [inserted] = await db.insert(subscriptions).values(row).returning();
  return inserted!;
}

export async function updateSubscription(
  db: Executor,
  id: number,
  changes: Partial<typeof subscriptions.$inferInsert>,
): Promise<SubscriptionRow> {
  const [row] = await db.update(subscriptions).set(changes).where(eq(subscriptions.id, id)).returning();
  return row!;
}

export async function findSubscription(db: Executor, id: number): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
  return row;
}

export async function lockSubscription(tx: Executor, id: number): Promise<SubscriptionRow | undefined> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
  return row;
}

export async function insertInvoice(
  db: Executor,
  row: typeof subscriptionInvoices.$inferInsert,
): Promise<number | undefined> {
  const [inserted] = await db
    .insert(subscriptionInvoices)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: subscriptionInvoices.id });
  return inserted?.id;
}

export async function listSubscriptionsOf(
  db: Executor,
  subscriberId: number,
): Promise<{ subscription: SubscriptionRow; plan: PlanWithCapper }[]> {
  return db
    .select({ subscription: subscriptions, plan: planWithCapper })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .innerJoin(users, eq(users.id, subscriptionPlans.capperId))
    .where(eq(subscriptions.subscriberId, subscriberId))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
    .limit(200);
}

/** The capper's live subscribers, newest first, and how many there are. */
export async function listSubscribers(db: Executor, capperId: number, limit: number) {
  const live = and(eq(subscriptions.capperId, capperId), ne(subscriptions.status, 'ended'));
  const [total] = await db.select({ n: count() }).from(subscriptions).where(live);
  const rows = await db
    .select({
      username: users.username,
      planName: subscriptionPlans.name,
      status: subscriptions.status,
      since: subscriptions.createdAt,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.subscriberId))
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(live)
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
    .limit(limit);
  return { count: Number(total?.n ?? 0), rows };
}

/** Subscriptions the sweep must look at by `now`: a period over, or a retry due. */
export async function dueSubscriptionIds(db: Executor, now: Date, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        ne(subscriptions.status, 'ended'),
        // Stripe renews, fails and ends its own subscriptions (its webhooks say so): the sweep leaves them.
        ne(subscriptions.provider, 'stripe'),
        or(
          and(ne(subscriptions.status, 'past_due'), sql`${subscriptions.currentPeriodEnd} <= ${now}`),
          and(eq(subscriptions.status, 'past_due'), sql`${subscriptions.nextAttemptAt} <= ${now}`),
        ),
      ),
    )
    .orderBy(asc(subscriptions.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** The capper's subscription revenue: every paid period, as the ledger counts sales. */
export async function revenueOf(db: Executor, capperId: number): Promise<{ cents: number; count: number }> {
  const [row] = await db
    .select({
      cents: sql<string>`coalesce(sum(${subscriptionInvoices.amountCents}), 0)::bigint`,
      n: count(),
    })
    .from(subscriptionInvoices)
    .where(eq(subscriptionInvoices.capperId, capperId));
  return { cents: Number(row?.cents ?? 0), count: Number(row?.n ?? 0) };
}

/**
 * A pick is in a plan's leagues when every leg's game is in one of them (a single-league pick by its own
 * league; a mixed parlay by each leg's). Only sealed picks are covered: an unverified video has no league.
 */
export function inPlanLeagues(leagues: SQL): SQL {
  return sql`(p.league = any(${leagues}) or (p.league = 'Mixed' and not exists (
    select 1 from pick_legs l join events e on e.id = l.event_id
    where l.video_id = p.video_id and not (e.league = any(${leagues})))))`;
}

/** A subscription that still gives access at `now` (its sweep may not have run yet). */
function liveAt(now: Date): SQL {
  return sql`(s.status in ('trialing', 'active')
    or (s.status = 'past_due' and s.grace_until > ${now})
    or (s.status = 'canceled' and s.current_period_end > ${now}))`;
}

/** At subscribing: the capper's picks in the plan's leagues still on sale (not started, not graded). */
export async function grantOpenPicks(db: Executor, subscriptionId: number): Promise<number> {
  const result = await db.execute(sql`
    insert into ${pickAccess} (user_id, video_id, subscription_id)
    select s.subscriber_id, p.video_id, s.id
    from subscriptions s
    join subscription_plans sp on sp.id = s.plan_id
    join picks p on p.user_id = s.capper_id
    where s.id = ${subscriptionId} and p.result is null and p.locks_at > now() and p.removed is null
      and ${inPlanLeagues(sql`sp.leagues`)}
    on conflict do nothing
    returning video_id`);
  return rowsOf(result).length;
}

/** A pick just posted: every subscriber of its capper live at `now` whose plan covers its leagues. */
export async function grantPickToSubscribers(db: Executor, videoId: number, now: Date): Promise<number> {
  const result = await db.execute(sql`
    insert into ${pickAccess} (user_id, video_id, subscription_id)
    select s.subscriber_id, p.video_id, min(s.id)
    from picks p
    join subscriptions s on s.capper_id = p.user_id
    join subscription_plans sp on sp.id = s.plan_id
    where p.video_id = ${videoId} and p.removed is null and ${liveAt(now)}
      and ${inPlanLeagues(sql`sp.leagues`)}
    group by s.subscriber_id, p.video_id
    on conflict do nothing
    returning user_id`);
  return rowsOf(result).length;
}

/** Whether the capper has any subscription not ended (the durable subscriber queues nothing otherwise). */
export async function hasLiveSubscribers(db: Executor, capperId: number): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.capperId, capperId), ne(subscriptions.status, 'ended')))
    .limit(1);
  return rows.length > 0;
}
