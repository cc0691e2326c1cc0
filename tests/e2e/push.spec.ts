// Push alerts in the browser (docs/decisions/038): the notifications page's button asks permission and
// registers the service worker only when pressed; the subscription reaches the server, and a followed
// capper's new pick reaches the push service, encrypted to the browser's keys. Chromium's real push
// service is FCM, out of reach offline: PushManager.subscribe is stubbed in the page to answer a
// subscription on the local stand-in, with keys this test made, so the stand-in can decrypt what it gets.
import type { Page } from '@playwright/test';
import { startPushStandIn, type PushStandIn } from '#server/features/push/stand-in.js';
import { expect, test, uniqueTitle } from './catalog-helpers';
import { E2E_ADMIN } from '../setup/e2e-env';
import { loginViaApi, registerAndLogin } from './helpers';
import { newLeg, postPick } from './pick-helpers';

/** The outbox's turn, the alerts' job and the push job: seconds, not milliseconds. */
const PUSH_TIMEOUT = 30_000;
const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);

/** Replaces the browser's PushManager with one that hands out this subscription (and records the key). */
async function stubPushManager(page: Page, subscription: { endpoint: string; keys: object }) {
  await page.addInitScript((json) => {
    let current: PushSubscription | null = null;
    const w = window as unknown as { pushKeyAsked?: string };
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
      w.pushKeyAsked = btoa(String.fromCharCode(...key))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      current = {
        endpoint: json.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: () => null,
        toJSON: () => ({ endpoint: json.endpoint, expirationTime: null, keys: json.keys }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      } as unknown as PushSubscription;
      return current;
    };
    PushManager.prototype.getSubscription = async () => current;
  }, subscription);
}

let standIn: PushStandIn | undefined;
test.afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

test('a bettor turns on push alerts and a followed capper’s new pick reaches the push service, without its selections', async ({
  page,
  context,
  newUser,
}) => {
  const capper = await newUser('capper');
  await registerAndLogin(page);
  const followed = await page.request.post(`/api/cappers/${capper.username}/follow`);
  expect(followed.status(), await followed.text()).toBe(200);
  const { publicKey } = (await (await page.request.get('/api/push/key')).json()) as { publicKey: string };
  standIn = await startPushStandIn({ port: Number(process.env.E2E_PUSH_PORT), vapidPublicKey: publicKey });
  const browser = standIn.subscribe();
  await stubPushManager(page, { endpoint: browser.endpoint, keys: browser.keys });
  await context.grantPermissions(['notifications']);

  await page.goto('/notifications');
  const turnOn = page.getByRole('button', { name: 'Turn on push alerts' });
  await expect(turnOn).toBeVisible();
  // Nothing is registered before the press.
  expect(
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/')) ?? null),
  ).toBeNull();

  await turnOn.click();
  await expect(page.getByTestId('push-state')).toHaveText('Push alerts are on in this browser.');
  await expect(page.getByRole('button', { name: 'Turn off push alerts' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { pushKeyAsked?: string }).pushKeyAsked)).toBe(
    publicKey,
  );
  const worker = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    return (
      registration?.active?.scriptURL ??
      registration?.installing?.scriptURL ??
      registration?.waiting?.scriptURL
    );
  });
  expect(worker).toMatch(/\/sw\.js$/);

  const title = uniqueTitle('Pushed pick');
  const pick = await postPick(capper.api, title, [newLeg(inHours(48))], {
    selections: 'Home side -1.5 (2 units)',
  });
  await expect.poll(() => standIn!.received.length, { timeout: PUSH_TIMEOUT }).toBe(1);
  const push = standIn.received[0]!;
  expect(push.contentEncoding).toBe('aes128gcm');
  const message = JSON.parse(browser.decrypt(push.body)) as Record<string, string>;
  expect(message).toEqual({
    title: `New pick from ${capper.username}`,
    body: `${capper.username} posted a new pick: ${title} — $25`,
    url: `/video/${pick.id}`,
    tag: `pick-${pick.id}`,
  });
  expect(JSON.stringify(message)).not.toContain('Home side');
  expect(standIn.refused).toEqual([]);

  await page.getByRole('button', { name: 'Turn off push alerts' }).click();
  await expect(page.getByRole('button', { name: 'Turn on push alerts' })).toBeVisible();

  // Admins see push delivery beside the mail.
  await loginViaApi(page, E2E_ADMIN);
  await page.goto('/admin?tab=mail');
  await expect(page.getByRole('heading', { level: 2, name: 'Push alerts' })).toBeVisible();
  await expect(page.getByTestId('admin-push-summary')).toContainText(/[1-9]\d* sent/);
});

test('a bettor who blocks notifications is told how to allow them, and nothing is subscribed', async ({
  page,
}) => {
  await registerAndLogin(page);
  await page.addInitScript(() => {
    // The prompt answered "Block" (headless Chromium cannot show it).
    Notification.requestPermission = async () => 'denied';
  });
  await page.goto('/notifications');
  await page.getByRole('button', { name: 'Turn on push alerts' }).click();
  await expect(page.getByTestId('push-state')).toHaveText(/Notifications are blocked for this site/);
  await expect(page.getByRole('button', { name: /push alerts/ })).toHaveCount(0);
  expect(
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/')) ?? null),
  ).toBeNull();
});
