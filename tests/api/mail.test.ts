// The mail channel (docs/decisions/036): mail queued in a transaction and sent by a job through SMTP to a
// local sink this file starts, once even when its job runs twice; one-click unsubscribe headers; header
// injection refused; a 5xx reply fails the mail for good, a 4xx one is retried. Without SMTP_URL mail stays
// in the outbox, where an admin reads it. An account's address is confirmed through a signed link, and its
// confirmation mails are limited per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIRMATION_LINK_EXPIRED,
  CONFIRMATION_LINK_INVALID,
  CONFIRMATION_LINK_STALE,
  CONFIRMATION_MAILS_LIMITED,
  EMAIL_INVALID,
  type Profile,
} from '#common/schemas/profile.js';
import type { AdminMailPage } from '#common/schemas/mail.js';
import { eq, sql } from '#server/db/drizzle.js';
import { jobs, mailOutbox } from '#server/db/schema.js';
import { confirmationKey } from '#server/features/auth/email-confirmation.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { enqueue } from '#server/jobs/index.js';
import { MailInputError, queueMail, sendMailJob, signLink, type MailInput } from '#server/mail/index.js';
import {
  createTestApp,
  registerUser,
  sessionCookie,
  uniqueUsername,
  type TestApp,
} from '../setup/test-app.js';
import { bodyOf, headersOf, startSmtpSink, type SmtpSink } from '../setup/smtp-sink.js';

/** The confirmation link in a mail's text. */
function confirmationPath(text: string): string {
  const match = /https?:\/\/[^/\s]+(\/api\/profile\/email\/confirm\?token=[\w.-]+)/.exec(text);
  if (!match) throw new Error(`no confirmation link in: ${text}`);
  return match[1]!;
}

let ip = 0;
const nextIp = () => `10.36.0.${++ip}`;

const putEmail = (t: TestApp, cookie: string, email: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/profile/email', headers: { cookie }, payload: { email } });

const mailRows = (t: TestApp, to: string) =>
  t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).orderBy(mailOutbox.id);

async function queue(t: TestApp, mail: MailInput) {
  return t.database.db.transaction((tx) => queueMail(tx, mail));
}

