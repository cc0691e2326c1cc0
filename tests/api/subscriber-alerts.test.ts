// Alerts for subscribers (docs/decisions/040): a capper's new pick reaches a live subscriber whose plan
// covers it, follower or not, once per person, with the selections by e-mail and push (never to a follower
// who cannot read them), whichever of the followers' and subscribers' jobs runs first; a subscription's
// start, renewal, failed charge and end alert its subscriber in the app, by e-mail and push; preferences
// turned off send nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification, NotificationPage } from '#common/schemas/notifications.js';
import type { Plan, Subscription } from '#common/schemas/subscriptions.js';
import type { Video } from '#common/schemas/videos.js';
import type { Db } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { dispatchOutbox } from '#server/events/index.js';
import {
  startPushStandIn,
  type PushStandIn,
  type StandInSubscription,
} from '#server/features/push/stand-in.js';
import { DEFAULT_LANE, OUTSIDE_LANE } from '#server/jobs/index.js';
import { DEFAULT_PUSH_SERVICE_HOSTS } from '#server/lib/push-hosts.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { advanceSandboxClock, createPlan as createPlanFor } from '../setup/subscriptions.js';
import { bodyOf, startSmtpSink, type SmtpSink } from '../setup/smtp-sink.js';
import { inHours, postLinkPick } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };
interface Reader extends User {
  browser: StandInSubscription;
}
interface Message {
  title: string;
  body: string;
  url: string;
  tag: string;
}

let t: TestApp;
let db: Db;
let standIn: PushStandIn;
let smtp: SmtpSink;
let admin: User;
let capper: User;
let plan: Plan;
let ip = 0;
const nextIp = () => `10.40.0.${++ip}`;
let game = 0;
const DAY = 24 * 3600;
const PAYS = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
const CHARGES_FAIL = { ...PAYS, number: '4000000000000341' };

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload && { payload }) });

const addressOf = (user: User) => `${user.username}@example.com`;

function subjectOf(raw: string): string {
  const head = raw.split(/\r\n\r\n/)[0]!.replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith('subject:')) ?? '';
  return line.slice('subject:'.length).trim();
}

const mailsTo = (user: User) => smtp.received.filter((mail) => mail.to.includes(addressOf(user)));
const pushesTo = (reader: Reader): Message[] =>
  standIn.received
    .filter((push) => reader.browser.endpoint.endsWith(`/${push.id}`))
    .map((push) => JSON.parse(reader.browser.decrypt(push.body)) as Message);

async function alertsOf(user: User): Promise<Notification[]> {
  const response = await inject('GET', '/api/notifications?limit=50', user.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<NotificationPage>().items;
}

/** The background work, until nothing is left: the outbox, the alerts' and grants' jobs, mail, push. */
async function deliver() {
  for (let round = 0; round < 4; round += 1) {
    await dispatchOutbox(db);
    await t.app.jobs.runUntilIdle(DEFAULT_LANE);
    await t.app.jobs.runUntilIdle(OUTSIDE_LANE);
  }
}

async function reader(): Promise<Reader> {
  const user = await registerUser(t.app, {}, nextIp());
  await db.execute(
    sql`update users set email = ${addressOf(user)}, email_confirmed_at = now() where id = ${user.id}`,
  );
  t.app.sessions.invalidateUser(user.id);
  const browser = standIn.subscribe();
  const { decrypt: _decrypt, ...json } = browser;
  const subscribed = await inject('POST', '/api/push/subscriptions', user.cookie, json);
  expect(subscribed.statusCode, subscribed.body).toBe(200);
  return { ...user, browser };
}

async function follow(user: User) {
  const response = await inject('POST', `/api/cappers/${capper.username}/follow`, user.cookie);
  expect(response.statusCode, response.body).toBe(200);
}

async function subscribe(user: User, to: Plan = plan, card: object = PAYS): Promise<Subscription> {
  const response = await inject('POST', `/api/plans/${to.id}/subscribe`, user.cookie, { card });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Subscription>();
}

const createPlan = (owner: User, fields: object = {}) => createPlanFor(t.app, owner, fields);

async function postPick(title: string, league = 'NBA') {
  game += 1;
  const secret = `Zebras ${game} -3.5 (2 units)`;
  const legs = [
    {
      league,
      home: `Zebras ${game}`,
      away: `Okapis ${game}`,
      startsAt: inHours(48),
      market: 'moneyline',
      side: `Zebras ${game}`,
      odds: -110,
      units: 1,
    },
  ];
  const response = await postLinkPick(t.app, capper.cookie, legs, {
    emailInformation: secret,
    title,
    price: '12.99',
  });
  expect(response.statusCode, response.body).toBe(201);
  return { video: response.json<Video>(), secret };
}

const advance = (seconds: number) => advanceSandboxClock(t.app, admin, seconds);

beforeAll(async () => {
  smtp = await startSmtpSink();
  standIn = await startPushStandIn();
  t = await createTestApp({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'PickReel <alerts@example.com>',
      PUBLIC_URL: 'https://pickreel.example',
      PUSH_SERVICE_HOSTS: `${DEFAULT_PUSH_SERVICE_HOSTS},${standIn.origin}`,
    },
  });
  db = t.database.db;
  admin = await registerUser(t.app, {}, nextIp());
  await db.execute(sql`update users set is_admin = true where id = ${admin.id}`);
  capper = await registerUser(t.app, {}, nextIp());
  await db.execute(sql`update users set display_name = 'Sharp Sam' where id = ${capper.id}`);
  plan = await createPlan(capper);
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
  await smtp?.close();
});

