// Alerts by e-mail (docs/decisions/040), through a local SMTP sink: a followed capper's new pick reaches
// followers with a confirmed address who want it, with RFC 8058 one-click unsubscribe headers; the one-click
// POST (no cookie, no same-site proof) mutes that capper on e-mail; a bad or expired link is a 400 with
// words; a graded pick alerts its buyers once per grade, in the app and by e-mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UNSUBSCRIBE_LINK_EXPIRED,
  UNSUBSCRIBE_LINK_INVALID,
  type AlertPreferences,
  type UnsubscribeLink,
} from '#common/schemas/alert-preferences.js';
import type { NotificationPage } from '#common/schemas/notifications.js';
import type { Video } from '#common/schemas/videos.js';
import type { Db } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { dispatchOutbox, emit } from '#server/events/index.js';
import { unsubscribeKey } from '#server/features/notifications/mail-alerts.js';
import { enqueue } from '#server/jobs/index.js';
import { gradedAlertsJob } from '#server/features/notifications/index.js';
import { signLink } from '#server/mail/index.js';
import { confirmationKey } from '#server/features/auth/email-confirmation.js';
import { finishGame, marketGame, marketLeg } from '../setup/market.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { bodyOf, headersOf, startSmtpSink, type SmtpSink } from '../setup/smtp-sink.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };

let t: TestApp;
let db: Db;
let sink: SmtpSink;
let capper: User;
let confirmed: User;
let unconfirmed: User;
let muting: User;
let ip = 0;
const nextIp = () => `10.38.0.${++ip}`;
const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2099, cvc: '123' };
const SECRET = 'Zebras +7.5 (3 units)';

const mailsTo = (user: User) => sink.received.filter((mail) => mail.to.includes(addressOf(user)));
const addressOf = (user: User) => `${user.username}@example.com`;

/** The background work: the outbox's dispatch, then every job (alerts, then the mails' batches). */
async function deliver() {
  await dispatchOutbox(db);
  await t.app.jobs.runUntilIdle();
}

async function confirmEmail(user: User) {
  await db.execute(
    sql`update users set email = ${addressOf(user)}, email_confirmed_at = now() where id = ${user.id}`,
  );
  t.app.sessions.invalidateUser(user.id);
}

