// The mail channel (docs/decisions/036): infrastructure like server/jobs, importing no feature. A feature
// calls queueMail in its transaction; the send_mail job sends it through SMTP, or keeps it in the outbox.
export { queueMail, DEFAULT_MAILS_PER_HOUR, type MailInput, type QueueMailResult } from './queue-mail.js';
export { MailInputError, EMAIL_MAX_LENGTH, parseSender, type Recipient } from './mail-message.js';
export { listMails, type MailRow, type MailStatus } from './mail-repository.js';
export {
  isPermanentSmtpError,
  registerMail,
  sendMailBatchJob,
  sendMailJob,
  type MailSettings,
} from './send-mail-job.js';
export { queueMails, MAIL_BATCH_SIZE, type BulkMails } from './queue-mails.js';
export { signLink, verifyLink, type LinkPayload, type VerifiedLink } from '../lib/signed-links.js';