describe('a new pick', () => {
  let subscriber: Reader;
  let follower: Reader;
  let both: Reader;

  beforeAll(async () => {
    subscriber = await reader();
    follower = await reader();
    both = await reader();
    await follow(follower);
    await follow(both);
    await subscribe(subscriber);
    await subscribe(both);
    await deliver();
  });

  const pickAlerts = async (user: User, video: Video) =>
    (await alertsOf(user)).filter((alert) => alert.url === `/video/${video.id}`);
  const pickMails = (user: User, video: Video) =>
    mailsTo(user).filter((mail) => bodyOf(mail.raw).includes(`/video/${video.id}`));
  const pickPushes = (user: Reader, video: Video) =>
    pushesTo(user).filter((push) => push.url === `/video/${video.id}`);

  it('gives a subscriber who does not follow the pick by e-mail and push, and links to it in the app', async () => {
    const { video, secret } = await postPick('Friday night special');
    await deliver();

    const [alert, ...more] = await pickAlerts(subscriber, video);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      kind: 'pick.posted',
      title: 'New pick from Sharp Sam (your subscription)',
      body: 'Sharp Sam posted a new pick for your subscription: Friday night special',
    });
    expect(JSON.stringify(alert)).not.toContain(secret);

    const [mail, ...moreMails] = pickMails(subscriber, video);
    expect(moreMails).toEqual([]);
    expect(subjectOf(mail!.raw)).toContain('(your subscription)');
    expect(bodyOf(mail!.raw)).toContain(`The pick: ${secret}`);
    expect(bodyOf(mail!.raw)).toContain('because you subscribe to Sharp Sam');

    const [push, ...morePushes] = pickPushes(subscriber, video);
    expect(morePushes).toEqual([]);
    expect(push).toEqual({
      title: 'New pick from Sharp Sam (your subscription)',
      body: `Sharp Sam posted a new pick for your subscription: Friday night special\nThe pick: ${secret}`,
      url: `/video/${video.id}`,
      tag: `pick-${video.id}`,
    });

    // A follower only: the public face, never the selections, on every channel.
    const [followerAlert] = await pickAlerts(follower, video);
    expect(followerAlert!.body).toBe('Sharp Sam posted a new pick: Friday night special — $12.99');
    expect(pickMails(follower, video)).toHaveLength(1);
    expect(bodyOf(pickMails(follower, video)[0]!.raw)).not.toContain(secret);
    expect(pickPushes(follower, video)).toEqual([
      expect.objectContaining({ body: 'Sharp Sam posted a new pick: Friday night special — $12.99' }),
    ]);

    // Following and subscribing: one alert per channel, the subscriber's.
    expect(await pickAlerts(both, video)).toHaveLength(1);
    expect(pickMails(both, video)).toHaveLength(1);
    expect(bodyOf(pickMails(both, video)[0]!.raw)).toContain(secret);
    expect(pickPushes(both, video)).toHaveLength(1);
    expect(pickPushes(both, video)[0]!.body).toContain(secret);
  });

  it("tells a follower who subscribes once, with the pick, when the followers' job runs before the grant", async () => {
    const { video, secret } = await postPick('Saturday special');
    await dispatchOutbox(db);
    // The grant waits: the followers' alert, mail and push go first.
    await db.execute(
      sql`update jobs set run_at = now() + interval '1 hour' where kind = 'grant_subscribers_pick' and status = 'queued'`,
    );
    await t.app.jobs.runUntilIdle(DEFAULT_LANE);
    await t.app.jobs.runUntilIdle(OUTSIDE_LANE);
    expect(pickMails(follower, video)).toHaveLength(1);
    // Their subscription covers the pick: not told as a follower, but with the pick once it is granted.
    expect(pickMails(both, video)).toEqual([]);
    expect(pickPushes(both, video)).toEqual([]);
    await db.execute(
      sql`update jobs set run_at = now() where kind = 'grant_subscribers_pick' and status = 'queued'`,
    );
    await deliver();

    expect(await pickAlerts(both, video)).toHaveLength(1);
    expect(pickMails(both, video)).toHaveLength(1);
    expect(bodyOf(pickMails(both, video)[0]!.raw)).toContain(secret);
    expect(pickPushes(both, video)).toHaveLength(1);
    expect(pickPushes(both, video)[0]!.body).toContain(secret);
    // The subscriber who does not follow still gets the pick.
    expect(bodyOf(pickMails(subscriber, video)[0]!.raw)).toContain(secret);
    expect(pickPushes(subscriber, video)[0]!.body).toContain(secret);
    expect(pickMails(subscriber, video)).toHaveLength(1);
  });

  it("gives another league's pick only to followers, as followers", async () => {
    const { video, secret } = await postPick('Sunday NFL special', 'NFL');
    await deliver();
    expect(await pickAlerts(subscriber, video)).toEqual([]);
    expect(pickMails(subscriber, video)).toEqual([]);
    expect(pickPushes(subscriber, video)).toEqual([]);
    const [alert, ...more] = await pickAlerts(both, video);
    expect(more).toEqual([]);
    expect(alert!.body).toBe('Sharp Sam posted a new pick: Sunday NFL special — $12.99');
    expect(pickMails(both, video)).toHaveLength(1);
    expect(bodyOf(pickMails(both, video)[0]!.raw)).not.toContain(secret);
    expect(pickPushes(both, video)).toHaveLength(1);
    expect(pickPushes(both, video)[0]!.body).not.toContain(secret);
  });
});

