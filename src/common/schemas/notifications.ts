// In-app alerts (docs/decisions/035): a page of them, marking them read, and the unread count the stream
// sends. An alert carries a pick's public face only (title and price), never its selections.
import { z } from 'zod';
import { queryInt } from './ids.js';

export const NOTIFICATION_KINDS = [
  'pick.posted',
  'pick.graded',
  'subscription.started',
  'subscription.renewed',
  'subscription.renewal_failed',
  'subscription.ended',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const NOTIFICATIONS_PAGE = { max: 50, default: 20 } as const;
/** At most this many ids in one POST /api/notifications/read. */
export const MARK_READ_MAX_IDS = 100;

const BEFORE_MESSAGE = 'Before must be a notification id (a whole number)';
const IDS_MESSAGE = `Ids must be a list of 1 to ${MARK_READ_MAX_IDS} notification ids (whole numbers)`;
export const MARK_READ_MESSAGE = 'Send { "ids": [...] } or { "all": true }';

/** Notification ids are a bigserial: digits only, within what a JavaScript number holds exactly. */
const notificationId = (message: string) =>
  z
    .union([z.number({ error: message }), z.string({ error: message }).regex(/^[0-9]{1,15}$/, message)], {
      error: message,
    })
    .transform(Number)
    .refine((value) => Number.isSafeInteger(value) && value >= 1, message);

export const NotificationsQuerySchema = z.object({
  before: notificationId(BEFORE_MESSAGE)
    .optional()
    .meta({ description: "Only alerts older than this one (the previous page's nextBefore)." }),
  limit: queryInt({
    name: 'Limit',
    min: 1,
    max: NOTIFICATIONS_PAGE.max,
    default: NOTIFICATIONS_PAGE.default,
  }),
});
export type NotificationsQuery = z.infer<typeof NotificationsQuerySchema>;

export const NotificationSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(NOTIFICATION_KINDS),
    title: z.string(),
    body: z.string(),
    url: z.string().describe('Where the alert leads in the app, e.g. /video/12.'),
    createdAt: z.string(),
    read: z.boolean(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationPageSchema = z
  .object({
    items: z.array(NotificationSchema),
    unread: z.number().int(),
    nextBefore: z.number().int().nullable().describe('Pass as ?before= for the next page; null at the end.'),
  })
  .meta({ id: 'NotificationPage' });
export type NotificationPage = z.infer<typeof NotificationPageSchema>;

export const MarkReadSchema = z
  .object({
    ids: z
      .array(
        z.number({ error: IDS_MESSAGE }).int(IDS_MESSAGE).positive(IDS_MESSAGE).max(Number.MAX_SAFE_INTEGER),
        {
          error: IDS_MESSAGE,
        },
      )
      .min(1, IDS_MESSAGE)
      .max(MARK_READ_MAX_IDS, IDS_MESSAGE)
      .optional(),
    all: z.literal(true, { error: MARK_READ_MESSAGE }).optional(),
  })
  .refine((body) => (body.ids === undefined) !== (body.all === undefined), MARK_READ_MESSAGE);
export type MarkRead = z.infer<typeof MarkReadSchema>;

/** POST /api/notifications/read's answer, and the stream's `unread` event's data. */
export const UnreadSchema = z.object({ unread: z.number().int() }).meta({ id: 'Unread' });
export type Unread = z.infer<typeof UnreadSchema>;