async function postPick(legs: unknown[], title: string, price = '12.00'): Promise<Video> {
  const response = await postVideo(t.app, capper.cookie, {
    ...VALID_FIELDS,
    title,
    description: 'Why the line is wrong',
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    price,
    emailInformation: SECRET,
    legs: JSON.stringify(legs),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}

const postJson = (url: string, payload: object, cookie: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: { cookie } });

async function buy(videoId: number, user: User): Promise<void> {
  const intent = await postJson('/api/create-payment-intent', { videoId }, user.cookie);
  expect(intent.statusCode, intent.body).toBe(200);
  const { clientSecret, paymentIntentId } = intent.json<{ clientSecret: string; paymentIntentId: string }>();
  const card = await postJson('/api/payments/sandbox/confirm', { clientSecret, card: CARD }, user.cookie);
  expect(card.statusCode, card.body).toBe(200);
  const complete = await postJson('/api/payment-complete', { paymentIntentId, videoId }, user.cookie);
  expect(complete.statusCode, complete.body).toBe(200);
}

function unsubscribeUrlOf(raw: string): URL {
  const header = headersOf(raw).get('list-unsubscribe');
  const match = /^<(https:\/\/pickreel\.example\/api\/unsubscribe\?token=[\w.-]+)>$/.exec(header ?? '');
  if (!match) throw new Error(`no one-click link in: ${header}`);
  return new URL(match[1]!);
}

const oneClick = (url: URL) =>
  t.app.inject({
    method: 'POST',
    url: url.pathname + url.search,
    // As a mail client sends it: a form, no cookie, from no page of ours.
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
    payload: 'List-Unsubscribe=One-Click',
  });

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({
    market: { leagues: 'NBA' },
    env: {
      SMTP_URL: sink.url,
      MAIL_FROM: 'PickReel <alerts@example.com>',
      PUBLIC_URL: 'https://pickreel.example',
    },
  });
  db = t.database.db;
  capper = await registerUser(t.app, {}, nextIp());
  confirmed = await registerUser(t.app, {}, nextIp());
  unconfirmed = await registerUser(t.app, {}, nextIp());
  muting = await registerUser(t.app, {}, nextIp());
  await db.execute(sql`update users set display_name = 'Sharp Sam' where id = ${capper.id}`);
  for (const user of [confirmed, unconfirmed, muting]) {
    const followed = await t.app.inject({
      method: 'POST',
      url: `/api/cappers/${capper.username}/follow`,
      headers: { cookie: user.cookie },
    });
    expect(followed.statusCode, followed.body).toBe(200);
  }
  await confirmEmail(confirmed);
  await confirmEmail(muting);
  // An address on the account but never confirmed: no alert goes there.
  await db.execute(sql`update users set email = ${addressOf(unconfirmed)} where id = ${unconfirmed.id}`);
  const muted = await t.app.inject({
    method: 'PUT',
    url: `/api/cappers/${capper.username}/alerts`,
    headers: { cookie: muting.cookie },
    payload: { email: false },
  });
  expect(muted.statusCode, muted.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe("a followed capper's new pick", () => {
  let video: Video;
  let game: Awaited<ReturnType<typeof marketGame>>;

  beforeAll(async () => {
    game = await marketGame(t);
    video = await postPick([marketLeg(game)], 'Friday night special');
    await deliver();
  });

  it('e-mails a confirmed follower once, with the in-app words, a link to the pick and one-click headers', async () => {
    // The job again (a retry after a crash): the fan-out's key queues nothing twice.
    await deliver();
    const mails = mailsTo(confirmed);
    expect(mails).toHaveLength(1);
    const headers = headersOf(mails[0]!.raw);
    expect(headers.get('subject')).toBe('New pick from Sharp Sam: Friday night special');
    expect(headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    unsubscribeUrlOf(mails[0]!.raw);
    const body = bodyOf(mails[0]!.raw);
    expect(body).toContain('Sharp Sam posted a new pick: Friday night special — $12');
    expect(body).toContain(`https://pickreel.example/video/${video.id}`);
    expect(body).toMatch(/https:\/\/pickreel\.example\/unsubscribe\?token=[\w.-]+/);
    expect(body).not.toContain(SECRET);
  });

  it('sends none to an unconfirmed address or to a follower who muted the capper on e-mail, who still get in-app alerts', async () => {
    expect(mailsTo(unconfirmed)).toHaveLength(0);
    expect(mailsTo(muting)).toHaveLength(0);
    for (const user of [unconfirmed, muting]) {
      const page = (
        await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: user.cookie } })
      ).json<NotificationPage>();
      expect(page.items.map((item) => item.url)).toContain(`/video/${video.id}`);
    }
  });

  it('describes the link without a session, redirects a GET to the page, and changes nothing on GET', async () => {
    const url = unsubscribeUrlOf(mailsTo(confirmed)[0]!.raw);
    const opened = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe(`/unsubscribe${url.search}`);
    const described = await t.app.inject({ method: 'GET', url: `/api/unsubscribe/link${url.search}` });
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json<UnsubscribeLink>()).toEqual({
      channel: 'email',
      kind: 'new_pick',
      capper: { username: capper.username, displayName: 'Sharp Sam' },
      description: 'E-mail alerts from Sharp Sam',
    });
    const prefs = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notifications/preferences',
        headers: { cookie: confirmed.cookie },
      })
    ).json<AlertPreferences>();
    expect(prefs.cappers.find((c) => c.username === capper.username)!.channels.email).toBe(true);
  });

  it('one click mutes the capper on e-mail only, and the next pick sends that follower no mail', async () => {
    const url = unsubscribeUrlOf(mailsTo(confirmed)[0]!.raw);
    const response = await oneClick(url);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ unsubscribed: true, description: 'E-mail alerts from Sharp Sam' });
    // Twice (a client retrying, or the page's button: no body at all): the same.
    expect((await oneClick(url)).statusCode).toBe(200);
    const bare = await t.app.inject({ method: 'POST', url: url.pathname + url.search });
    expect(bare.statusCode, bare.body).toBe(200);
    const prefs = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notifications/preferences',
        headers: { cookie: confirmed.cookie },
      })
    ).json<AlertPreferences>();
    expect(prefs.cappers.find((c) => c.username === capper.username)!.channels).toEqual({
      in_app: true,
      email: false,
      push: true,
    });

    const next = await postPick([marketLeg(await marketGame(t))], 'Saturday special');
    await deliver();
    expect(mailsTo(confirmed)).toHaveLength(1);
    const page = (
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: confirmed.cookie } })
    ).json<NotificationPage>();
    expect(page.items[0]!.url).toBe(`/video/${next.id}`);
  });

  it('refuses a tampered, expired or foreign link with a 400 in words, and changes nothing', async () => {
    const url = unsubscribeUrlOf(mailsTo(confirmed)[0]!.raw);
    const token = url.searchParams.get('token')!;
    const [body, signature] = token.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<
      string,
      number | string
    >;
    const forged = Buffer.from(JSON.stringify({ ...payload, u: muting.id })).toString('base64url');
    const key = unsubscribeKey(t.config.sessionSecret);
    const cases: [string, string][] = [
      [`${forged}.${signature}`, UNSUBSCRIBE_LINK_INVALID],
      [`${body}.${signature.slice(0, -2)}xx`, UNSUBSCRIBE_LINK_INVALID],
      ['not-a-token', UNSUBSCRIBE_LINK_INVALID],
      [
        signLink(
          key,
          { u: unconfirmed.id, c: capper.id, k: 'new_pick', ch: 'email' },
          new Date(Date.now() - 1000),
        ),
        UNSUBSCRIBE_LINK_EXPIRED,
      ],
      // Signed with another key (the e-mail confirmation's): not an unsubscribe link.
      [
        signLink(
          'another key',
          { u: unconfirmed.id, c: capper.id, k: 'new_pick', ch: 'email' },
          new Date(Date.now() + 60_000),
        ),
        UNSUBSCRIBE_LINK_INVALID,
      ],
      [
        signLink(
          key,
          { u: unconfirmed.id, c: capper.id, k: 'sms', ch: 'email' },
          new Date(Date.now() + 60_000),
        ),
        UNSUBSCRIBE_LINK_INVALID,
      ],
    ];
    for (const [bad, message] of cases) {
      const query = `?token=${encodeURIComponent(bad)}`;
      const posted = await oneClick(new URL(`https://pickreel.example/api/unsubscribe${query}`));
      expect(posted.statusCode, bad).toBe(400);
      expect(posted.json(), bad).toEqual({ message });
      const described = await t.app.inject({ method: 'GET', url: `/api/unsubscribe/link${query}` });
      expect(described.statusCode, bad).toBe(400);
      expect(described.json(), bad).toEqual({ message });
    }
    const prefs = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notifications/preferences',
        headers: { cookie: unconfirmed.cookie },
      })
    ).json<AlertPreferences>();
    expect(prefs.cappers.find((c) => c.username === capper.username)!.channels.email).toBe(true);
  });

  it('a buyer is alerted once when the pick is graded, in the app and by e-mail, however often the job runs', async () => {
    const buyer = await registerUser(t.app, {}, nextIp());
    await confirmEmail(buyer);
    await buy(video.id, buyer);
    const later = new Date(Date.now() + 1000 * 3600_000);
    await finishGame(t, game, { home: 120, away: 100 }, later);
    await deliver();
    // The grading events handed over again, and the job run again: nothing twice.
    const [event] = rowsOf<{ id: string }>(
      await db.execute(
        sql`select id::text as id from domain_events where type = 'game.settled' order by id desc limit 1`,
      ),
    );
    await enqueue(db, gradedAlertsJob, { eventId: Number(event!.id), marketEventId: game.eventId });
    await t.app.jobs.runUntilIdle();
    // Closing prices written after grading regrade the pick to the same grade: no second alert.
    await emit(db, { type: 'picks.regraded', videoIds: [video.id] });
    await deliver();

    const page = (
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: buyer.cookie } })
    ).json<NotificationPage>();
    const graded = page.items.filter((item) => item.kind === 'pick.graded');
    expect(graded).toHaveLength(1);
    expect(graded[0]).toMatchObject({
      title: expect.stringMatching(/^Your pick: Won \+0\.\du$/),
      body: expect.stringMatching(/^Your pick Friday night special from Sharp Sam won \+0\.\du$/),
      url: `/video/${video.id}`,
      read: false,
    });
    const mails = mailsTo(buyer);
    expect(mails).toHaveLength(1);
    expect(headersOf(mails[0]!.raw).get('subject')).toMatch(/^Your pick Friday night special won \+0\.\du$/);
    expect(headersOf(mails[0]!.raw).get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // Its one-click link turns graded e-mail off (not e-mail from the capper).
    const clicked = await oneClick(unsubscribeUrlOf(mails[0]!.raw));
    expect(clicked.json()).toEqual({ unsubscribed: true, description: 'E-mail alerts about graded picks' });
    const prefs = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notifications/preferences',
        headers: { cookie: buyer.cookie },
      })
    ).json<AlertPreferences>();
    expect(prefs.channels.email).toEqual({ new_pick: true, graded: false, subscription: true });
    // Followers who did not buy get no graded alert.
    const follower = (
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: muting.cookie } })
    ).json<NotificationPage>();
    expect(follower.items.some((item) => item.kind === 'pick.graded')).toBe(false);
  });
});

