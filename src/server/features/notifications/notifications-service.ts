// A user's alerts (docs/decisions/035): composed from the pick's public face only (its capper, title and
// price as charged), never its selections, which only the capper, its buyers and admins may see.
import { centsToDollars, formatPrice } from '#common/money.js';
import { formatResultUnits, resultText } from '#common/pick-result-text.js';
import type { MarkRead, NotificationPage, NotificationsQuery } from '#common/schemas/notifications.js';
import type { Db } from '#server/db/client.js';
import { gradedPhrase } from './mail-alerts.js';
import { countUnread, listAlerts, markRead, type AlertRow } from './notifications-repository.js';

function toNotification(row: AlertRow) {
  const name = row.displayName?.trim() || row.username;
  if (row.kind === 'pick.graded' && row.grade) {
    const units = row.unitsWon === null ? '' : formatResultUnits(row.unitsWon);
    return {
      id: row.id,
      kind: row.kind,
      title: `Your pick: ${resultText(row.grade, row.unitsWon)}`,
      body: `Your pick ${row.title} from ${name} ${gradedPhrase(row.grade, units)}`,
      url: `/video/${row.videoId}`,
      createdAt: row.createdAt.toISOString(),
      read: row.read,
    };
  }
  return {
    id: row.id,
    kind: 'pick.posted' as const,
    title: `New pick from ${name}`,
    body: `${name} posted a new pick: ${row.title} — ${formatPrice(centsToDollars(row.priceCents))}`,
    url: `/video/${row.videoId}`,
    createdAt: row.createdAt.toISOString(),
    read: row.read,
  };
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
