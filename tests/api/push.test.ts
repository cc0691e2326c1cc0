// Web Push alerts (docs/decisions/038): a subscription is stored only for the push services' hosts and with
// real keys; a followed capper's new pick reaches each subscribed browser once, encrypted, with the in-app
// alert's words and never the selections; a gone subscription is removed; a retry never pushes twice.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationPage } from '#common/schemas/notifications.js';
import type { AdminPush } from '#common/schemas/push.js';
import type { Video } from '#common/schemas/videos.js';
import { loadConfig } from '#server/config.js';
import type { Db } from '#server/db/client.js';
import { eq, sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { users } from '#server/db/schema.js';
import { dispatchOutbox } from '#server/events/index.js';
import {
  startPushStandIn,
  type PushStandIn,
  type StandInSubscription,
} from '#server/features/push/stand-in.js';
import { DEFAULT_LANE, OUTSIDE_LANE } from '#server/jobs/index.js';
import { DEFAULT_PUSH_SERVICE_HOSTS } from '#server/lib/push-hosts.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { inHours, postLinkPick } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let db: Db;
let standIn: PushStandIn;
let capper: User;
let fan: User;
let ip = 0;
const nextIp = () => `10.37.0.${++ip}`;
let game = 0;
const SECRET = 'Zebras +7.5 (3 units)';

function leg() {
  game += 1;
  return {
    league: 'NBA',
    home: `Zebras ${game}`,
    away: `Okapis ${game}`,
    startsAt: inHours(24),
    market: 'spread',
    side: `Zebras ${game}`,
    line: 7.5,
    odds: -110,
    units: 3,
  };
}

async function postPick(user: User, fields: Record<string, string>) {
  const response = await postLinkPick(t.app, user.cookie, [leg()], { emailInformation: SECRET, ...fields });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}

/** The background work: the outbox, the in-app alerts' job, then the push fan-out on the outside lane. */
async function deliver() {
  await dispatchOutbox(db);
  await t.app.jobs.runUntilIdle(DEFAULT_LANE);
  await t.app.jobs.runUntilIdle(OUTSIDE_LANE);
}

/** Makes a waiting retry of the push job due now (its backoff is minutes). */
async function retryNow() {
  await db.execute(sql`update jobs set run_at = now() where kind = 'push_pick_alerts' and status = 'queued'`);
  await t.app.jobs.runUntilIdle(OUTSIDE_LANE);
}

const subscribe = (cookie: string | undefined, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/push/subscriptions',
    headers: cookie ? { cookie } : {},
    payload: payload as object,
  });
const unsubscribe = (cookie: string, endpoint: string) =>
  t.app.inject({
    method: 'DELETE',
    url: '/api/push/subscriptions',
    headers: { cookie },
    payload: { endpoint },
  });

