// Alert preferences (docs/decisions/040): which kinds of alert reach a user on which channel, cappers muted
// per channel, and the one-click unsubscribe link's description.
import { z } from 'zod';

export const ALERT_CHANNELS = ['in_app', 'email', 'push'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];
export const ALERT_KINDS = ['new_pick', 'graded', 'subscription'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Every kind is on by default on every channel (push reaches only browsers where it was turned on). */
export const DEFAULT_ALERT_PREFERENCES: Record<AlertChannel, Record<AlertKind, boolean>> = {
  in_app: { new_pick: true, graded: true, subscription: true },
  email: { new_pick: true, graded: true, subscription: true },
  push: { new_pick: true, graded: true, subscription: true },
};

export const CHANNEL_LABELS: Record<AlertChannel, string> = {
  in_app: 'In the app',
  email: 'E-mail',
  push: 'Push',
};
export const KIND_LABELS: Record<AlertKind, string> = {
  new_pick: 'New picks',
  graded: 'Graded picks',
  subscription: 'Subscriptions',
};

export const PREFERENCES_BODY_MESSAGE =
  'Send { "channels": { "email": { "new_pick": false } } }: channels in_app, email, push; kinds new_pick, graded, subscription; true or false';
export const CAPPER_ALERTS_BODY_MESSAGE =
  'Send { "email": false } (or in_app, push): true to get this capper\'s alerts on that channel, false to mute them';
export const UNSUBSCRIBE_LINK_INVALID =
  'This unsubscribe link is not valid. Change your alerts in your notification settings.';
export const UNSUBSCRIBE_LINK_EXPIRED =
  'This unsubscribe link has expired. Change your alerts in your notification settings.';

const onOff = z.boolean({ error: PREFERENCES_BODY_MESSAGE });

export const ChannelKindsSchema = z
  .object({ new_pick: z.boolean(), graded: z.boolean(), subscription: z.boolean() })
  .meta({ id: 'AlertKindSwitches' });

export const CapperChannelsSchema = z
  .object({ in_app: z.boolean(), email: z.boolean(), push: z.boolean() })
  .describe('true: this capper’s alerts reach you on the channel; false: muted there')
  .meta({ id: 'CapperAlertChannels' });
export type CapperChannels = z.infer<typeof CapperChannelsSchema>;

export const CapperAlertsSchema = z
  .object({
    username: z.string(),
    displayName: z.string().nullable(),
    following: z.boolean(),
    channels: CapperChannelsSchema,
  })
  .meta({ id: 'CapperAlerts' });
export type CapperAlerts = z.infer<typeof CapperAlertsSchema>;

export const AlertPreferencesSchema = z
  .object({
    channels: z.object({ in_app: ChannelKindsSchema, email: ChannelKindsSchema, push: ChannelKindsSchema }),
    email: z
      .object({ address: z.string().nullable(), confirmed: z.boolean() })
      .describe('E-mail alerts go only to a confirmed address.'),
    cappers: z
      .array(CapperAlertsSchema)
      .describe('The cappers you follow, and any other you muted on some channel.'),
  })
  .meta({ id: 'AlertPreferences' });
export type AlertPreferences = z.infer<typeof AlertPreferencesSchema>;

const kindsUpdate = z.strictObject(
  { new_pick: onOff.optional(), graded: onOff.optional(), subscription: onOff.optional() },
  { error: PREFERENCES_BODY_MESSAGE },
);

export const AlertPreferencesUpdateSchema = z
  .strictObject(
    {
      channels: z.strictObject(
        { in_app: kindsUpdate.optional(), email: kindsUpdate.optional(), push: kindsUpdate.optional() },
        { error: PREFERENCES_BODY_MESSAGE },
      ),
    },
    { error: PREFERENCES_BODY_MESSAGE },
  )
  .meta({ id: 'AlertPreferencesUpdate' });
export type AlertPreferencesUpdate = z.infer<typeof AlertPreferencesUpdateSchema>;

const channelUpdate = z.boolean({ error: CAPPER_ALERTS_BODY_MESSAGE }).optional();
export const CapperAlertsUpdateSchema = z
  .strictObject(
    { in_app: channelUpdate, email: channelUpdate, push: channelUpdate },
    { error: CAPPER_ALERTS_BODY_MESSAGE },
  )
  .refine((body) => Object.keys(body).length > 0, CAPPER_ALERTS_BODY_MESSAGE)
  .meta({ id: 'CapperAlertsUpdate' });
export type CapperAlertsUpdate = z.infer<typeof CapperAlertsUpdateSchema>;

export const UnsubscribeQuerySchema = z.object({
  token: z.string({ error: UNSUBSCRIBE_LINK_INVALID }).max(1000, UNSUBSCRIBE_LINK_INVALID),
});

/** What an unsubscribe link turns off: e-mail of one kind, or e-mail from one capper. */
export const UnsubscribeLinkSchema = z
  .object({
    channel: z.enum(ALERT_CHANNELS),
    kind: z.enum(ALERT_KINDS),
    capper: z.object({ username: z.string(), displayName: z.string().nullable() }).nullable(),
    description: z.string().describe('What pressing the button turns off, in words.'),
  })
  .meta({ id: 'UnsubscribeLink' });
export type UnsubscribeLink = z.infer<typeof UnsubscribeLinkSchema>;

export const UnsubscribedSchema = z
  .object({ unsubscribed: z.literal(true), description: z.string() })
  .meta({ id: 'Unsubscribed' });
export type Unsubscribed = z.infer<typeof UnsubscribedSchema>;
