// The notifications table's queries (docs/decisions/035); only this feature writes it. An alert's text is
// composed when it is read, from its video as it is then: a deleted video, one not ready (processing again,
// failed) or a pick taken off sale is not shown, and the name and price are the current ones.
import { sql, type SQL } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import type { AlertChannel } from '#common/schemas/alert-preferences.js';
import type { NotificationKind } from '#common/schemas/notifications.js';
import { rowsOf } from '#server/db/rows.js';
import { subscriptionCovers } from '../subscriptions/index.js';
import { gradedRecipients, wantsAlert, type GradedPick } from './alert-preferences.js';

/**
 * The alert is shown: a pick's video exists, is ready, and its pick was not removed; a subscription's
 * alert, while the subscription and its plan exist (`v` and `sp` are left joins).
 */
const VISIBLE = sql`((n.video_id is not null and v.transcoding_status = 'ready'
  and not exists (select 1 from picks p where p.video_id = v.id and p.removed is not null))
  or (n.subscription_id is not null and sp.id is not null))`;

const SUBJECTS = sql`left join videos v on v.id = n.video_id
  left join subscriptions s on s.id = n.subscription_id
  left join subscription_plans sp on sp.id = s.plan_id
  left join users u on u.id = coalesce(v.user_id, s.capper_id)`;

/**
 * Writes one `pick.posted` alert for each follower of the capper whose follow began before the event:
 * one statement however many followers (follows_capper_idx), nothing twice (the (user, event) key).
 */
/**
 * Whether `user` (an SQL user id) is alerted on `channel` about a new pick: a follower since before the
 * event who wants new-pick alerts from this capper there.
 */
export function pickAlertRecipient(
  user: SQL,
  alert: { capperId: number; eventAt: Date },
  channel: AlertChannel,
): SQL {
  return sql`${followedBefore(user, alert)} and ${wantsAlert(user, channel, 'new_pick', alert.capperId)}`;
}

const followedBefore = (user: SQL, alert: { capperId: number; eventAt: Date }) =>
  sql`exists (select 1 from follows f where f.follower_id = ${user} and f.capper_id = ${alert.capperId}
      and f.created_at < ${alert.eventAt.toISOString()}::timestamptz)`;

const canRead = (user: SQL, videoId: number) =>
  sql`exists (select 1 from pick_access read_pa where read_pa.user_id = ${user} and read_pa.video_id = ${videoId})`;

/**
 * A follower told on `channel` as a follower: not one who can read the pick, nor one whose subscription covers
 * it and is to be granted it (the subscribers' alert tells them, with the pick, whichever job runs first).
 */
export function followerOnlyRecipient(
  user: SQL,
  alert: { videoId: number; capperId: number; eventAt: Date },
  channel: AlertChannel,
): SQL {
  return sql`${pickAlertRecipient(user, alert, channel)} and not ${leftToSubscribers(user, alert.videoId)}`;
}

/** Whether `user` can read the pick, or holds a subscription that covers it (and is to be granted it). */
export function leftToSubscribers(user: SQL, videoId: number): SQL {
  return sql`(${canRead(user, videoId)} or ${subscriptionCovers(user, videoId)})`;
}

/** A subscriber told on `channel` with the pick: one who can read it and wants new picks there. */
export function subscriberRecipient(
  user: SQL,
  alert: { videoId: number; capperId: number },
  channel: AlertChannel,
): SQL {
  return sql`${canRead(user, alert.videoId)} and ${wantsAlert(user, channel, 'new_pick', alert.capperId)}`;
}

/** Every subscriber who can read the pick gets its in-app alert; one who also follows keeps one (the key). */
export async function insertSubscriberPickAlerts(
  db: Executor,
  alert: { eventId: number; videoId: number; capperId: number },
): Promise<number[]> {
  const rows = rowsOf<{ user_id: number }>(
    await db.execute(sql`
      insert into notifications (user_id, event_id, kind, video_id)
      select pa.user_id, ${alert.eventId}, 'pick.posted', ${alert.videoId}
      from pick_access pa
      where pa.video_id = ${alert.videoId}
        and ${wantsAlert(sql`pa.user_id`, 'in_app', 'new_pick', alert.capperId)}
      on conflict do nothing
      returning user_id`),
  );
  return rows.map((row) => Number(row.user_id));
}