async function subscriptionCount(userId: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from push_subscriptions where user_id = ${userId}`),
  );
  return Number(row!.n);
}

const receivedBy = (subscription: StandInSubscription) =>
  standIn.received.filter((push) => subscription.endpoint.endsWith(`/${push.id}`));

beforeAll(async () => {
  standIn = await startPushStandIn();
  t = await createTestApp({ env: { PUSH_SERVICE_HOSTS: `${DEFAULT_PUSH_SERVICE_HOSTS},${standIn.origin}` } });
  db = t.database.db;
  capper = await registerUser(t.app, {}, nextIp());
  fan = await registerUser(t.app, {}, nextIp());
  await db.execute(sql`update users set display_name = 'Sharp Sam' where id = ${capper.id}`);
  const follow = await t.app.inject({
    method: 'POST',
    url: `/api/cappers/${capper.username}/follow`,
    headers: { cookie: fan.cookie },
  });
  expect(follow.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

describe('the key', () => {
  it('serves the VAPID public key, made at first start and kept in the data directory', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/push/key' });
    expect(response.statusCode).toBe(200);
    const { publicKey } = response.json<{ publicKey: string }>();
    expect(publicKey).toBe(t.config.push.vapid.publicKey);
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect(t.config.push.vapid.subject).toBe('mailto:no-reply@localhost');
  });
});

describe('subscribing', () => {
  const keys = () => standIn.subscribe().keys;

  it.each([
    ['plain http to another host', 'http://push.example.com/x'],
    ['http to the stand-in on another port', 'http://127.0.0.1:1/push/x'],
    ['https to an address', 'https://127.0.0.1/push/x'],
    ['https to an IPv6 address', 'https://[::1]/push/x'],
    ['https to a private address', 'https://10.0.0.1/push/x'],
    ['another host', 'https://evil.example/fcm/send/x'],
    ['a look-alike host', 'https://fcm.googleapis.com.evil.example/fcm/send/x'],
    ['a wildcard look-alike', 'https://notify.windows.com.evil.example/w/?token=x'],
    ['a push service on another port', 'https://fcm.googleapis.com:8443/fcm/send/x'],
    ['a user name in the URL', 'https://user:pw@fcm.googleapis.com/fcm/send/x'],
    ['no URL at all', 'not a url'],
    ['a file URL', 'file:///etc/passwd'],
  ])('refuses %s', async (_why, endpoint) => {
    const response = await subscribe(fan.cookie, { endpoint, keys: keys() });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(/endpoint/);
    expect(await subscriptionCount(fan.id)).toBe(0);
  });

  it.each([
    [
      'a p256dh too short',
      (k: { p256dh: string; auth: string }) => ({ ...k, p256dh: k.p256dh.slice(0, 40) }),
    ],
    [
      'a compressed point',
      (k: { p256dh: string; auth: string }) => ({ ...k, p256dh: `A${k.p256dh.slice(1)}` }),
    ],
    [
      'a point off the curve',
      (k: { p256dh: string; auth: string }) => ({
        ...k,
        p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'),
      }),
    ],
    [
      'an auth secret of 15 bytes',
      (k: { p256dh: string; auth: string }) => ({ ...k, auth: 'AAAAAAAAAAAAAAAAAAAA' }),
    ],
    ['no auth secret', (k: { p256dh: string; auth: string }) => ({ p256dh: k.p256dh })],
  ])('refuses %s', async (_why, change) => {
    const response = await subscribe(fan.cookie, {
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
      keys: change(keys()),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(await subscriptionCount(fan.id)).toBe(0);
  });

  it('asks to sign in', async () => {
    const response = await subscribe(undefined, {
      endpoint: 'https://fcm.googleapis.com/fcm/send/a',
      keys: keys(),
    });
    expect(response.statusCode).toBe(401);
  });

  it("accepts the browsers' push services, once per endpoint, and each user removes only their own", async () => {
    const user = await registerUser(t.app, {}, nextIp());
    const other = await registerUser(t.app, {}, nextIp());
    const endpoints = [
      'https://fcm.googleapis.com/fcm/send/dXxk:APA91b',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAA',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA',
      'https://web.push.apple.com/QGuQyavXutnMH',
    ];
    for (const endpoint of endpoints) {
      const response = await subscribe(user.cookie, { endpoint, keys: keys(), expirationTime: null });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ subscribed: true });
    }
    // Again, with new keys: still one row, the keys renewed.
    const renewed = keys();
    expect((await subscribe(user.cookie, { endpoint: endpoints[0], keys: renewed })).statusCode).toBe(200);
    expect(await subscriptionCount(user.id)).toBe(4);
    const [row] = rowsOf<{ p256dh: string }>(
      await db.execute(sql`select p256dh from push_subscriptions where endpoint = ${endpoints[0]}`),
    );
    expect(row!.p256dh).toBe(renewed.p256dh);

    expect((await unsubscribe(other.cookie, endpoints[1]!)).statusCode).toBe(200);
    expect(await subscriptionCount(user.id)).toBe(4);
    expect((await unsubscribe(user.cookie, endpoints[1]!)).json()).toEqual({ subscribed: false });
    expect(await subscriptionCount(user.id)).toBe(3);
  });

  it('keeps at most 10 browsers per account', async () => {
    const user = await registerUser(t.app, {}, nextIp());
    for (let i = 0; i < 10; i += 1) {
      const response = await subscribe(user.cookie, {
        endpoint: `https://fcm.googleapis.com/fcm/send/n${i}`,
        keys: keys(),
      });
      expect(response.statusCode).toBe(200);
    }
    const eleventh = await subscribe(user.cookie, {
      endpoint: 'https://fcm.googleapis.com/fcm/send/n10',
      keys: keys(),
    });
    expect(eleventh.statusCode).toBe(409);
    // One already stored is renewed, not counted again.
    expect(
      (await subscribe(user.cookie, { endpoint: 'https://fcm.googleapis.com/fcm/send/n3', keys: keys() }))
        .statusCode,
    ).toBe(200);
    expect(await subscriptionCount(user.id)).toBe(10);
  });
});

