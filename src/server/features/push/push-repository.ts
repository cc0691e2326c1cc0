// The push tables' queries (docs/decisions/038); only this feature writes push_subscriptions and
// push_deliveries. It reads videos and users (the alert's text); who is pushed is the caller's condition.
import { and, count, eq, sql, type SQL } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { jsonRowsOf, type JsonRow } from '#server/db/rows.js';
import { pushDeliveries, pushSubscriptions, type users, type videos } from '#server/db/schema.js';

export async function countSubscriptions(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  return Number(row?.n ?? 0);
}

/** Whether any browser has push alerts on: with none, a new pick queues no push job. */
export async function hasSubscriptions(db: Executor): Promise<boolean> {
  const rows = await db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).limit(1);
  return rows.length > 0;
}

/** The endpoint's owner now, if it is stored. */
export async function endpointOwner(db: Executor, endpoint: string): Promise<number | undefined> {
  const [row] = await db
    .select({ userId: pushSubscriptions.userId })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.endpoint, endpoint));
  return row?.userId;
}

/**
 * Stores the subscription, or renews the keys of the same endpoint: a browser that subscribes again, or
 * another account signing in on it (the endpoint is that browser's, so it moves to whoever subscribed last).
 */
export async function upsertSubscription(
  db: Executor,
  row: { userId: number; endpoint: string; p256dh: string; auth: string },
): Promise<void> {
  await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: row.userId, p256dh: row.p256dh, auth: row.auth, lastError: null, failures: 0 },
    });
}

export async function deleteSubscription(db: Executor, userId: number, endpoint: string): Promise<boolean> {
  const deleted = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return deleted.length > 0;
}

/** The push service said the subscription is gone (404 or 410). */
export async function deleteEndpoint(db: Executor, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
}

/** A refusal an admin should see (a 4xx other than gone). */
export async function noteSubscriptionFailure(db: Executor, endpoint: string, error: string): Promise<void> {
  await db
    .update(pushSubscriptions)
    .set({ lastError: error, failures: sql`${pushSubscriptions.failures} + 1` })
    .where(eq(pushSubscriptions.endpoint, endpoint));
}

/**
 * One delivery row per subscription of each user `recipient` accepts (an SQL condition on a user id
 * expression, the caller's: who is alerted, and who wants it by push), in one statement; the
 * (event, user, endpoint) key writes nothing twice. Scans the subscriptions: few beside the followers.
 */
export async function queueDeliveries(
  db: Executor,
  eventId: number,
  recipient: (user: SQL) => SQL,
): Promise<void> {
  await db.execute(sql`
    insert into push_deliveries (event_id, user_id, endpoint)
    select ${eventId}, s.user_id, s.endpoint
    from push_subscriptions s
    where ${recipient(sql`s.user_id`)}
    on conflict (event_id, user_id, endpoint) do nothing`);
}

export interface QueuedDelivery {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The next batch of the event's deliveries still to send, after `afterId`, with their subscription's keys. */
export async function queuedDeliveries(
  db: Executor,
  eventId: number,
  afterId: number,
  limit: number,
): Promise<QueuedDelivery[]> {
  const rows = await db
    .select({
      id: pushDeliveries.id,
      endpoint: pushDeliveries.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
      userId: pushDeliveries.userId,
    })
    .from(pushDeliveries)
    // The subscription still belongs to the user the alert was for (an endpoint that moved is not pushed).
    .innerJoin(
      pushSubscriptions,
      and(
        eq(pushSubscriptions.endpoint, pushDeliveries.endpoint),
        eq(pushSubscriptions.userId, pushDeliveries.userId),
      ),
    )
    .where(
      and(
        eq(pushDeliveries.eventId, eventId),
        eq(pushDeliveries.status, 'queued'),
        sql`${pushDeliveries.id} > ${afterId}`,
      ),
    )
    .orderBy(pushDeliveries.id)
    .limit(limit);
  return rows.map(({ userId: _userId, ...row }) => row);
}

export type DeliveryStatus = 'queued' | 'sent' | 'failed' | 'gone';

/** Moves a delivery on; only from `queued`, so a late duplicate never rewrites a final state. */
export async function markDelivery(
  db: Executor,
  id: number,
  status: DeliveryStatus,
  error: string | null = null,
): Promise<void> {
  await db
    .update(pushDeliveries)
    .set({ status, lastError: error, ...(status === 'sent' && { sentAt: sql`now()` }) })
    .where(and(eq(pushDeliveries.id, id), eq(pushDeliveries.status, 'queued')));
}

/** Every delivery of the event still queued when the job gave up (or whose subscription is gone). */
export async function failQueuedDeliveries(db: Executor, eventId: number, error: string): Promise<void> {
  await db
    .update(pushDeliveries)
    .set({ status: 'failed', lastError: error })
    .where(and(eq(pushDeliveries.eventId, eventId), eq(pushDeliveries.status, 'queued')));
}

export interface PickAlertSource {
  videoId: number;
  title: string;
  priceCents: number;
  username: string;
  displayName: string | null;
}

/** The pick as its alert shows it, if it is still shown (ready, not taken off sale): as notifications reads it. */
export async function pickAlertSource(db: Executor, videoId: number): Promise<PickAlertSource | undefined> {
  const [row] = await jsonRowsOf<
    JsonRow<typeof videos, 'id' | 'title' | 'priceCents'> & JsonRow<typeof users, 'username' | 'displayName'>
  >(
    db,
    sql`select v.id, v.title, v.price_cents, u.username, u.display_name
      from videos v join users u on u.id = v.user_id
      where v.id = ${videoId} and v.transcoding_status = 'ready'
        and not exists (select 1 from picks p where p.video_id = v.id and p.removed is not null)`,
  );
  return row
    ? {
        videoId: row.id,
        title: row.title,
        priceCents: row.price_cents,
        username: row.username,
        displayName: row.display_name,
      }
    : undefined;
}

/** What an admin sees: counts by state, and the subscriptions a push service refused lately. */
export async function pushSummary(db: Executor) {
  const [subscriptions] = await db.select({ n: count() }).from(pushSubscriptions);
  const byStatus = await db
    .select({ status: pushDeliveries.status, n: count() })
    .from(pushDeliveries)
    .groupBy(pushDeliveries.status);
  const failing = await jsonRowsOf<
    JsonRow<typeof pushSubscriptions, 'id' | 'endpoint' | 'failures' | 'lastError'> &
      JsonRow<typeof users, 'username'>
  >(
    db,
    sql`select s.id, u.username, s.endpoint, s.failures, s.last_error
      from push_subscriptions s join users u on u.id = s.user_id
      where s.failures > 0 order by s.failures desc, s.id limit 50`,
  );
  return { subscriptions: Number(subscriptions?.n ?? 0), byStatus, failing };
}