/** The pick's selections as sealed (its subscribers' alerts carry them), if it is still shown. */
export async function pickSelections(db: Executor, videoId: number): Promise<string | undefined> {
  const [row] = rowsOf<{ sealed: string }>(
    await db.execute(sql`select sealed from picks where video_id = ${videoId} and removed is null`),
  );
  if (!row) return undefined;
  const sealed = JSON.parse(row.sealed) as { selections?: unknown };
  return typeof sealed.selections === 'string' ? sealed.selections : undefined;
}

/** The subscription's subscriber, capper and plan, for its alerts. */
export async function subscriptionFace(db: Executor, subscriptionId: number) {
  const [row] = rowsOf<{
    subscriberId: number;
    capperId: number;
    planName: string;
    username: string;
    displayName: string | null;
  }>(
    await db.execute(sql`
      select s.subscriber_id as "subscriberId", s.capper_id as "capperId", sp.name as "planName",
        u.username, u.display_name as "displayName"
      from subscriptions s join subscription_plans sp on sp.id = s.plan_id join users u on u.id = s.capper_id
      where s.id = ${subscriptionId}`),
  );
  return row;
}

/** One subscription alert, to its subscriber, if they want it in the app; nothing twice per event. */
export async function insertSubscriptionAlert(
  db: Executor,
  alert: {
    eventId: number;
    kind: string;
    subscriptionId: number;
    userId: number;
    capperId: number;
    detail: string | null;
  },
): Promise<void> {
  await db.execute(sql`
    insert into notifications (user_id, event_id, kind, subscription_id, detail)
    select ${alert.userId}, ${alert.eventId}, ${alert.kind}, ${alert.subscriptionId}, ${alert.detail}
    where ${wantsAlert(sql`${alert.userId}::int`, 'in_app', 'subscription', alert.capperId)}
    on conflict do nothing`);
}

export async function insertPickAlerts(
  db: Executor,
  alert: { eventId: number; videoId: number; capperId: number; eventAt: Date },
): Promise<void> {
  await db.execute(sql`
    insert into notifications (user_id, event_id, kind, video_id)
    select f.follower_id, ${alert.eventId}, 'pick.posted', ${alert.videoId}
    from follows f
    where f.capper_id = ${alert.capperId} and f.created_at < ${alert.eventAt.toISOString()}::timestamptz
      and ${wantsAlert(sql`f.follower_id`, 'in_app', 'new_pick', alert.capperId)}
    on conflict do nothing`);
}

/** The pick of each of these videos that is graded (and not removed), with its capper and grade. */
export async function gradedPicks(db: Executor, videoIds: readonly number[]): Promise<GradedPick[]> {
  if (videoIds.length === 0) return [];
  const rows = rowsOf<{
    video_id: number;
    user_id: number;
    result: GradedPick['result'];
    units_won: string | number | null;
  }>(
    await db.execute(sql`
      select video_id, user_id, result, units_won from picks
      where video_id in (${sql.join(
        videoIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and result is not null and removed is null`),
  );
  return rows.map((row) => ({
    videoId: Number(row.video_id),
    capperId: Number(row.user_id),
    result: row.result,
    unitsWon: row.units_won === null ? null : Number(row.units_won),
  }));
}

/** The picks with a leg on this market event (a settled game grades them). */
export async function picksOfMarketEvent(db: Executor, marketEventId: number): Promise<number[]> {
  const rows = rowsOf<{ video_id: number }>(
    await db.execute(sql`select distinct video_id from pick_legs where event_id = ${marketEventId}`),
  );
  return rows.map((row) => Number(row.video_id));
}

/**
 * Writes a graded alert for each recipient of each graded pick who wants it in the app: one statement,
 * nothing twice for one (user, pick, grade). Returns who got one.
 */
export async function insertGradedAlerts(
  db: Executor,
  eventId: number,
  picks: readonly GradedPick[],
): Promise<number[]> {
  if (picks.length === 0) return [];
  const values = sql.join(
    picks.map(
      (pick) =>
        sql`(${pick.videoId}::int, ${pick.capperId}::int, ${pick.result}::text, ${pick.unitsWon}::numeric)`,
    ),
    sql`, `,
  );
  const rows = rowsOf<{ user_id: number }>(
    await db.execute(sql`
      insert into notifications (user_id, event_id, kind, video_id, grade, units_won)
      select r.user_id, ${eventId}, 'pick.graded', g.video_id, g.result, g.units_won
      from (values ${values}) as g (video_id, capper_id, result, units_won)
      cross join lateral (${gradedRecipients(sql`g.video_id`)}) r
      where ${wantsAlert(sql`r.user_id`, 'in_app', 'graded', sql`g.capper_id`)}
      on conflict do nothing
      returning user_id`),
  );
  return [...new Set(rows.map((row) => Number(row.user_id)))];
}

