// A user's alerts (docs/decisions/035): composed from the pick's public face only (its capper, title and
// price as charged), never its selections, which only the capper, its buyers and admins may see.
import {
  capperName,
  newPickText,
  subscriberPickText,
  subscriptionText,
  SUBSCRIPTIONS_URL,
  type SubscriptionAlertKind,
} from '#common/alert-text.js';
import { formatResultUnits, resultText } from '#common/pick-result-text.js';
import type { MarkRead, NotificationPage, NotificationsQuery } from '#common/schemas/notifications.js';
import type { Db } from '#server/db/client.js';
import { gradedPhrase } from './mail-alerts.js';
import { countUnread, listAlerts, markRead, type AlertRow } from './notifications-repository.js';

function toNotification(row: AlertRow) {
  const common = { id: row.id, kind: row.kind, createdAt: row.createdAt.toISOString(), read: row.read };
  if (row.videoId === null || row.title === null) {
    const text = subscriptionText(row.kind as SubscriptionAlertKind, row.detail, {
      username: row.username,
      displayName: row.displayName,
      planName: row.planName ?? '',
    });
    return { ...common, ...text, url: SUBSCRIPTIONS_URL };
  }
  const name = capperName(row);
  if (row.kind === 'pick.graded' && row.grade) {
    const units = row.unitsWon === null ? '' : formatResultUnits(row.unitsWon);
    return {
      ...common,
      title: `Your pick: ${resultText(row.grade, row.unitsWon)}`,
      body: `Your pick ${row.title} from ${name} ${gradedPhrase(row.grade, units)}`,
      url: `/video/${row.videoId}`,
    };
  }
  const face = { ...row, title: row.title, priceCents: row.priceCents ?? 0 };
  // A subscriber reads the selections on the pick's page, where the link leads; the alert never shows them.
  const text = row.subscribed ? subscriberPickText(face) : newPickText(face);
  return { ...common, kind: 'pick.posted' as const, ...text, url: `/video/${row.videoId}` };
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  return (await countUnread(db, [userId])).get(userId) ?? 0;
}

/** One page, newest first; `nextBefore` names the page after it, null when there is none. */
export async function notificationPage(
  db: Db,
  userId: number,
  query: NotificationsQuery,
): Promise<NotificationPage> {
  const [rows, unread] = await Promise.all([
    listAlerts(db, userId, { before: query.before, limit: query.limit + 1 }),
    unreadCount(db, userId),
  ]);
  const items = rows.slice(0, query.limit).map(toNotification);
  return {
    items,
    unread,
    nextBefore: rows.length > query.limit ? (items[items.length - 1]?.id ?? null) : null,
  };
}

/** Marks the caller's own alerts read (others' ids are ignored); answers their unread count. */
export async function readNotifications(db: Db, userId: number, body: MarkRead): Promise<number> {
  await markRead(db, userId, body.all ? 'all' : (body.ids ?? []));
  return unreadCount(db, userId);
}