describe('a followed capper posts a pick', () => {
  let phone: StandInSubscription;
  let laptop: StandInSubscription;
  let old: StandInSubscription;
  let refusing: StandInSubscription;
  let moved: StandInSubscription;
  let video: Video;

  beforeAll(async () => {
    phone = standIn.subscribe();
    laptop = standIn.subscribe();
    old = standIn.subscribe();
    refusing = standIn.subscribe();
    moved = standIn.subscribe();
    for (const subscription of [phone, laptop, old, refusing, moved]) {
      const { decrypt: _decrypt, ...json } = subscription;
      expect((await subscribe(fan.cookie, json)).statusCode).toBe(200);
    }
    // The laptop's service is down for one try; the old browser unsubscribed; one refuses the request.
    standIn.answer(laptop.endpoint, 503);
    standIn.answer(old.endpoint, 410);
    standIn.answer(refusing.endpoint, 400);
    standIn.answer(moved.endpoint, 307);
    video = await postPick(capper, { title: 'Friday night special', price: '12.99' });
    await deliver();
  });

  it("pushes the in-app alert's words, encrypted, signed with the server's key, never the selections", async () => {
    const pushes = receivedBy(phone);
    expect(pushes).toHaveLength(1);
    const push = pushes[0]!;
    expect(push.contentEncoding).toBe('aes128gcm');
    expect(push.ttl).toBe('43200');
    expect(push.urgency).toBe('normal');
    expect(push.vapidPublicKey).toBe(t.config.push.vapid.publicKey);
    expect(push.claims).toMatchObject({ aud: standIn.origin, sub: 'mailto:no-reply@localhost' });
    expect(push.body.toString('latin1')).not.toContain('Zebras');

    const message = JSON.parse(phone.decrypt(push.body)) as Record<string, string>;
    const page = (
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: fan.cookie } })
    ).json<NotificationPage>();
    const alert = page.items.find((item) => item.url === `/video/${video.id}`)!;
    expect(message).toEqual({
      title: alert.title,
      body: alert.body,
      url: alert.url,
      tag: `pick-${video.id}`,
    });
    expect(message.body).toBe('Sharp Sam posted a new pick: Friday night special — $12.99');
    expect(JSON.stringify(message)).not.toContain(SECRET);
    expect(JSON.stringify(message)).not.toMatch(/Zebras|7\.5/);
  });

  it('removes a subscription the push service says is gone', async () => {
    expect(receivedBy(old)).toHaveLength(0);
    const rows = rowsOf(
      await db.execute(sql`select 1 from push_subscriptions where endpoint = ${old.endpoint}`),
    );
    expect(rows).toHaveLength(0);
  });

  it('never follows a redirect: the delivery fails and nothing reaches where it pointed', async () => {
    expect(standIn.received.filter((push) => push.id === 'redirected')).toEqual([]);
    const [row] = rowsOf<{ status: string; last_error: string }>(
      await db.execute(
        sql`select status, last_error from push_deliveries where endpoint = ${moved.endpoint}`,
      ),
    );
    expect(row).toMatchObject({ status: 'failed', last_error: expect.stringMatching(/^307/) });
  });

  it('retries a service that failed, without pushing twice to the others', async () => {
    expect(receivedBy(laptop)).toHaveLength(0);
    await retryNow();
    expect(receivedBy(laptop)).toHaveLength(1);
    expect(JSON.parse(laptop.decrypt(receivedBy(laptop)[0]!.body))).toMatchObject({
      url: `/video/${video.id}`,
    });
    // The job and the in-app alerts run again: nobody is pushed a second time.
    await retryNow();
    await deliver();
    expect(receivedBy(phone)).toHaveLength(1);
    expect(receivedBy(laptop)).toHaveLength(1);
    expect(receivedBy(refusing)).toHaveLength(0);
    expect(standIn.refused).toEqual([]);
  });

  it('shows admins what the push services refused', async () => {
    const admin = await registerUser(t.app, {}, nextIp());
    await db.update(users).set({ isAdmin: true }).where(eq(users.id, admin.id));
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/push',
      headers: { cookie: admin.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json<AdminPush>();
    expect(summary.deliveries).toMatchObject({ sent: 2, gone: 1, failed: 2, queued: 0 });
    expect(summary.failing).toHaveLength(2);
    expect(summary.failing).toContainEqual({
      id: expect.any(Number),
      username: fan.username,
      host: new URL(standIn.origin).host,
      failures: 1,
      lastError: expect.stringMatching(/^400/),
    });
    const forbidden = await t.app.inject({
      method: 'GET',
      url: '/api/admin/push',
      headers: { cookie: fan.cookie },
    });
    expect(forbidden.statusCode).toBe(403);
  });

  it('pushes nothing to a user who did not get the alert', async () => {
    const stranger = await registerUser(t.app, {}, nextIp());
    const browser = standIn.subscribe();
    const { decrypt: _decrypt, ...json } = browser;
    expect((await subscribe(stranger.cookie, json)).statusCode).toBe(200);
    await postPick(capper, { title: 'Saturday special', price: '5' });
    await deliver();
    expect(receivedBy(browser)).toHaveLength(0);
    expect(receivedBy(phone)).toHaveLength(2);
  });

  it("follows each follower's preferences: push off sends none, in-app off still pushes", async () => {
    const setPreferences = (cookie: string, channels: object) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/notifications/preferences',
        headers: { cookie },
        payload: { channels },
      });
    const quiet = await registerUser(t.app, {}, nextIp());
    const pushOnly = await registerUser(t.app, {}, nextIp());
    const quietBrowser = standIn.subscribe();
    const pushOnlyBrowser = standIn.subscribe();
    for (const [user, browser] of [
      [quiet, quietBrowser],
      [pushOnly, pushOnlyBrowser],
    ] as const) {
      const { decrypt: _decrypt, ...json } = browser;
      expect((await subscribe(user.cookie, json)).statusCode).toBe(200);
      const followed = await t.app.inject({
        method: 'POST',
        url: `/api/cappers/${capper.username}/follow`,
        headers: { cookie: user.cookie },
      });
      expect(followed.statusCode, followed.body).toBe(200);
    }
    expect((await setPreferences(quiet.cookie, { push: { new_pick: false } })).statusCode).toBe(200);
    expect((await setPreferences(pushOnly.cookie, { in_app: { new_pick: false } })).statusCode).toBe(200);
    await postPick(capper, { title: 'Sunday special', price: '6' });
    await deliver();
    expect(receivedBy(quietBrowser)).toHaveLength(0);
    expect(receivedBy(pushOnlyBrowser)).toHaveLength(1);
  });
});

