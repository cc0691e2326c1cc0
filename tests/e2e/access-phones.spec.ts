// Phones and access: on a 390 px phone no table cuts off a column (cards instead), scrolling tables are
// named, focusable regions, focus moves to the new page's heading after a client-side navigation, and a
// refused sign-in says why inside the form.
import { createRequire } from 'node:module';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { E2E_ADMIN } from '../setup/e2e-env';
import { expect, test } from './fixtures';
import { accountMenuButton, fillLogin, fillRegister, loginViaApi, newCredentials } from './helpers';
import { adminApi, createLinkVideo, newAccount, uniqueTitle, type Account } from './money-helpers';
import { newLeg, postPick } from './pick-helpers';

const require = createRequire(import.meta.url);
// Served from the page's own origin, as page-audits.spec.ts does: the CSP refuses inline scripts.
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const AXE_URL_PATH = '/__access-checks/axe.min.js';
const PHONE = { width: 390, height: 844 };

/** axe-core's violations on the page as it is now, as 'rule: target' lines. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.route(`**${AXE_URL_PATH}`, (route) =>
    route.fulfill({ path: AXE_PATH, contentType: 'text/javascript' }),
  );
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ url: new URL(AXE_URL_PATH, page.url()).href });
  return page.evaluate(async () => {
    type Result = { violations: { id: string; nodes: { target: string[] }[] }[] };
    const { axe } = window as unknown as { axe: { run: (context: Document) => Promise<Result> } };
    const { violations } = await axe.run(document);
    return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

/** Waits until the page has loaded what it shows, then expects axe to find nothing. */
async function expectNoAxeViolations(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
}

/** The page does not scroll sideways, and the element lies wholly inside the phone's width. */
async function expectInView(page: Page, element: Locator) {
  await expect(element).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const box = await element.boundingBox();
  if (!box) throw new Error('not laid out');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
}

/** A capper with a video and two pending payout requests ($10 and $7), signed in through the API. */
async function capperWithPayouts(
  playwright: Parameters<typeof newAccount>[0],
  options: Parameters<typeof newAccount>[1],
): Promise<{ capper: Account; title: string; admin: APIRequestContext }> {
  const capper = await newAccount(playwright, options, 'capper');
  const title = uniqueTitle('Access check pick');
  await createLinkVideo(capper, { title, price: 12, selections: 'Home side -3.5' });
  const admin = await adminApi(playwright, options);
  const bonus = await admin.patch(`/api/admin/users/${capper.id}/earnings`, { data: { manualEarnings: 50 } });
  expect(bonus.status(), await bonus.text()).toBe(200);
  for (const amount of [10, 7]) {
    const request = await capper.api.post('/api/payout-request', {
      data: { amount, paymentMethod: 'paypal', accountDetails: `${capper.credentials.username}@example.com` },
    });
    expect(request.status(), await request.text()).toBe(201);
  }
  return { capper, title, admin };
}

test.describe('on a 390 px phone', () => {
  test.use({ viewport: PHONE });

  test("the capper's payout requests are cards with every value in view; axe finds nothing on the dashboard", async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const { capper, admin } = await capperWithPayouts(playwright, { baseURL, extraHTTPHeaders });
    await loginViaApi(page, capper.credentials);
    await page.goto('/dashboard');
    const requests = page.getByRole('list', { name: 'Payout requests' });
    const ten = requests.getByRole('listitem').filter({ hasText: '$10.00' });
    for (const label of ['Amount', 'Fee', 'You receive', 'Method', 'Status']) {
      await expectInView(page, ten.getByRole('term').filter({ hasText: label }));
      await expectInView(page, ten.getByRole('term').filter({ hasText: label }).locator('+ dd'));
    }
    await expect(ten).toContainText('Pending');
    await expectNoAxeViolations(page);
    await Promise.all([capper.api.dispose(), admin.dispose()]);
  });

  test("the admin's Mark paid and Reject are in view and work without sideways scrolling; axe finds nothing", async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const { capper, admin } = await capperWithPayouts(playwright, { baseURL, extraHTTPHeaders });
    const who = capper.credentials.username;
    await loginViaApi(page, E2E_ADMIN);
    await page.goto('/admin?tab=payouts');

    const markPaid = page.getByRole('button', { name: `Mark paid: $10.00 payout to ${who}` });
    const reject = page.getByRole('button', { name: `Reject: $7.00 payout to ${who}` });
    await expectInView(page, markPaid);
    await expectInView(page, reject);
    await expectNoAxeViolations(page);

    await markPaid.click();
    const paidCard = page
      .getByRole('list', { name: 'Payout requests' })
      .getByRole('listitem')
      .filter({ hasText: who })
      .filter({ hasText: '$10.00' });
    await expect(paidCard).toContainText('Paid');
    await reject.click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');

    // The other admin lists are cards too, their buttons in view.
    await page.getByRole('tab', { name: 'Users' }).click();
    await expectInView(page, page.getByRole('button', { name: `Delete user ${who}` }));
    await expectNoAxeViolations(page);
    await Promise.all([capper.api.dispose(), admin.dispose()]);
  });

  test('the analytics per-video table is cards with every value in view; axe finds nothing', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const { capper, title, admin } = await capperWithPayouts(playwright, { baseURL, extraHTTPHeaders });
    await loginViaApi(page, capper.credentials);
    await page.goto('/dashboard/analytics');
    const card = page
      .getByRole('list', { name: 'Your videos' })
      .getByRole('listitem')
      .filter({ hasText: title });
    await expectInView(page, card);
    for (const label of ['Views', 'Sales', 'Revenue', 'Conversion'])
      await expectInView(page, card.getByRole('term').filter({ hasText: label }).locator('+ dd'));
    await expectNoAxeViolations(page);
    await Promise.all([capper.api.dispose(), admin.dispose()]);
  });

  test('after a link in the drawer, focus is on the new page heading', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Leaderboard' }).click();
    await expect(page).toHaveURL('/leaderboard');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.locator('main h1')).toBeFocused();
  });

  test('a failed sign-in says why inside the form, in view', async ({ page }) => {
    await page.goto('/auth');
    await fillLogin(page, { username: newCredentials().username, password: 'wrong-password' });
    const alert = page.getByRole('form', { name: 'Login' }).getByRole('alert');
    await expect(alert).toContainText('Invalid username or password');
    await expectInView(page, alert);
  });
});

