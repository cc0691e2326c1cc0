// The send_mail job: one mail of the outbox through SMTP, or kept in the outbox when no SMTP server is set.
import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../db/client.js';
import { defineJob, errorText, OUTSIDE_LANE, type JobRunner } from '../jobs/index.js';
import { parseSender } from './mail-message.js';
import { findMail, markMail, noteMailError, startAttempt } from './mail-repository.js';

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
        maxConnections: 3,
        connectionTimeout: 20_000,
        greetingTimeout: 20_000,
        socketTimeout: 60_000,
      })
    : null;
  if (transport) app.addHook('onClose', async () => transport.close());

  jobs.handle(sendMailJob, {
    async run({ mailId }, ctx) {
      const mail = await findMail(ctx.db, mailId);
      // Sent already (a job run twice), failed for good, or kept: a retry never sends twice after a success.
      if (mail?.status !== 'queued') return;
      if (!transport) {
        await markMail(ctx.db, mailId, 'outbox');
        return;
      }
      // The same Message-ID on every attempt: a receiver that got an attempt whose success we never
      // recorded (a crash between its reply and our update) can tell the second copy is the same mail.
      const messageId = `<mail-${mail.id}.${mail.createdAt.getTime()}@${fromDomain}>`;
      if (!(await startAttempt(ctx.db, mailId, messageId))) return;
      await transport.sendMail({
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
      await markMail(ctx.db, mailId, 'sent');
    },
    async onRetry({ mailId }, err) {
      await noteMailError(db, mailId, errorText(err));
    },
    async onFailed({ mailId }, err) {
      await markMail(db, mailId, 'failed', errorText(err));
    },
  });
}