describe("a subscription's news", () => {
  const subscriptionAlerts = async (user: User) =>
    (await alertsOf(user)).filter((alert) => alert.url === '/subscriptions').reverse();
  const subscriptionMails = (user: User) =>
    mailsTo(user).filter((mail) => bodyOf(mail.raw).includes('https://pickreel.example/subscriptions'));
  const subscriptionPushes = (user: Reader) => pushesTo(user).filter((push) => push.url === '/subscriptions');

  it('tells of a paid start, a renewal and an end after cancelling, on every channel, once each', async () => {
    const paying = await reader();
    const subscription = await subscribe(paying);
    await deliver();
    await advance(31 * DAY);
    await deliver();
    const cancelled = await inject('POST', `/api/subscriptions/${subscription.id}/cancel`, paying.cookie);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await advance(31 * DAY);
    await deliver();

    const titles = [
      "You subscribed to Sharp Sam's NBA monthly",
      "Sharp Sam's NBA monthly renewed",
      "Sharp Sam's NBA monthly ended",
    ];
    const alerts = await subscriptionAlerts(paying);
    expect(alerts.map((alert) => alert.kind)).toEqual([
      'subscription.started',
      'subscription.renewed',
      'subscription.ended',
    ]);
    expect(alerts.map((alert) => alert.title)).toEqual(titles);
    expect(alerts[2]!.body).toContain('you cancelled it');
    expect(subscriptionMails(paying).map((mail) => subjectOf(mail.raw))).toEqual(titles);
    const unsubscribe = subscriptionMails(paying)[0]!.raw.replace(/\r\n[ \t]+/g, ' ');
    expect(unsubscribe).toMatch(/List-Unsubscribe: <https:\/\/pickreel\.example\/api\/unsubscribe\?token=/i);
    expect(subscriptionPushes(paying).map((push) => push.title)).toEqual(titles);
  });

  it('tells of a trial, a failed charge (update your card) and the end when the grace is over', async () => {
    const trialPlan = await createPlan(capper, { name: 'Trial plan', trialDays: 2 });
    const trying = await reader();
    await subscribe(trying, trialPlan, CHARGES_FAIL);
    await deliver();
    await advance(2 * DAY + 60);
    await deliver();
    for (let day = 0; day < 4; day += 1) await advance(DAY);
    await deliver();

    const alerts = await subscriptionAlerts(trying);
    expect(alerts.map((alert) => alert.kind)).toEqual([
      'subscription.started',
      'subscription.renewal_failed',
      'subscription.renewal_failed',
      'subscription.renewal_failed',
      'subscription.ended',
    ]);
    expect(alerts[0]!.title).toBe("Your free trial of Sharp Sam's Trial plan began");
    expect(alerts[1]!.body).toContain('update your card');
    expect(alerts[4]!.body).toContain('its payment failed');
    expect(subscriptionMails(trying)).toHaveLength(alerts.length);
    expect(subscriptionPushes(trying)).toHaveLength(alerts.length);
  });
});

describe('preferences', () => {
  it('sends nothing of a kind turned off on a channel', async () => {
    const quiet = await reader();
    const off = { new_pick: false, subscription: false };
    const saved = await inject('PUT', '/api/notifications/preferences', quiet.cookie, {
      channels: { in_app: off, email: off, push: off },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await subscribe(quiet);
    const { video } = await postPick('Quiet night');
    await deliver();
    expect(await alertsOf(quiet)).toEqual([]);
    expect(mailsTo(quiet)).toEqual([]);
    expect(pushesTo(quiet)).toEqual([]);
    // Not for want of access: the pick is theirs to read.
    const access = await db.execute(
      sql`select 1 from pick_access where user_id = ${quiet.id} and video_id = ${video.id}`,
    );
    expect(rowsOf(access)).toHaveLength(1);
  });
});