/** When the outbox recorded the event (the events module's table; reading is free). */
export async function eventTime(db: Executor, eventId: number): Promise<Date | undefined> {
  const [row] = rowsOf<{ created_at: string | Date }>(
    await db.execute(sql`select created_at from domain_events where id = ${eventId}`),
  );
  return row ? new Date(row.created_at) : undefined;
}

/** Whether anyone follows the capper: an event of a capper nobody follows queues no job. */
export async function hasFollowers(db: Executor, capperId: number): Promise<boolean> {
  const rows = await db.execute(sql`select 1 from follows where capper_id = ${capperId} limit 1`);
  return rowsOf(rows).length > 0;
}

export interface AlertRow {
  id: number;
  kind: NotificationKind;
  grade: GradedPick['result'] | null;
  unitsWon: number | null;
  detail: string | null;
  createdAt: Date;
  read: boolean;
  /** A pick's alert: its video (else null). */
  videoId: number | null;
  title: string | null;
  priceCents: number | null;
  /** Whether the user may read the pick as a subscriber (a pick_access row): a new pick is worded for them. */
  subscribed: boolean;
  /** A subscription's alert: its plan's name (else null). */
  planName: string | null;
  username: string;
  displayName: string | null;
}

/** One page of a user's shown alerts, newest first, from before `before` (notifications_user_id_idx). */
export async function listAlerts(
  db: Executor,
  userId: number,
  page: { before?: number | undefined; limit: number },
): Promise<AlertRow[]> {
  const before = page.before === undefined ? sql`` : sql` and n.id < ${page.before}`;
  const rows = rowsOf<
    Omit<AlertRow, 'id' | 'createdAt' | 'unitsWon'> & {
      id: string | number;
      createdAt: string | Date;
      unitsWon: string | number | null;
    }
  >(
    await db.execute(sql`
      select n.id, n.kind, n.created_at as "createdAt", n.read_at is not null as read,
        n.grade, n.units_won as "unitsWon", n.detail,
        v.id as "videoId", v.title, v.price_cents as "priceCents", sp.name as "planName",
        exists (select 1 from pick_access pa where pa.user_id = n.user_id and pa.video_id = n.video_id)
          as subscribed,
        u.username, u.display_name as "displayName"
      from notifications n
      ${SUBJECTS}
      where n.user_id = ${userId}${before} and ${VISIBLE}
      order by n.id desc
      limit ${page.limit}`),
  );
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    createdAt: new Date(row.createdAt),
    unitsWon: row.unitsWon === null ? null : Number(row.unitsWon),
  }));
}

function unreadOf(users: SQL): SQL {
  return sql`
    select n.user_id, count(*)::int as unread
    from notifications n ${SUBJECTS}
    where n.user_id in (${users}) and n.read_at is null and ${VISIBLE}
    group by n.user_id`;
}

/** The shown unread alerts of each of these users (those with none are left out). */
export async function countUnread(db: Executor, userIds: readonly number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const ids = sql.join(
    userIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = rowsOf<{ user_id: number; unread: number }>(await db.execute(unreadOf(ids)));
  return new Map(rows.map((row) => [Number(row.user_id), Number(row.unread)]));
}

/** Of these users, those who follow the capper: whose count a fan-out for that capper may have changed. */
export async function followersAmong(
  db: Executor,
  capperId: number,
  userIds: readonly number[],
): Promise<number[]> {
  if (userIds.length === 0) return [];
  const ids = sql.join(
    userIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = rowsOf<{ follower_id: number }>(
    await db.execute(
      sql`select follower_id from follows where capper_id = ${capperId} and follower_id in (${ids})`,
    ),
  );
  return rows.map((row) => Number(row.follower_id));
}

/** Marks read the user's own alerts among `ids` (or all of them); another user's ids change nothing. */
export async function markRead(db: Executor, userId: number, ids: readonly number[] | 'all'): Promise<void> {
  const which =
    ids === 'all'
      ? sql``
      : sql` and id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  await db.execute(
    sql`update notifications set read_at = now() where user_id = ${userId} and read_at is null${which}`,
  );
}
