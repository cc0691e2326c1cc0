// Who wants which alert where, and who is alerted of a graded pick (docs/decisions/040), as SQL a fan-out
// puts in its one statement: no round trip per recipient. A user wants kind K on channel C from capper X
// unless their preference for (C, K) says otherwise than the default, or they muted X on C.
import {
  DEFAULT_ALERT_PREFERENCES,
  type AlertChannel,
  type AlertKind,
} from '#common/schemas/alert-preferences.js';
import { sql, type SQL } from '#server/db/drizzle.js';

/**
 * A condition on `user` (an SQL expression of a user id, e.g. sql`f.follower_id`): true when that user
 * wants `kind` alerts on `channel` from `capper` (an id or an SQL expression). Anti- and semi-joins on the
 * preference and mute tables' primary keys, so it costs one index probe per candidate at most.
 */
export function wantsAlert(user: SQL, channel: AlertChannel, kind: AlertKind, capper: SQL | number): SQL {
  const byDefault = DEFAULT_ALERT_PREFERENCES[channel][kind];
  const choice = sql`select 1 from alert_preferences ap
    where ap.user_id = ${user} and ap.channel = ${channel} and ap.kind = ${kind} and ap.enabled = ${!byDefault}`;
  const preferred = byDefault ? sql`not exists (${choice})` : sql`exists (${choice})`;
  return sql`(${preferred} and not exists (select 1 from capper_alert_mutes cm
    where cm.user_id = ${user} and cm.capper_id = ${capper} and cm.channel = ${channel}))`;
}

/** A graded pick and its grade, for its buyers' alerts. */
export interface GradedPick {
  videoId: number;
  capperId: number;
  result: 'win' | 'loss' | 'push' | 'void';
  unitsWon: number | null;
}

/**
 * Who is alerted when a pick is graded: its buyers, and the subscribers who could read it (the subscriptions
 * feature's access rows, recorded per pick).
 */
export function gradedRecipients(videoId: SQL | number): SQL {
  return sql`select pu.user_id from purchases pu where pu.video_id = ${videoId}
    union select pa.user_id from pick_access pa where pa.video_id = ${videoId}`;
}
