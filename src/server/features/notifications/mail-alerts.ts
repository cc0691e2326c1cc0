// Alerts by e-mail (docs/decisions/040): the same words as the in-app alert (a pick's title, capper and
// price, or its grade; never its selections), to confirmed addresses only, with a signed one-click
// unsubscribe link (RFC 8058) naming the user, the capper or kind, and the channel. Set-based: one query
// for the recipients, their links signed in one loop, one statement (server/mail's queueMails) for the mails.
import { createHmac } from 'node:crypto';
import {
  capperName,
  newPickText,
  subscriberPickText,
  subscriptionText,
  SUBSCRIPTIONS_URL,
  type SubscriptionAlertKind,
  type SubscriptionFace,
} from '#common/alert-text.js';
import type { AlertKind } from '#common/schemas/alert-preferences.js';
import type { Db, Executor } from '#server/db/client.js';
import { sql, type SQL } from '#server/db/drizzle.js';
import { queueMails, signLink } from '#server/mail/index.js';
import { claimFanout, confirmedRecipients, pickFace } from './alert-preferences-repository.js';
import { leftToSubscribers, subscriberRecipient } from './notifications-repository.js';
import { gradedRecipients, type GradedPick } from './alert-preferences.js';

export const PICK_ALERT_MAIL_KIND = 'pick_alert';
export const GRADED_ALERT_MAIL_KIND = 'graded_alert';
export const SUBSCRIPTION_ALERT_MAIL_KIND = 'subscription_alert';
/** An unsubscribe link keeps working this long: mail is read late, and RFC 8058 clients POST it any time. */
export const UNSUBSCRIBE_LINK_LIFETIME_MS = 60 * 24 * 60 * 60 * 1000;

/**
 * What alert mails are made with: the unsubscribe links' key, and the site's origin their links point at.
 * A job has no request, so the origin is PUBLIC_URL (required with SMTP_URL); without it mail only waits in
 * the outbox for an admin, and its links name http://localhost:PORT.
 */
export interface AlertMailSettings {
  key: string;
  origin: string;
}

/** A key of the unsubscribe links' own, derived from the session secret (docs/decisions/036). */
export function unsubscribeKey(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('pickreel unsubscribe').digest('base64url');
}

export function alertMailSettings(config: {
  sessionSecret: string;
  publicUrl: string | undefined;
  port: number;
}): AlertMailSettings {
  return {
    key: unsubscribeKey(config.sessionSecret),
    origin: config.publicUrl ?? `http://localhost:${config.port}`,
  };
}

// Subjects are one line: a name or title with a line break in it (older rows) must not fail the fan-out.
// eslint-disable-next-line no-control-regex -- control characters are what is replaced
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/**
 * The rows queueMails takes for `recipients` (a select of `user_id`): those with a confirmed address who
 * want this e-mail, each with its own unsubscribe link (text = head + the unsubscribe page's link + tail).
 * The links are signed here, not in SQL: HMAC in Node costs microseconds, PostgreSQL's sha256 far more; the
 * ids come back and go out again as two array parameters, whatever their number.
 */
async function mailRows(
  tx: Executor,
  settings: AlertMailSettings,
  recipients: SQL,
  link: { kind: AlertKind; capperId: number | null; wantsFrom: number },
  text: { subject: string; head: string; tail: string },
): Promise<SQL | null> {
  const ids = await confirmedRecipients(tx, recipients, link.kind, link.wantsFrom);
  if (ids.length === 0) return null;
  const expiresAt = new Date(Date.now() + UNSUBSCRIBE_LINK_LIFETIME_MS);
  const c = link.capperId ?? 0;
  // Tokens are base64url and a dot: nothing a PostgreSQL array literal would need quoted.
  const tokens = ids.map((u) => signLink(settings.key, { u, c, k: link.kind, ch: 'email' }, expiresAt));
  return sql`
    select u.email as to_address, null::text as to_name, ${oneLine(text.subject)}::text as subject,
      'Hello ' || u.username || E',\n\n' || ${text.head}::text || ${settings.origin}::text || '/unsubscribe?token='
        || r.token || ${text.tail}::text as text_body,
      ${settings.origin}::text || '/api/unsubscribe?token=' || r.token as unsubscribe_url
    from unnest(${`{${ids.join(',')}}`}::int[], ${`{${tokens.join(',')}}`}::text[]) as r (user_id, token)
    join users u on u.id = r.user_id`;
}

const footer = (settings: AlertMailSettings) =>
  `\n\nChoose which alerts you get: ${settings.origin}/settings/notifications\n\n— PickReel`;

const nameOf = capperName;

/**
 * E-mails a new pick to the capper's followers (those who followed before the event) who have a confirmed
 * address and want new-pick e-mail from this capper. Once per event, whatever retries: the fan-out's key
 * commits with the mails. Returns how many were queued.
 */
