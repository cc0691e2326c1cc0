// An account's e-mail address: set or changed, it waits as pending until the link mailed to it is followed
// (a signed token, 24 hours), so mail only ever goes to an address its owner has shown to be theirs.
import { createHmac } from 'node:crypto';
import {
  CONFIRMATION_LINK_EXPIRED,
  CONFIRMATION_LINK_INVALID,
  CONFIRMATION_LINK_STALE,
  CONFIRMATION_MAILS_LIMITED,
} from '#common/schemas/profile.js';
import type { Db, Executor } from '#server/db/client.js';
import { badRequest, HttpError, notFound } from '#server/lib/http-errors.js';
import { queueMail, signLink, verifyLink, type QueueMailResult } from '#server/mail/index.js';
import { lockEmailState, setConfirmedEmail, setPendingEmail } from './users-repository.js';

export const CONFIRMATION_MAIL_KIND = 'email_confirmation';
export const CONFIRMATION_SUBJECT = 'Confirm your e-mail for PickReel';
/** A person asks again when a mail is slow; more than this an hour is someone mailing a stranger. */
export const CONFIRMATION_MAILS_PER_HOUR = 3;
const LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** What a confirmation link is made from: its key, and the site's origin the link points at. */
export interface ConfirmationLinks {
  key: string;
  origin: string;
}

/** A key of the links' own, derived from the session secret: a token made for another purpose never passes. */
export function confirmationKey(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('pickreel email confirmation').digest('base64url');
}

function confirmationText(username: string, link: string): string {
  return [
    `Hello ${username},`,
    '',
    'Please confirm this e-mail address for your PickReel account by opening this link:',
    '',
    link,
    '',
    'The link works for 24 hours. If you did not ask for this, ignore this mail: nothing changes.',
    '',
    '— PickReel',
  ].join('\n');
}

function sendConfirmation(
  tx: Executor,
  user: { id: number; username: string },
  email: string,
  links: ConfirmationLinks,
): Promise<QueueMailResult> {
  const token = signLink(links.key, { u: user.id, e: email }, new Date(Date.now() + LINK_LIFETIME_MS));
  const link = `${links.origin}/api/profile/email/confirm?token=${token}`;
  return queueMail(tx, {
    to: email,
    kind: CONFIRMATION_MAIL_KIND,
    subject: CONFIRMATION_SUBJECT,
    text: confirmationText(user.username, link),
    perHour: CONFIRMATION_MAILS_PER_HOUR,
  });
}

/** Registration's address (when one was given) gets its confirmation mail in the registration's transaction. */
export async function confirmRegistrationEmail(
  tx: Executor,
  user: { id: number; username: string; email: string | null },
  links: ConfirmationLinks,
): Promise<QueueMailResult | null> {
  if (!user.email) return null;
  // Over the limit, the account is made all the same: the address can be confirmed from the settings later.
  return sendConfirmation(tx, user, user.email, links);
}

/**
 * Sets the address as pending and mails it a link; 429 when it had its confirmation mails for the hour. The
 * account's confirmed address, asked for again, needs no mail: a pending change is dropped instead.
 */
export async function requestEmailChange(
  db: Db,
  userId: number,
  email: string,
  links: ConfirmationLinks,
): Promise<void> {
  await db.transaction(async (tx) => {
    const user = await lockEmailState(tx, userId);
    if (!user) throw notFound('Account not found.');
    if (user.email === email && user.emailConfirmedAt) {
      await setPendingEmail(tx, userId, null);
      return;
    }
    const sent = await sendConfirmation(tx, user, email, links);
    if (sent.status === 'limited')
      throw new HttpError(429, CONFIRMATION_MAILS_LIMITED, { 'retry-after': String(sent.retryAfterSeconds) });
    await setPendingEmail(tx, userId, email);
  });
}

/** Follows a confirmation link: the account whose address it confirmed; 400 for a bad, expired or stale link. */
export async function confirmEmail(db: Db, token: string, key: string): Promise<number> {
  const verified = verifyLink(key, token);
  if (!verified.ok)
    throw badRequest(verified.reason === 'expired' ? CONFIRMATION_LINK_EXPIRED : CONFIRMATION_LINK_INVALID);
  const { u: userId, e: email } = verified.payload;
  if (typeof userId !== 'number' || typeof email !== 'string') throw badRequest(CONFIRMATION_LINK_INVALID);
  return db.transaction(async (tx) => {
    const user = await lockEmailState(tx, userId);
    if (!user) throw badRequest(CONFIRMATION_LINK_INVALID);
    // While a change is pending, only its own link counts: an older link must not undo the change.
    const awaited = user.pendingEmail ?? (user.emailConfirmedAt ? null : user.email);
    if (awaited === email) await setConfirmedEmail(tx, userId, email);
    // Followed twice (a mail client's preview, a second click): already done, so the same answer.
    else if (!(user.email === email && user.emailConfirmedAt && user.pendingEmail === null))
      throw badRequest(CONFIRMATION_LINK_STALE);
    return userId;
  });
}