describe('with an SMTP server (SMTP_URL)', () => {
  let t: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'PickReel Alerts <alerts@example.com>',
        PUBLIC_URL: 'https://pickreel.example',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const deliveredTo = (address: string) => sink.received.filter((mail) => mail.to.includes(address));

  it('sends a queued mail once, even when its job runs twice', async () => {
    const result = await queue(t, {
      to: 'once@example.com',
      kind: 'test_note',
      subject: 'Hello from PickReel',
      text: 'Just once.',
    });
    expect(result.status).toBe('queued');
    if (result.status !== 'queued') return;
    // Nothing leaves before the job runs: the mail is in the outbox, queued.
    expect(deliveredTo('once@example.com')).toHaveLength(0);
    await t.app.jobs.runUntilIdle();
    expect(deliveredTo('once@example.com')).toHaveLength(1);
    // The job again (a retry after a crash, a second worker): the recorded success stops it.
    expect(await enqueue(t.database.db, sendMailJob, { mailId: result.id })).not.toBeNull();
    await t.app.jobs.runUntilIdle();
    expect(deliveredTo('once@example.com')).toHaveLength(1);

    const [row] = await mailRows(t, 'once@example.com');
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(row!.sentAt).toBeInstanceOf(Date);
    const [mail] = deliveredTo('once@example.com');
    expect(mail!.from).toBe('alerts@example.com');
    const headers = headersOf(mail!.raw);
    expect(headers.get('from')).toBe('PickReel Alerts <alerts@example.com>');
    expect(headers.get('to')).toBe('once@example.com');
    expect(headers.get('subject')).toBe('Hello from PickReel');
    expect(headers.get('message-id')).toBe(row!.messageId);
    expect(headers.has('list-unsubscribe')).toBe(false);
    expect(bodyOf(mail!.raw)).toContain('Just once.');
  });

  it('carries List-Unsubscribe and List-Unsubscribe-Post when given an unsubscribe link (RFC 8058)', async () => {
    await queue(t, {
      to: { name: 'Ann Bettor', address: 'unsub@example.com' },
      kind: 'test_alert',
      subject: 'A new pick',
      text: 'A capper you follow posted a pick.',
      unsubscribeUrl: 'https://pickreel.example/api/unsubscribe?token=abc.def',
    });
    await t.app.jobs.runUntilIdle();
    const [mail] = deliveredTo('unsub@example.com');
    const headers = headersOf(mail!.raw);
    expect(headers.get('list-unsubscribe')).toBe('<https://pickreel.example/api/unsubscribe?token=abc.def>');
    expect(headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(headers.get('to')).toBe('Ann Bettor <unsub@example.com>');
  });

  it('refuses CR or LF in a subject, an address, a name or a header, and more than one recipient', async () => {
    const base = { to: 'inject@example.com', kind: 'test_note', subject: 'Fine', text: 'Body' };
    const refused: MailInput[] = [
      { ...base, subject: 'Hi\r\nBcc: victim@example.com' },
      { ...base, subject: 'Hi\nthere' },
      { ...base, to: 'inject@example.com\r\nBcc: victim@example.com' },
      { ...base, to: { name: 'Ann\r\nBcc: victim@example.com', address: 'inject@example.com' } },
      { ...base, to: 'inject@example.com, victim@example.com' },
      { ...base, to: 'Ann <inject@example.com>' },
      { ...base, to: 'not-an-address' },
      { ...base, headers: { 'X-Note': 'a\r\nBcc: victim@example.com' } },
      { ...base, headers: { Bcc: 'victim@example.com' } },
      { ...base, unsubscribeUrl: 'javascript:alert(1)' },
    ];
    for (const mail of refused) {
      const attempt = queue(t, mail);
      await expect(attempt, JSON.stringify(mail)).rejects.toBeInstanceOf(MailInputError);
      await expect(attempt).rejects.toMatchObject({ statusCode: 400 });
    }
    expect(await mailRows(t, 'inject@example.com')).toHaveLength(0);
    // Non-ASCII is fine: nodemailer encodes it.
    expect((await queue(t, { ...base, subject: 'Sélection gagnante ✓' })).status).toBe('queued');
    await t.app.jobs.runUntilIdle();
    expect(headersOf(deliveredTo('inject@example.com')[0]!.raw).get('subject')).toMatch(/^=\?UTF-8\?/);
  });

  it('fails a mail for good on a 5xx reply, without retrying it', async () => {
    sink.refuse.set('gone@example.com', 550);
    const result = await queue(t, { to: 'gone@example.com', kind: 'test_note', subject: 'Hi', text: 'x' });
    if (result.status !== 'queued') throw new Error('not queued');
    await t.app.jobs.runUntilIdle();
    const [row] = await mailRows(t, 'gone@example.com');
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.lastError).toMatch(/550/);
    const [job] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `mail:${result.id}`));
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(deliveredTo('gone@example.com')).toHaveLength(0);
  });

  it('retries a mail after a 4xx reply, and sends it once the server takes it', async () => {
    sink.refuse.set('busy@example.com', 451);
    const result = await queue(t, { to: 'busy@example.com', kind: 'test_note', subject: 'Hi', text: 'x' });
    if (result.status !== 'queued') throw new Error('not queued');
    await t.app.jobs.runUntilIdle();
    const [row] = await mailRows(t, 'busy@example.com');
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row!.lastError).toMatch(/451/);
    const [job] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `mail:${result.id}`));
    // Queued again, after a delay (backoff), not failed.
    expect(job!.status).toBe('queued');
    expect(job!.attempts).toBe(1);
    expect(job!.runAt.getTime()).toBeGreaterThan(Date.now());

    sink.refuse.delete('busy@example.com');
    await t.database.db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(eq(jobs.id, job!.id));
    await t.app.jobs.runUntilIdle();
    expect(deliveredTo('busy@example.com')).toHaveLength(1);
    expect((await mailRows(t, 'busy@example.com'))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('confirms a new address through the link mailed to it', async () => {
    const user = await registerUser(t.app, {}, nextIp());
    const invalid = await putEmail(t, user.cookie, 'not an address');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ message: EMAIL_INVALID });

    const put = await putEmail(t, user.cookie, ' bettor@example.com ');
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<Profile>()).toMatchObject({
      email: null,
      emailConfirmed: false,
      pendingEmail: 'bettor@example.com',
    });
    await t.app.jobs.runUntilIdle();
    const [mail] = deliveredTo('bettor@example.com');
    expect(headersOf(mail!.raw).get('subject')).toBe('Confirm your e-mail for PickReel');
    const link = confirmationPath(bodyOf(mail!.raw));

    // Opened in any browser, signed in or not.
    const confirmed = await t.app.inject({ method: 'GET', url: link });
    expect(confirmed.statusCode, confirmed.body).toBe(302);
    expect(confirmed.headers.location).toBe('/settings/profile?email=confirmed');
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { cookie: user.cookie },
    });
    expect(profile.json<Profile>()).toMatchObject({
      email: 'bettor@example.com',
      emailConfirmed: true,
      pendingEmail: null,
    });
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie: user.cookie },
    });
    expect(session.json().user.email).toBe('bettor@example.com');
    // Followed again (a mail client's preview): the same answer.
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(302);

    // A change waits for its own link: the old address stays the account's until then.
    await putEmail(t, user.cookie, 'bettor2@example.com');
    await t.app.jobs.runUntilIdle();
    const second = confirmationPath(bodyOf(deliveredTo('bettor2@example.com')[0]!.raw));
    const stale = await t.app.inject({ method: 'GET', url: link });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ message: CONFIRMATION_LINK_STALE });
    expect((await t.app.inject({ method: 'GET', url: second })).statusCode).toBe(302);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { cookie: user.cookie },
    });
    expect(after.json<Profile>()).toMatchObject({ email: 'bettor2@example.com', emailConfirmed: true });
  });

  it('mails a confirmation link to the address given at registration', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { username: uniqueUsername(), password: 'correct-horse', email: 'newcomer@example.com' },
      // A forged Host does not reach the mail: its link points at PUBLIC_URL.
      headers: { host: 'evil.example' },
      remoteAddress: nextIp(),
    });
    expect(response.statusCode, response.body).toBe(201);
    const cookie = sessionCookie(response);
    const before = await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } });
    expect(before.json<Profile>()).toMatchObject({
      email: 'newcomer@example.com',
      emailConfirmed: false,
      pendingEmail: 'newcomer@example.com',
    });
    await t.app.jobs.runUntilIdle();
    const text = bodyOf(deliveredTo('newcomer@example.com')[0]!.raw);
    expect(text).toContain('https://pickreel.example/api/profile/email/confirm?token=');
    expect(text).not.toContain('evil.example');
    const link = confirmationPath(text);
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(302);
    const after = await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } });
    expect(after.json<Profile>()).toMatchObject({ emailConfirmed: true, pendingEmail: null });
  });

  it('refuses a tampered, expired or malformed link with 400', async () => {
    const user = await registerUser(t.app, {}, nextIp());
    await putEmail(t, user.cookie, 'tamper@example.com');
    await t.app.jobs.runUntilIdle();
    const link = confirmationPath(bodyOf(deliveredTo('tamper@example.com')[0]!.raw));
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    const [body, signature] = token.split('.') as [string, string];
    // Another account's id in the payload, the signature kept.
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...payload, u: Number(payload.u) + 1 })).toString(
      'base64url',
    );
    const key = confirmationKey(t.config.sessionSecret);
    const expired = signLink(key, { u: user.id, e: 'tamper@example.com' }, new Date(Date.now() - 1000));
    const cases: [string, string][] = [
      [`${forged}.${signature}`, CONFIRMATION_LINK_INVALID],
      [`${body}.${signature.slice(0, -2)}`, CONFIRMATION_LINK_INVALID],
      [expired, CONFIRMATION_LINK_EXPIRED],
      ['garbage', CONFIRMATION_LINK_INVALID],
    ];
    for (const [bad, message] of cases) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/profile/email/confirm?token=${encodeURIComponent(bad)}`,
      });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json()).toEqual({ message });
    }
    const missing = await t.app.inject({ method: 'GET', url: '/api/profile/email/confirm' });
    expect(missing.statusCode).toBe(400);
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { cookie: user.cookie },
    });
    expect(profile.json<Profile>()).toMatchObject({ email: null, emailConfirmed: false });
  });

  it('sends at most 3 confirmation mails to one address an hour, then answers 429', async () => {
    const first = await registerUser(t.app, {}, nextIp());
    const second = await registerUser(t.app, {}, nextIp());
    for (const cookie of [first.cookie, first.cookie, second.cookie])
      expect((await putEmail(t, cookie, 'limited@example.com')).statusCode).toBe(200);
    // Per address, whoever asks: a fourth account cannot mail a stranger a fourth time.
    const limited = await putEmail(t, second.cookie, 'limited@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: CONFIRMATION_MAILS_LIMITED });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await mailRows(t, 'limited@example.com')).toHaveLength(3);
    // Another address is not held up.
    expect((await putEmail(t, second.cookie, 'other@example.com')).statusCode).toBe(200);
  });

  it('asks for the session and a same-site request to change the address', async () => {
    const visitor = await t.app.inject({
      method: 'PUT',
      url: '/api/profile/email',
      payload: { email: 'x@example.com' },
    });
    expect(visitor.statusCode).toBe(401);
    const user = await registerUser(t.app, {}, nextIp());
    const crossSite = await t.app.inject({
      method: 'PUT',
      url: '/api/profile/email',
      headers: { cookie: user.cookie, origin: 'https://evil.example' },
      payload: { email: 'x@example.com' },
    });
    expect(crossSite.statusCode).toBe(403);
  });
});

describe('without an SMTP server (the embedded default)', () => {
  let t: TestApp;
  let admin: { cookie: string; id: number };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerUser(t.app, {}, nextIp());
    await setAdmin(t.database.db, admin.id, true);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps mail in the outbox, unsent, and the admin reads it there', async () => {
    const user = await registerUser(t.app, {}, nextIp());
    expect((await putEmail(t, user.cookie, 'outbox@example.com')).statusCode).toBe(200);
    await t.app.jobs.runUntilIdle();
    const [row] = await mailRows(t, 'outbox@example.com');
    expect(row).toMatchObject({ status: 'outbox', attempts: 0, sentAt: null });

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/admin/mail',
      headers: { cookie: admin.cookie },
    });
    expect(list.statusCode, list.body).toBe(200);
    const page = list.json<AdminMailPage>();
    const mail = page.mails.find((entry) => entry.to === 'outbox@example.com');
    expect(mail).toMatchObject({
      kind: 'email_confirmation',
      subject: 'Confirm your e-mail for PickReel',
      status: 'outbox',
      lastError: null,
      sentAt: null,
    });
    // The admin can hand the link on: it works from the outbox as from a mail.
    const confirmed = await t.app.inject({ method: 'GET', url: confirmationPath(mail!.text) });
    expect(confirmed.statusCode).toBe(302);
  });

  it('pages the outbox newest first with before and limit', async () => {
    for (const n of [1, 2, 3])
      await queue(t, { to: `page${n}@example.com`, kind: 'test_note', subject: `Note ${n}`, text: 'x' });
    const get = (query: string) =>
      t.app.inject({ method: 'GET', url: `/api/admin/mail${query}`, headers: { cookie: admin.cookie } });
    const first = (await get('?limit=2')).json<AdminMailPage>();
    expect(first.mails.map((mail) => mail.subject)).toEqual(['Note 3', 'Note 2']);
    expect(first.nextBefore).toBe(first.mails[1]!.id);
    const second = (await get(`?limit=2&before=${first.nextBefore}`)).json<AdminMailPage>();
    expect(second.mails[0]!.subject).toBe('Note 1');
    expect((await get('?limit=0')).statusCode).toBe(400);
    expect((await get('?before=abc')).statusCode).toBe(400);
    const all = (await get('?limit=100')).json<AdminMailPage>();
    expect(all.nextBefore).toBeNull();
  });

  it('answers 401 to a visitor and 403 to a non-admin', async () => {
    const user = await registerUser(t.app, {}, nextIp());
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/mail' })).statusCode).toBe(401);
    const nonAdmin = await t.app.inject({
      method: 'GET',
      url: '/api/admin/mail',
      headers: { cookie: user.cookie },
    });
    expect(nonAdmin.statusCode).toBe(403);
  });
});