describe('settings', () => {
  const dir = () => mkdtempSync(path.join(os.tmpdir(), 'pickreel-push-'));

  it('keeps the VAPID keys made at first start, and takes VAPID_* instead when set together and matching', () => {
    const dataDir = dir();
    try {
      const first = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32) }).push.vapid;
      expect(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32) }).push.vapid).toEqual(first);
      const other = loadConfig({ DATA_DIR: dir(), MAIL_FROM: 'Picks <picks@pickreel.example>' }).push.vapid;
      expect(other.publicKey).not.toBe(first.publicKey);
      expect(other.subject).toBe('mailto:picks@pickreel.example');
      const set = loadConfig({
        DATA_DIR: dataDir,
        VAPID_PUBLIC_KEY: other.publicKey,
        VAPID_PRIVATE_KEY: other.privateKey,
        VAPID_SUBJECT: 'https://pickreel.example/contact',
      }).push.vapid;
      expect(set).toEqual({ ...other, subject: 'https://pickreel.example/contact' });
      expect(() =>
        loadConfig({
          DATA_DIR: dataDir,
          VAPID_PUBLIC_KEY: first.publicKey,
          VAPID_PRIVATE_KEY: other.privateKey,
        }),
      ).toThrow(/VAPID_PRIVATE_KEY: is not the private half/);
      expect(() => loadConfig({ DATA_DIR: dataDir, VAPID_PUBLIC_KEY: first.publicKey })).toThrow(
        /VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together/,
      );
      expect(() => loadConfig({ DATA_DIR: dataDir, VAPID_SUBJECT: 'admin@pickreel.example' })).toThrow(
        /VAPID_SUBJECT: must be a mailto: address or an https:\/\/ URL/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.each([
    ['http beyond this machine', 'http://push.example.com:8080', /http is allowed only for 127\.0\.0\.1/],
    ['an address as a host', '10.0.0.1', /not a host name/],
    ['an origin with a path', 'https://push.example.com/path', /must be an origin alone/],
    ['nothing', ' , ', /names no push service/],
  ])('refuses PUSH_SERVICE_HOSTS naming %s', (_why, value, message) => {
    const dataDir = dir();
    try {
      expect(() => loadConfig({ DATA_DIR: dataDir, PUSH_SERVICE_HOSTS: value })).toThrow(message);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
