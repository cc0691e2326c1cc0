// The outbox as an admin reads it (GET /api/admin/mail): what was sent, or would have been without an SMTP
// server, newest first.
import { z } from 'zod';
import { ID_MAX, queryInt } from './ids.js';

export const MAIL_STATUSES = ['queued', 'sent', 'failed', 'outbox'] as const;
export const MAIL_PAGE_DEFAULT = 25;

const BEFORE_MESSAGE = `Before must be a whole number from 1 to ${ID_MAX}`;

export const AdminMailQuerySchema = z.object({
  before: z
    .string({ error: BEFORE_MESSAGE })
    .regex(/^[0-9]{1,10}$/, BEFORE_MESSAGE)
    .transform(Number)
    .refine((value) => value >= 1 && value <= ID_MAX, BEFORE_MESSAGE)
    .optional()
    .meta({
      description: "Mails older than this id (the previous page's nextBefore); the newest when left out",
    }),
  limit: queryInt({ name: 'Limit', min: 1, max: 100, default: MAIL_PAGE_DEFAULT }),
});

export const AdminMailSchema = z
  .object({
    id: z.int(),
    to: z.string(),
    kind: z.string(),
    subject: z.string(),
    status: z.enum(MAIL_STATUSES).meta({
      description:
        'queued: waiting to be sent; sent; failed: given up (lastError says why); outbox: kept unsent, no SMTP server is set',
    }),
    attempts: z.int(),
    lastError: z.string().nullable(),
    createdAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
    text: z.string().meta({ description: 'The plain-text body, as sent' }),
  })
  .meta({ id: 'AdminMail' });
export type AdminMail = z.infer<typeof AdminMailSchema>;

export const AdminMailPageSchema = z
  .object({
    mails: z.array(AdminMailSchema),
    nextBefore: z
      .int()
      .nullable()
      .meta({ description: 'Pass as `before` for the next page; null on the last' }),
  })
  .meta({ id: 'AdminMailPage' });
export type AdminMailPage = z.infer<typeof AdminMailPageSchema>;