export async function queueNewPickMails(
  db: Db,
  alert: { eventId: number; videoId: number; capperId: number; eventAt: Date },
  settings: AlertMailSettings,
): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await claimFanout(tx, `email:pick:${alert.eventId}`))) return 0;
    const face = await pickFace(tx, alert.videoId);
    if (!face) return 0;
    const name = nameOf(face);
    // Whoever can read the pick (or is to) is mailed by the subscribers' job, with the pick.
    const recipients = sql`select f.follower_id as user_id from follows f
      where f.capper_id = ${alert.capperId} and f.created_at < ${alert.eventAt.toISOString()}::timestamptz
        and not ${leftToSubscribers(sql`f.follower_id`, alert.videoId)}`;
    const rows = await mailRows(
      tx,
      settings,
      recipients,
      { kind: 'new_pick', capperId: alert.capperId, wantsFrom: alert.capperId },
      {
        subject: `${newPickText(face).title}: ${face.title}`,
        head: [
          newPickText(face).body,
          '',
          `See it on PickReel: ${settings.origin}/video/${alert.videoId}`,
          '',
          `You get this because you follow ${name}. No more e-mail about ${name}'s picks: `,
        ].join('\n'),
        tail: footer(settings),
      },
    );
    return rows ? queueMails(tx, { kind: PICK_ALERT_MAIL_KIND, rows }) : 0;
  });
}

/** 'won +1.8u', 'lost −1u', 'was a push', 'was voided'. */
export function gradedPhrase(result: GradedPick['result'], units: string): string {
  switch (result) {
    case 'win':
      return `won ${units}`;
    case 'loss':
      return `lost ${units}`;
    case 'push':
      return 'was a push';
    default:
      return 'was voided';
  }
}

/** E-mails a graded pick's buyers who want graded e-mail (from this capper); once per pick and grade. */
export async function queueGradedMails(
  db: Db,
  pick: GradedPick & { units: string },
  settings: AlertMailSettings,
): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await claimFanout(tx, `email:graded:${pick.videoId}:${pick.result}`))) return 0;
    const face = await pickFace(tx, pick.videoId);
    if (!face) return 0;
    const phrase = gradedPhrase(pick.result, pick.units);
    const rows = await mailRows(
      tx,
      settings,
      gradedRecipients(pick.videoId),
      { kind: 'graded', capperId: null, wantsFrom: pick.capperId },
      {
        subject: `Your pick ${face.title} ${phrase}`,
        head: [
          `Your pick ${face.title} from ${nameOf(face)} ${phrase}.`,
          '',
          `See it on PickReel: ${settings.origin}/video/${pick.videoId}`,
          '',
          'You get this because you bought this pick. No more e-mail when your picks are graded: ',
        ].join('\n'),
        tail: footer(settings),
      },
    );
    return rows ? queueMails(tx, { kind: GRADED_ALERT_MAIL_KIND, rows }) : 0;
  });
}

/**
 * E-mails a new pick, with its selections, to the subscribers who can read it and want new-pick e-mail from
 * this capper (less the followers already told as followers); once per event.
 */
export async function queueSubscriberPickMails(
  db: Db,
  alert: { eventId: number; videoId: number; capperId: number; eventAt: Date },
  selections: string,
  settings: AlertMailSettings,
): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await claimFanout(tx, `email:subscriber-pick:${alert.eventId}`))) return 0;
    const face = await pickFace(tx, alert.videoId);
    if (!face) return 0;
    const name = nameOf(face);
    const text = subscriberPickText(face, selections);
    const recipients = sql`select pa.user_id from pick_access pa where pa.video_id = ${alert.videoId}
      and ${subscriberRecipient(sql`pa.user_id`, alert, 'email')}`;
    const rows = await mailRows(
      tx,
      settings,
      recipients,
      { kind: 'new_pick', capperId: alert.capperId, wantsFrom: alert.capperId },
      {
        subject: `${text.title}: ${face.title}`,
        head: [
          text.body,
          '',
          `See it on PickReel: ${settings.origin}/video/${alert.videoId}`,
          '',
          `You get this because you subscribe to ${name}. No more e-mail about ${name}'s picks: `,
        ].join('\n'),
        tail: footer(settings),
      },
    );
    return rows ? queueMails(tx, { kind: PICK_ALERT_MAIL_KIND, rows }) : 0;
  });
}

/** E-mails a subscription's news to its subscriber, if they want subscription e-mail; in the caller's transaction. */
export async function queueSubscriptionMail(
  tx: Executor,
  alert: { kind: SubscriptionAlertKind; detail: string | null; userId: number; capperId: number },
  face: SubscriptionFace,
  settings: AlertMailSettings,
): Promise<number> {
  const text = subscriptionText(alert.kind, alert.detail, face);
  const rows = await mailRows(
    tx,
    settings,
    sql`select ${alert.userId}::int as user_id`,
    { kind: 'subscription', capperId: null, wantsFrom: alert.capperId },
    {
      subject: text.title,
      head: [
        text.body,
        '',
        `Your subscriptions: ${settings.origin}${SUBSCRIPTIONS_URL}`,
        '',
        'No more e-mail about your subscriptions: ',
      ].join('\n'),
      tail: footer(settings),
    },
  );
  return rows ? queueMails(tx, { kind: SUBSCRIPTION_ALERT_MAIL_KIND, rows }) : 0;
}
