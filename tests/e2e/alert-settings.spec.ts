// Alert settings and e-mail unsubscribe (docs/decisions/040): the settings page's switches save, per channel
// and per followed capper, reached from the notifications page; an alert mail's unsubscribe page says what it
// turns off, does it only on the button, and a bad link reads as a page. The browser tests' server has no
// SMTP server, so mail waits in the outbox, where the admin's API reads it.
import type { APIRequest, APIRequestContext, Page } from '@playwright/test';
import type { AdminMailPage } from '#common/schemas/mail.js';
import { E2E_ADMIN } from '../setup/e2e-env';
import { expect, test, uniqueTitle } from './catalog-helpers';
import { newCredentials } from './helpers';
import { newLeg, postPick } from './pick-helpers';

const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);
/** The outbox's turn, the alert's job and the mail's: seconds, not milliseconds. */
const MAIL_TIMEOUT = 30_000;
const PHONE = { width: 390, height: 844 };

const switchNamed = (page: Page, name: string) => page.getByRole('switch', { name, exact: true });

async function adminApi(request: APIRequest, baseURL: string | undefined) {
  const api = await request.newContext({ baseURL });
  const res = await api.post('/api/login', { data: E2E_ADMIN });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

/** The newest mail to `to` whose text matches, once it is there. */
async function mailTo(admin: APIRequestContext, to: string, text: RegExp): Promise<string> {
  let found = '';
  await expect
    .poll(
      async () => {
        const res = await admin.get('/api/admin/mail?limit=100');
        const page = (await res.json()) as AdminMailPage;
        found = page.mails.find((mail) => mail.to === to && text.test(mail.text))?.text ?? '';
        return found;
      },
      { timeout: MAIL_TIMEOUT },
    )
    .not.toBe('');
  return found;
}

test('the notification settings save each switch, per channel and per followed capper', async ({
  page,
  newUser,
}) => {
  await page.setViewportSize(PHONE);
  const capper = await newUser('capper');
  const credentials = newCredentials('bettor');
  const registered = await page.request.post('/api/register', {
    data: { ...credentials, phoneNumber: '', bio: '', avatarUrl: '' },
  });
  expect(registered.status()).toBe(201);
  expect((await page.request.post(`/api/cappers/${capper.username}/follow`)).status()).toBe(200);

  await page.goto('/notifications');
  await page.getByRole('link', { name: 'Notification settings' }).click();
  await expect(page).toHaveURL('/settings/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notification settings' })).toBeVisible();
  // No confirmed address yet: the page says where to add one.
  await expect(page.getByTestId('email-unconfirmed')).toContainText(
    'E-mail alerts go only to a confirmed address',
  );

  const emailNewPicks = switchNamed(page, 'New picks: E-mail');
  await expect(emailNewPicks).toBeChecked();
  await emailNewPicks.click();
  await expect(emailNewPicks).not.toBeChecked();
  const capperEmail = switchNamed(page, `E-mail alerts from ${capper.username}`);
  await expect(capperEmail).toBeChecked();
  // From the keyboard, as a checkbox is.
  await capperEmail.focus();
  await page.keyboard.press('Space');
  await expect(capperEmail).not.toBeChecked();

  // Kept by the server.
  await expect
    .poll(async () => {
      const prefs = (await (await page.request.get('/api/notifications/preferences')).json()) as {
        channels: { email: { new_pick: boolean } };
        cappers: { channels: { email: boolean; in_app: boolean } }[];
      };
      return [
        prefs.channels.email.new_pick,
        prefs.cappers[0]?.channels.email,
        prefs.cappers[0]?.channels.in_app,
      ];
    })
    .toEqual([false, false, true]);
  await page.reload();
  await expect(switchNamed(page, 'New picks: E-mail')).not.toBeChecked();
  await expect(switchNamed(page, 'New picks: In the app')).toBeChecked();
  await expect(switchNamed(page, `E-mail alerts from ${capper.username}`)).not.toBeChecked();
  await expect(switchNamed(page, `In the app alerts from ${capper.username}`)).toBeChecked();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});

test("a new pick's mail leads to an unsubscribe page that turns that capper's e-mail off on the button", async ({
  page,
  newUser,
  playwright,
  baseURL,
}) => {
  const admin = await adminApi(playwright.request, baseURL);
  const capper = await newUser('capper');
  const credentials = newCredentials('reader');
  const email = `${credentials.username}@example.com`;
  const registered = await page.request.post('/api/register', {
    data: { ...credentials, phoneNumber: '', bio: '', avatarUrl: '', email },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  // The address is confirmed through its link, as a person would.
  const confirmation = await mailTo(admin, email, /email\/confirm\?token=/);
  const confirmPath = /\/api\/profile\/email\/confirm\?token=[\w.-]+/.exec(confirmation)![0];
  await page.goto(confirmPath);
  await expect(page).toHaveURL('/settings/profile?email=confirmed');
  expect((await page.request.post(`/api/cappers/${capper.username}/follow`)).status()).toBe(200);

  const title = uniqueTitle('Mailed pick');
  await postPick(capper.api, title, [newLeg(inHours(48))]);
  const alert = await mailTo(admin, email, new RegExp(title));
  expect(alert).toContain(`posted a new pick: ${title}`);
  const unsubscribePath = /\/unsubscribe\?token=[\w.-]+/.exec(alert)![0];

  await page.setViewportSize(PHONE);
  await page.goto(unsubscribePath);
  await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeVisible();
  await expect(page.locator('strong', { hasText: `e-mail alerts from ${capper.username}` })).toBeVisible();
  // Opening the page changed nothing.
  const before = (await (await page.request.get('/api/notifications/preferences')).json()) as {
    cappers: { channels: { email: boolean } }[];
  };
  expect(before.cappers[0]!.channels.email).toBe(true);

  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Done:' })).toContainText(
    `Done: e-mail alerts from ${capper.username} are off`,
  );
  await page.getByRole('link', { name: 'notification settings' }).click();
  await expect(switchNamed(page, `E-mail alerts from ${capper.username}`)).not.toBeChecked();
  await expect(switchNamed(page, `In the app alerts from ${capper.username}`)).toBeChecked();
  await admin.dispose();
});

test('a bad unsubscribe or confirmation link shows a page in words, not JSON', async ({ page }) => {
  await page.goto('/api/unsubscribe?token=forged.token');
  await expect(page).toHaveURL('/unsubscribe?token=forged.token');
  await expect(page.getByRole('alert')).toContainText('This unsubscribe link is not valid.');
  await expect(page.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);

  await page.goto('/api/profile/email/confirm?token=forged.token');
  await expect(page).toHaveURL('/email-confirmation?problem=invalid');
  await expect(page.getByRole('alert')).toContainText('This confirmation link is not valid.');
});
