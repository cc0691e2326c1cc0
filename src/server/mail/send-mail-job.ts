// The send_mail job: one mail of the outbox through SMTP, or kept in the outbox when no SMTP server is set.
import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../db/client.js';
import { defineJob, errorText, OUTSIDE_LANE, type JobRunner } from '../jobs/index.js';
import { parseSender } from './mail-message.js';
import {
  findMail,
  keepInOutbox,
  markMail,
  markSent,
  noteMailError,
  startAttempt,
  startAttempts,
  type MailRow,
} from './mail-repository.js';

/** SMTP connections a process keeps open to the relay, and mails a batch has in flight at once. */
const SMTP_CONNECTIONS = 5;
/** Sent mails are marked in groups this large: after a crash, at most these are sent a second time. */
const MARK_SENT_EVERY = 50;

/** An SMTP reply code of 5xx: the server refused for good (no such mailbox, policy), so never retried. */
export function isPermanentSmtpError(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export const sendMailJob = defineJob<{ mailId: number }>({
  kind: 'send_mail',
  // An SMTP server is an outside service: a slow one holds up no sweep.
  lane: OUTSIDE_LANE,
  retry: {
    attempts: 6,
    delaysMs: [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 2 * 60 * 60_000],
    isPermanent: isPermanentSmtpError,
  },
  failureMessage: 'sending a mail failed',
  logFields: (payload) => ({ mailId: payload.mailId }),
});

/** Many queued mails (bulk alerts): sent one after another over the pooled transport, each at most once. */
export const sendMailBatchJob = defineJob<{ mailIds: number[] }>({
  kind: 'send_mail_batch',
  lane: OUTSIDE_LANE,
  retry: { attempts: 6, delaysMs: [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 2 * 60 * 60_000] },
  failureMessage: 'sending a batch of mails failed',
  logFields: (payload) => ({ mails: payload.mailIds.length, firstMailId: payload.mailIds[0] }),
});

/** A batch's attempt left some mails to retry (4xx replies, network errors). */
class MailsLeftError extends Error {
  constructor(left: number, last: unknown) {
    super(`${left} mail(s) of the batch to retry; last error: ${errorText(last)}`);
  }
}

export interface MailSettings {
  /** SMTP_URL: smtp:// or smtps://, with its user and password; undefined keeps mail in the outbox. */
  smtpUrl: string | undefined;
  /** MAIL_FROM */
  from: string;
}

/** Gives the runner the send_mail handler, with one pooled transport for this process when SMTP is set. */
export function registerMail(
  app: FastifyInstance,
  jobs: JobRunner,
  options: { db: Db; settings: MailSettings },
): void {
  const { db, settings } = options;
  const sender = parseSender(settings.from);
  const from = sender.name ? { name: sender.name, address: sender.address } : sender.address;
  const fromDomain = sender.address.split('@')[1] ?? 'localhost';
  // Pooled: a burst of alerts reuses a few connections instead of a TLS handshake per mail.
  const transport = settings.smtpUrl
    ? nodemailer.createTransport({
        url: settings.smtpUrl,
        pool: true,
        maxConnections: SMTP_CONNECTIONS,
        connectionTimeout: 20_000,
        greetingTimeout: 20_000,
        socketTimeout: 60_000,
      })
    : null;
  if (transport) app.addHook('onClose', async () => transport.close());

  /** The message of an outbox row, with the Message-ID its attempts carry. */
  function deliver(mail: MailRow, messageId: string) {
    return transport!.sendMail({
      from,
      to: mail.toName ? { name: mail.toName, address: mail.toAddress } : mail.toAddress,
      subject: mail.subject,
      text: mail.textBody,
      ...(mail.htmlBody !== null && { html: mail.htmlBody }),
      headers: mail.headers,
      messageId,
      // Only the one recipient, whatever a header says.
      envelope: { from: sender.address, to: [mail.toAddress] },
    });
  }

  /** Sends one queued mail; does nothing for one sent, failed or kept already (a job run twice). */
  async function send(jobDb: Db, mailId: number): Promise<void> {
    const mail = await findMail(jobDb, mailId);
    // Sent already (a job run twice), failed for good, or kept: a retry never sends twice after a success.
    if (mail?.status !== 'queued') return;
    if (!transport) {
      await markMail(jobDb, mailId, 'outbox');
      return;
    }
    // The same Message-ID on every attempt: a receiver that got an attempt whose success we never
    // recorded (a crash between its reply and our update) can tell the second copy is the same mail.
    const messageId = `<mail-${mail.id}.${mail.createdAt.getTime()}@${fromDomain}>`;
    if (!(await startAttempt(jobDb, mailId, messageId))) return;
    await deliver(mail, messageId);
    await markMail(jobDb, mailId, 'sent');
  }

  jobs.handle(sendMailJob, {
    async run({ mailId }, ctx) {
      await send(ctx.db, mailId);
    },
    async onRetry({ mailId }, err) {
      await noteMailError(db, mailId, errorText(err));
    },
    async onFailed({ mailId }, err) {
      await markMail(db, mailId, 'failed', errorText(err));
    },
  });

  jobs.handle(sendMailBatchJob, {
    async run({ mailIds }, ctx) {
      // Without SMTP the whole batch stays in the outbox in one statement.
      if (!transport) return keepInOutbox(ctx.db, mailIds);
      // One statement counts the attempt of every mail still queued (a retry skips those sent); as many in
      // flight as the pool has connections; the sent are marked in groups. A 5xx fails its mail alone,
      // anything else is retried with the batch.
      const queue = await startAttempts(ctx.db, mailIds, fromDomain);
      let sent: number[] = [];
      const flush = async () => {
        const done = sent;
        sent = [];
        await markSent(ctx.db, done);
      };
      let left = 0;
      let last: unknown = null;
      const worker = async () => {
        for (let mail = queue.shift(); mail !== undefined; mail = queue.shift()) {
          if (ctx.signal.aborted) return;
          try {
            await deliver(mail, mail.messageId!);
            sent.push(mail.id);
            if (sent.length >= MARK_SENT_EVERY) await flush();
          } catch (err) {
            if (isPermanentSmtpError(err)) await markMail(ctx.db, mail.id, 'failed', errorText(err));
            else {
              left += 1;
              last = err;
              await noteMailError(ctx.db, mail.id, errorText(err));
            }
          }
        }
      };
      try {
        await Promise.all(Array.from({ length: SMTP_CONNECTIONS }, worker));
      } finally {
        await flush();
      }
      ctx.signal.throwIfAborted();
      if (left > 0) throw new MailsLeftError(left, last);
    },
    async onFailed({ mailIds }, err) {
      for (const id of mailIds) await markMail(db, id, 'failed', errorText(err));
    },
  });
}
