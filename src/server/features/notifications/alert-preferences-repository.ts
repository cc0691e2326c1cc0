// The alert preference tables' queries (docs/decisions/040); only the notifications feature writes them.
import type { AlertChannel, AlertKind } from '#common/schemas/alert-preferences.js';
import { and, eq, sql, type SQL } from '#server/db/drizzle.js';
import { wantsAlert } from './alert-preferences.js';
import type { Executor } from '#server/db/client.js';
import { rowsOf } from '#server/db/rows.js';
import { alertPreferences, capperAlertMutes, users } from '#server/db/schema.js';

/** The user's stored choices (those that differ from the defaults, and any set back to them). */
export function storedPreferences(db: Executor, userId: number) {
  return db
    .select({
      channel: alertPreferences.channel,
      kind: alertPreferences.kind,
      enabled: alertPreferences.enabled,
    })
    .from(alertPreferences)
    .where(eq(alertPreferences.userId, userId));
}

export async function savePreferences(
  db: Executor,
  userId: number,
  choices: readonly { channel: AlertChannel; kind: AlertKind; enabled: boolean }[],
): Promise<void> {
  if (choices.length === 0) return;
  await db
    .insert(alertPreferences)
    .values(choices.map((choice) => ({ userId, ...choice })))
    .onConflictDoUpdate({
      target: [alertPreferences.userId, alertPreferences.channel, alertPreferences.kind],
      set: { enabled: sql`excluded.enabled` },
    });
}

export async function muteCapper(db: Executor, userId: number, capperId: number, channel: AlertChannel) {
  await db.insert(capperAlertMutes).values({ userId, capperId, channel }).onConflictDoNothing();
}

export async function unmuteCapper(db: Executor, userId: number, capperId: number, channel: AlertChannel) {
  await db
    .delete(capperAlertMutes)
    .where(
      and(
        eq(capperAlertMutes.userId, userId),
        eq(capperAlertMutes.capperId, capperId),
        eq(capperAlertMutes.channel, channel),
      ),
    );
}

export interface CapperMuteRow {
  id: number;
  username: string;
  displayName: string | null;
  following: boolean;
  muted: AlertChannel[];
}

/** The cappers the user follows and those they muted somewhere, by name, with the channels muted. */
export async function capperMutes(db: Executor, userId: number): Promise<CapperMuteRow[]> {
  const rows = rowsOf<{
    id: number;
    username: string;
    display_name: string | null;
    following: boolean;
    muted: AlertChannel[] | null;
  }>(
    await db.execute(sql`
      select u.id, u.username, u.display_name,
        exists (select 1 from follows f where f.follower_id = ${userId} and f.capper_id = u.id) as following,
        (select array_agg(cm.channel order by cm.channel) from capper_alert_mutes cm
          where cm.user_id = ${userId} and cm.capper_id = u.id) as muted
      from users u
      where u.id in (select capper_id from follows where follower_id = ${userId}
        union select capper_id from capper_alert_mutes where user_id = ${userId})
      order by lower(u.username)`),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    username: row.username,
    displayName: row.display_name,
    following: Boolean(row.following),
    muted: row.muted ?? [],
  }));
}

/** A capper as their page finds them: any user, by username in any case. */
export async function findCapperByName(db: Executor, username: string) {
  const [row] = await db
    .select({ id: users.id, username: users.username, displayName: users.displayName })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return row;
}

export async function findCapperById(db: Executor, id: number) {
  const [row] = await db
    .select({ id: users.id, username: users.username, displayName: users.displayName })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

/** The account's address and whether it is confirmed (e-mail alerts go only to a confirmed one). */
export async function emailState(db: Executor, userId: number) {
  const [row] = await db
    .select({ address: users.email, confirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.id, userId));
  return { address: row?.address ?? null, confirmed: Boolean(row?.address && row.confirmedAt) };
}

/** Marks a channel's fan-out of one thing done, in the caller's transaction: false when it already was. */
export async function claimFanout(db: Executor, key: string): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(
      sql`insert into alert_fanouts (key) values (${key}) on conflict do nothing returning key`,
    ),
  );
  return rows.length > 0;
}

export interface PickFace {
  title: string;
  priceCents: number;
  username: string;
  displayName: string | null;
}

/** A pick's public face for its alert mail; none for a deleted video or a removed pick. */
export async function pickFace(db: Executor, videoId: number): Promise<PickFace | undefined> {
  const [row] = rowsOf<PickFace>(
    await db.execute(sql`
      select v.title, v.price_cents as "priceCents", u.username, u.display_name as "displayName"
      from videos v join users u on u.id = v.user_id
      where v.id = ${videoId}
        and not exists (select 1 from picks p where p.video_id = v.id and p.removed is not null)`),
  );
  return row;
}

/**
 * Of `recipients` (a select of `user_id`), those with a confirmed address who want `kind` e-mail from
 * `capper`: one query, whatever their number.
 */
export async function confirmedRecipients(
  db: Executor,
  recipients: SQL,
  kind: AlertKind,
  capper: number,
): Promise<number[]> {
  const rows = rowsOf<{ user_id: number }>(
    await db.execute(sql`
      select distinct r.user_id from (${recipients}) r
      join users u on u.id = r.user_id
      where u.email is not null and u.email_confirmed_at is not null
        and ${wantsAlert(sql`r.user_id`, 'email', kind, capper)}`),
  );
  return rows.map((row) => Number(row.user_id));
}
