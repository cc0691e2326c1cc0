// queueMail: a mail written to the outbox in the caller's transaction, and its send_mail job queued there
// too, so a mail goes out if and only if the change that asked for it commits (docs/decisions/036).
import { createHash } from 'node:crypto';
import { lockKey } from '../db/advisory-locks.js';
import type { Executor } from '../db/client.js';
import { enqueue } from '../jobs/index.js';
import {
  checkHeaders,
  checkOneLine,
  checkRecipient,
  MailInputError,
  SUBJECT_MAX_LENGTH,
  unsubscribeHeaders,
  type Recipient,
} from './mail-message.js';
import { insertMail, recentMails } from './mail-repository.js';
import { sendMailJob } from './send-mail-job.js';

/** A kind with no limit of its own: at most this many mails of it to one address an hour. */
export const DEFAULT_MAILS_PER_HOUR = 10;
const TEXT_MAX_LENGTH = 100_000;

export interface MailInput {
  /** One recipient: a mail never goes to a list. */
  to: Recipient;
  /** What the mail is ('email_confirmation', 'pick_alert'): the limit counts per kind. */
  kind: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  /** RFC 8058: adds List-Unsubscribe and List-Unsubscribe-Post (one-click). */
  unsubscribeUrl?: string;
  /** At most this many mails of this kind to this address in any hour; DEFAULT_MAILS_PER_HOUR otherwise. */
  perHour?: number;
}

export type QueueMailResult =
  | { status: 'queued'; id: number }
  /** The address had its hour's share of this kind: nothing was written. Callers answer 429. */
  | { status: 'limited'; retryAfterSeconds: number };

const lockOf = (address: string, kind: string) =>
  createHash('sha256').update(`${address.toLowerCase()}\n${kind}`).digest().readInt32BE(0);

/**
 * Writes the mail and queues its sending, inside `tx` (give the caller's transaction: with a bare
 * database handle the limit's check and the insert are not atomic). Throws MailInputError (a 400) for a
 * header that user text would break.
 */
export async function queueMail(tx: Executor, mail: MailInput): Promise<QueueMailResult> {
  if (!/^[a-z][a-z0-9_]*$/.test(mail.kind)) throw new Error(`${mail.kind} is not a mail kind`);
  const to = checkRecipient(mail.to);
  const subject = checkOneLine(mail.subject, 'A subject', SUBJECT_MAX_LENGTH);
  if (!subject) throw new MailInputError('A mail needs a subject.');
  if (mail.text.length > TEXT_MAX_LENGTH || (mail.html?.length ?? 0) > TEXT_MAX_LENGTH)
    throw new MailInputError('The mail is too long.');
  const headers = {
    ...checkHeaders(mail.headers ?? {}),
    ...(mail.unsubscribeUrl !== undefined && unsubscribeHeaders(mail.unsubscribeUrl)),
  };
  const perHour = mail.perHour ?? DEFAULT_MAILS_PER_HOUR;
  // Two requests for the same address and kind are counted one after the other, never both under the limit.
  await lockKey(tx, 'mail', lockOf(to.address, mail.kind));
  const recent = await recentMails(tx, to.address, mail.kind);
  if (recent.count >= perHour) {
    const freesAt = (recent.oldest?.getTime() ?? Date.now()) + 60 * 60 * 1000;
    return { status: 'limited', retryAfterSeconds: Math.max(1, Math.ceil((freesAt - Date.now()) / 1000)) };
  }
  const row = await insertMail(tx, {
    toAddress: to.address,
    toName: to.name,
    kind: mail.kind,
    subject,
    textBody: mail.text,
    htmlBody: mail.html ?? null,
    headers,
  });
  await enqueue(tx, sendMailJob, { mailId: row.id }, { key: `mail:${row.id}` });
  return { status: 'queued', id: row.id };
}
