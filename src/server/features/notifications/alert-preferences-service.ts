// A user's alert preferences (docs/decisions/040): switches per channel and kind, cappers muted per
// channel, and the one-click unsubscribe links e-mail alerts carry (signed, expiring, nothing stored).
import {
  ALERT_CHANNELS,
  ALERT_KINDS,
  DEFAULT_ALERT_PREFERENCES,
  KIND_LABELS,
  UNSUBSCRIBE_LINK_EXPIRED,
  UNSUBSCRIBE_LINK_INVALID,
  type AlertChannel,
  type AlertKind,
  type AlertPreferences,
  type AlertPreferencesUpdate,
  type CapperAlerts,
  type CapperAlertsUpdate,
  type CapperChannels,
  type UnsubscribeLink,
} from '#common/schemas/alert-preferences.js';
import { CAPPER_NOT_FOUND_MESSAGE } from '#common/schemas/cappers.js';
import type { Db } from '#server/db/client.js';
import { badRequest, notFound } from '#server/lib/http-errors.js';
import { verifyLink } from '#server/mail/index.js';
import {
  capperMutes,
  emailState,
  findCapperById,
  findCapperByName,
  muteCapper,
  savePreferences,
  storedPreferences,
  unmuteCapper,
} from './alert-preferences-repository.js';

const channelsOn = (muted: readonly AlertChannel[]): CapperChannels => ({
  in_app: !muted.includes('in_app'),
  email: !muted.includes('email'),
  push: !muted.includes('push'),
});

export async function alertPreferences(db: Db, userId: number): Promise<AlertPreferences> {
  const [stored, email, cappers] = await Promise.all([
    storedPreferences(db, userId),
    emailState(db, userId),
    capperMutes(db, userId),
  ]);
  const channels = structuredClone(DEFAULT_ALERT_PREFERENCES);
  for (const row of stored)
    if (ALERT_CHANNELS.includes(row.channel as AlertChannel) && ALERT_KINDS.includes(row.kind as AlertKind))
      channels[row.channel as AlertChannel][row.kind as AlertKind] = row.enabled;
  return {
    channels,
    email,
    cappers: cappers.map((capper) => ({
      username: capper.username,
      displayName: capper.displayName,
      following: capper.following,
      channels: channelsOn(capper.muted),
    })),
  };
}

export async function updateAlertPreferences(
  db: Db,
  userId: number,
  update: AlertPreferencesUpdate,
): Promise<AlertPreferences> {
  const choices = ALERT_CHANNELS.flatMap((channel) =>
    ALERT_KINDS.flatMap((kind) => {
      const enabled = update.channels[channel]?.[kind];
      return enabled === undefined ? [] : [{ channel, kind, enabled }];
    }),
  );
  await savePreferences(db, userId, choices);
  return alertPreferences(db, userId);
}

/** Mutes or unmutes one capper per channel (true: alerts on); any user but oneself may be muted. */
export async function updateCapperAlerts(
  db: Db,
  userId: number,
  username: string,
  update: CapperAlertsUpdate,
): Promise<CapperAlerts> {
  const capper = await findCapperByName(db, username);
  if (!capper) throw notFound(CAPPER_NOT_FOUND_MESSAGE);
  await db.transaction(async (tx) => {
    for (const channel of ALERT_CHANNELS) {
      const on = update[channel];
      if (on === true) await unmuteCapper(tx, userId, capper.id, channel);
      else if (on === false) await muteCapper(tx, userId, capper.id, channel);
    }
  });
  const row = (await capperMutes(db, userId)).find((c) => c.id === capper.id);
  return {
    username: capper.username,
    displayName: capper.displayName,
    following: row?.following ?? false,
    channels: channelsOn(row?.muted ?? []),
  };
}

interface UnsubscribeToken {
  userId: number;
  /** null: the whole kind on the channel. */
  capperId: number | null;
  kind: AlertKind;
  channel: AlertChannel;
}

/** The link's payload when it is one of ours and unexpired; a 400 with readable words otherwise. */
function readToken(key: string, token: string): UnsubscribeToken {
  const verified = verifyLink(key, token);
  if (!verified.ok)
    throw badRequest(verified.reason === 'expired' ? UNSUBSCRIBE_LINK_EXPIRED : UNSUBSCRIBE_LINK_INVALID);
  const { u, c, k, ch } = verified.payload;
  if (
    typeof u !== 'number' ||
    typeof c !== 'number' ||
    !ALERT_KINDS.includes(k as AlertKind) ||
    !ALERT_CHANNELS.includes(ch as AlertChannel)
  )
    throw badRequest(UNSUBSCRIBE_LINK_INVALID);
  return { userId: u, capperId: c === 0 ? null : c, kind: k as AlertKind, channel: ch as AlertChannel };
}

/** What the link turns off, in words: for the page that asks before doing it. */
export async function describeUnsubscribe(db: Db, key: string, token: string): Promise<UnsubscribeLink> {
  const link = readToken(key, token);
  const capper = link.capperId === null ? null : await findCapperById(db, link.capperId);
  if (link.capperId !== null && !capper) throw badRequest(UNSUBSCRIBE_LINK_INVALID);
  const name = capper ? capper.displayName?.trim() || capper.username : null;
  return {
    channel: link.channel,
    kind: link.kind,
    capper: capper ? { username: capper.username, displayName: capper.displayName } : null,
    description: name
      ? `E-mail alerts from ${name}`
      : `E-mail alerts about ${KIND_LABELS[link.kind].toLowerCase()}`,
  };
}

/** Turns off what the link names: e-mail from its capper, or e-mail of its kind. Doing it twice is the same. */
export async function unsubscribe(db: Db, key: string, token: string): Promise<string> {
  const link = readToken(key, token);
  const described = await describeUnsubscribe(db, key, token);
  // An account deleted since the mail: nothing left to turn off.
  if (!(await findCapperById(db, link.userId))) throw badRequest(UNSUBSCRIBE_LINK_INVALID);
  if (link.capperId !== null) await muteCapper(db, link.userId, link.capperId, link.channel);
  else await savePreferences(db, link.userId, [{ channel: link.channel, kind: link.kind, enabled: false }]);
  return described.description;
}