describe('a confirmation link that does not work', () => {
  it('sends a browser to a page that says why, and keeps the JSON 400 for API clients', async () => {
    const key = confirmationKey(t.config.sessionSecret);
    const expired = signLink(key, { u: confirmed.id, e: 'late@example.com' }, new Date(Date.now() - 1000));
    const cases: [string, string][] = [
      ['not-a-token', 'invalid'],
      [expired, 'expired'],
    ];
    for (const [token, problem] of cases) {
      const url = `/api/profile/email/confirm?token=${encodeURIComponent(token)}`;
      const browser = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      expect(browser.statusCode, token).toBe(303);
      expect(browser.headers.location).toBe(`/email-confirmation?problem=${problem}`);
      const api = await t.app.inject({ method: 'GET', url });
      expect(api.statusCode).toBe(400);
      expect(api.json<{ message: string }>().message).toMatch(/confirmation link/);
    }
  });
});

describe('a batch of alert mails the SMTP server refuses in part', () => {
  it('fails a 550 for good, keeps a 451 queued for the retry, and sends the rest', async () => {
    const [gone, busy, fine] = [
      await registerUser(t.app, {}, nextIp()),
      await registerUser(t.app, {}, nextIp()),
      await registerUser(t.app, {}, nextIp()),
    ];
    for (const user of [gone!, busy!, fine!]) {
      await confirmEmail(user);
      await t.app.inject({
        method: 'POST',
        url: `/api/cappers/${capper.username}/follow`,
        headers: { cookie: user.cookie },
      });
    }
    sink.refuse.set(addressOf(gone!), 550);
    sink.refuse.set(addressOf(busy!), 451);
    await postPick([marketLeg(await marketGame(t))], 'Sunday special');
    await deliver();
    const status = async (user: User) =>
      rowsOf<{ status: string; last_error: string | null }>(
        await db.execute(
          sql`select status, last_error from mail_outbox where to_address = ${addressOf(user)} order by id desc limit 1`,
        ),
      )[0];
    expect(await status(gone!)).toMatchObject({
      status: 'failed',
      last_error: expect.stringContaining('550'),
    });
    expect(await status(busy!)).toMatchObject({
      status: 'queued',
      last_error: expect.stringContaining('451'),
    });
    expect(await status(fine!)).toMatchObject({ status: 'sent', last_error: null });
    expect(mailsTo(fine!)).toHaveLength(1);
    // The batch waits for its retry; the sent and failed mails in it are not sent again then.
    const [batch] = rowsOf<{ status: string; attempts: number }>(
      await db.execute(
        sql`select status, attempts from jobs where kind = 'send_mail_batch' order by id desc limit 1`,
      ),
    );
    expect(batch).toEqual({ status: 'queued', attempts: 1 });
    sink.refuse.delete(addressOf(busy!));
    await db.execute(
      sql`update jobs set run_at = now() where kind = 'send_mail_batch' and status = 'queued'`,
    );
    await t.app.jobs.runUntilIdle();
    expect(await status(busy!)).toMatchObject({ status: 'sent' });
    expect(mailsTo(busy!)).toHaveLength(1);
    expect(mailsTo(fine!)).toHaveLength(1);
    expect(mailsTo(gone!)).toHaveLength(0);
  });
});