test.describe('at desktop width', () => {
  test('the payout requests table is a named, focusable region; axe finds nothing on the dashboard', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const { capper, admin } = await capperWithPayouts(playwright, { baseURL, extraHTTPHeaders });
    await loginViaApi(page, capper.credentials);
    await page.goto('/dashboard');
    const region = page.getByRole('region', { name: 'Payout requests table' });
    await expect(region.getByRole('table')).toBeVisible();
    await expect(region).toHaveAttribute('tabindex', '0');
    await expectNoAxeViolations(page);
    await page.goto('/dashboard/analytics');
    await expect(page.getByRole('region', { name: 'Your videos table' }).getByRole('table')).toBeVisible();
    await expectNoAxeViolations(page);
    await Promise.all([capper.api.dispose(), admin.dispose()]);
  });

  test('focus moves to each new page heading after a link, not on the first load', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'capper');
    const title = uniqueTitle('Focus check pick');
    await postPick(capper.api, title, [newLeg(new Date(Date.now() + 7 * 24 * 3600_000))]);
    const heading = page.locator('main h1');

    // The home page arrives prerendered and inert: a link clicked before the app has started is a page
    // load of its own (src/client/home-boot.js), a first load, where focus rightly stays put.
    await page.addInitScript(() =>
      window.addEventListener('pickreel:ready', () =>
        document.documentElement.setAttribute('data-e2e-live', ''),
      ),
    );
    await page.goto('/');
    await expect(heading).toBeVisible();
    await expect(page.locator('html[data-e2e-live]')).toHaveCount(1);
    await expect(heading).not.toBeFocused();

    await page.getByRole('link', { name: 'See all picks' }).click();
    await expect(page).toHaveURL('/videos');
    await expect(heading).toHaveText('All Available Selections');
    await expect(heading).toBeFocused();
    await expect(page.locator('main h1')).toHaveCount(1);

    // Searching from the box keeps the focus in it: nobody's typing is taken away.
    const search = page.getByRole('searchbox', { name: 'Search videos' });
    await search.fill(title);
    await search.press('Enter');
    await expect(page).toHaveURL(/\/videos\?q=/);
    await expect(search).toBeFocused();

    await page.getByRole('link', { name: title }).first().click();
    await expect(page).toHaveURL(/\/video\/\d+$/);
    await expect(heading).toHaveText(title);
    await expect(heading).toBeFocused();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leaderboard' }).click();
    await expect(page).toHaveURL('/leaderboard');
    await expect(heading).toBeFocused();
    await expect(page.locator('main h1')).toHaveCount(1);

    // Back is a client-side navigation too.
    await page.goBack();
    await expect(heading).toHaveText(title);
    await expect(heading).toBeFocused();

    await page.getByRole('link', { name: 'even without trusting us' }).click();
    await expect(page).toHaveURL('/log');
    await expect(heading).toBeFocused();
    await expect(page.locator('main h1')).toHaveCount(1);
    // Tab goes on from the top of the new page, not from the link that was clicked.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement))).toBe(
      true,
    );
    await capper.api.dispose();
  });

  test('after a link in the account menu, focus is on the new page heading', async ({ page }) => {
    const credentials = newCredentials();
    await page.goto('/auth?tab=register');
    await fillRegister(page, credentials);
    await expect(page).toHaveURL('/');
    await accountMenuButton(page).click();
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(page.locator('main h1')).toHaveText('Dashboard');
    await expect(page.locator('main h1')).toBeFocused();
  });

  test('a wrong password shows the server message in an alert inside the login form, and takes focus', async ({
    page,
  }) => {
    await page.goto('/auth');
    await fillLogin(page, { username: newCredentials().username, password: 'wrong-password' });
    const form = page.getByRole('form', { name: 'Login' });
    const alert = form.getByRole('alert');
    await expect(alert).toHaveText('Login failed: Invalid username or password');
    await expect(alert).toBeFocused();
    const alertId = await alert.getAttribute('id');
    await expect(form).toHaveAttribute('aria-describedby', alertId ?? 'missing');
    await expectNoAxeViolations(page);
  });

  test('a taken username shows the server message in an alert inside the register form', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const taken = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'taken');
    await page.goto('/auth?tab=register');
    await fillRegister(page, { username: taken.credentials.username, password: 'secret123' });
    const alert = page.getByRole('form', { name: 'Register' }).getByRole('alert');
    await expect(alert).toContainText('Username already exists');
    await expect(alert).toBeFocused();
    await taken.api.dispose();
  });
});
