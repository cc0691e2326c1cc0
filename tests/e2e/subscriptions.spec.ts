// Capper subscriptions (docs/decisions/037) in the browser, on a phone: the storefront's plans, a checkout
// with the sandbox card form (with a free trial, without, and with a promo code), a new pick read at once by
// the subscriber, and cancelling with a confirmation. The capper's side is set up through the API.
import type { Page } from '@playwright/test';
import { expect, test, uniqueTitle } from './catalog-helpers';
import { E2E_ADMIN } from '../setup/e2e-env';
import { registerAndLogin, toasts } from './helpers';
import { newLeg, postPick } from './pick-helpers';

const PHONE = { width: 390, height: 844 };

// The sandbox's test clock moves every subscription on the server: this file's tests run one after another,
// the clock's last, so no test sees another's renewals.
test.describe.configure({ mode: 'serial' });
const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);
/** The outbox's turn and the grant's job: seconds, not milliseconds. */
const GRANT_TIMEOUT = 30_000;

async function payWith(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date (MM/YY)').fill('12/40');
  await page.getByLabel('CVC').fill('123');
}

test('a bettor subscribes with a trial and with a card, reads a new pick at once, and cancels', async ({
  page,
  newUser,
}) => {
  await page.setViewportSize(PHONE);
  const capper = await newUser('capper');
  for (const plan of [
    { name: 'Night owl', priceCents: 999, interval: 'month', leagues: ['NHL'], trialDays: 7 },
    { name: 'Weekly NHL', priceCents: 499, interval: 'week', leagues: ['NHL'] },
  ]) {
    const res = await capper.api.post(`/api/cappers/${capper.username}/plans`, { data: plan });
    expect(res.status(), await res.text()).toBe(201);
  }
  await registerAndLogin(page);

  await page.goto(`/cappers/${capper.username}`);
  const plans = page.getByRole('region', { name: 'Plans' });
  await expect(plans).toContainText('Night owl');
  await expect(plans).toContainText('$9.99 / month');
  await expect(plans).toContainText('Every pick in NHL');
  await expect(plans).toContainText('7-day free trial');
  await expect(plans).toContainText('$4.99 / week');

  // With the trial: nothing charged, and a declined card is told first.
  await plans.getByRole('link', { name: 'Subscribe to Night owl' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Subscribe' })).toBeVisible();
  await payWith(page, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Start free trial' }).click();
  await expect(page.getByRole('alert')).toContainText('Your card was declined.');
  await payWith(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Start free trial' }).click();
  await expect(toasts(page).filter({ hasText: 'Subscribed' })).toContainText('Free until');
  await expect(page).toHaveURL('/subscriptions');
  const trial = page.getByTestId('subscription').filter({ hasText: 'Night owl' });
  await expect(trial.getByTestId('subscription-status')).toHaveText('Free trial');
  await expect(trial).toContainText('Next renewal:');

  // The capper posts: the subscriber reads the selections as a buyer would.
  const selections = 'Home side -1.5, 2 units';
  const pick = await postPick(capper.api, uniqueTitle('Subscribed pick'), [newLeg(inHours(48))], {
    selections,
  });
  await expect(async () => {
    await page.goto(`/video/${pick.id}`);
    await expect(page.getByTestId('your-selections-text')).toHaveText(selections, { timeout: 1_000 });
  }).toPass({ timeout: GRANT_TIMEOUT });

  // Without a trial: charged now.
  await page.goto(`/cappers/${capper.username}`);
  await page.getByRole('link', { name: 'Subscribe to Weekly NHL' }).click();
  await payWith(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $4.99' }).click();
  await expect(toasts(page).filter({ hasText: 'Subscribed' })).toContainText('Renews');
  const weekly = page.getByTestId('subscription').filter({ hasText: 'Weekly NHL' });
  await expect(weekly.getByTestId('subscription-status')).toHaveText('Active');

  // Cancel, confirmed: access runs to the end of the trial, no renewal.
  await trial.getByRole('button', { name: 'Cancel Night owl' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('No renewal. You keep access until');
  await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(trial.getByTestId('subscription-status')).toHaveText('Cancelled');
  await expect(trial).toContainText('no renewal');
  await expect(trial.getByRole('button', { name: 'Cancel Night owl' })).toHaveCount(0);
  // Nothing on the page is wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});

test('a capper creates and retires a plan from their profile settings', async ({ page }) => {
  await page.setViewportSize(PHONE);
  const me = await registerAndLogin(page);
  await page.goto('/settings/profile');
  const section = page.getByRole('region', { name: 'Subscription plans' });
  await expect(section.getByTestId('subscriber-count')).toHaveText('0 live subscribers');
  await section.getByLabel('Plan name').fill('Hoops daily');
  await section.getByLabel('Price (USD)').fill('14.99');
  await section.getByLabel('Every').selectOption('week');
  await section.getByRole('checkbox', { name: 'NBA' }).check();
  await section.getByLabel('Free trial (days)').fill('3');
  await section.getByRole('button', { name: 'Create plan' }).click();
  const plans = section.getByRole('list', { name: 'Your plans' });
  await expect(plans).toContainText('Hoops daily');
  await expect(plans).toContainText('$14.99 / week · NBA · 3-day free trial');

  await page.goto(`/cappers/${me.username}`);
  await expect(page.getByRole('region', { name: 'Plans' })).toContainText('Hoops daily');
  // Your own plans have no Subscribe.
  await expect(page.getByRole('link', { name: 'Subscribe to Hoops daily' })).toHaveCount(0);

  await page.goto('/settings/profile');
  await plans.getByRole('button', { name: 'Retire Hoops daily' }).click();
  await expect(plans).toContainText('(retired)');
  await page.goto(`/cappers/${me.username}`);
  await expect(page.getByRole('region', { name: 'Plans' })).toHaveCount(0);
});

test('a bettor subscribes with a promo code and is charged the discounted price', async ({
  page,
  newUser,
}) => {
  await page.setViewportSize(PHONE);
  const capper = await newUser('capper');
  const plans: { id: number; name: string }[] = [];
  for (const plan of [
    { name: 'Promo monthly', priceCents: 999, interval: 'month', leagues: ['NHL'] },
    { name: 'Promo trial', priceCents: 499, interval: 'week', leagues: ['NHL'], trialDays: 7 },
  ]) {
    const res = await capper.api.post(`/api/cappers/${capper.username}/plans`, { data: plan });
    expect(res.status(), await res.text()).toBe(201);
    plans.push((await res.json()) as { id: number; name: string });
  }
  for (const code of [
    { code: 'SUBS25', kind: 'percent', percentOff: 25, duration: 'forever' },
    { code: 'FIRST2', kind: 'fixed', amountOff: 2, duration: 'once' },
  ]) {
    const res = await capper.api.post(`/api/cappers/${capper.username}/promo-codes`, { data: code });
    expect(res.status(), await res.text()).toBe(200);
  }
  await registerAndLogin(page);

  // A `once` code on a plan with a trial: nothing today, the first paid week discounted, then the list price.
  await page.goto(`/subscribe/${capper.username}/${plans[1]!.id}`);
  await page.getByRole('button', { name: 'Add promo code' }).click();
  await page.getByLabel('Promo code', { exact: true }).fill('first2');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('promo-applied')).toContainText('Code FIRST2 applied — $2.00 off');
  await expect(page.getByTestId('plan-promo-price')).toContainText('$4.99');
  await expect(page.getByTestId('plan-promo-price')).toContainText(
    'Code FIRST2: $2.00 off your first paid week, then $4.99 / week.',
  );
  await expect(page.getByRole('button', { name: 'Start free trial' })).toBeVisible();

  // A `forever` code, charged now: the struck price, the button's amount, and the subscription's line.
  await page.goto(`/cappers/${capper.username}`);
  await page.getByRole('link', { name: 'Subscribe to Promo monthly' }).click();
  await expect(page.getByRole('button', { name: 'Pay $9.99' })).toBeVisible();
  await page.getByRole('button', { name: 'Add promo code' }).click();
  await page.getByLabel('Promo code', { exact: true }).fill('NOT-A-CODE');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('promo-error')).toHaveText('No such code for this capper');
  await page.getByLabel('Promo code', { exact: true }).fill('subs25');
  await page.getByRole('button', { name: 'Apply' }).click();
  const price = page.getByTestId('plan-promo-price');
  await expect(price.locator('s')).toContainText('$9.99');
  await expect(price).toContainText('$7.49');
  await expect(price).toContainText('Code SUBS25: $2.50 off every month while you stay subscribed.');
  await payWith(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $7.49' }).click();
  await expect(toasts(page).filter({ hasText: 'Subscribed' })).toContainText('Renews');
  await expect(page).toHaveURL('/subscriptions');
  const subscription = page.getByTestId('subscription').filter({ hasText: 'Promo monthly' });
  await expect(subscription.getByTestId('subscription-promo')).toHaveText('Code SUBS25: 25% off every month');
  await expect(subscription).toContainText(/Next renewal: .+, \$7\.49/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});

test('a renewal that fails shows past due, and a new card pays it at once', async ({
  page,
  newUser,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  await page.setViewportSize(PHONE);
  const capper = await newUser('capper');
  const created = await capper.api.post(`/api/cappers/${capper.username}/plans`, {
    data: { name: 'Short trial', priceCents: 1500, interval: 'month', leagues: ['NHL'], trialDays: 1 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const plan = (await created.json()) as { id: number };
  await registerAndLogin(page);
  // Saved, but its charges fail: the trial starts, its first charge will not pass.
  const subscribed = await page.request.post(`/api/plans/${plan.id}/subscribe`, {
    data: { card: { number: '4000000000000341', expMonth: 12, expYear: 2040, cvc: '123' } },
  });
  expect(subscribed.status(), await subscribed.text()).toBe(201);

  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders });
  try {
    const login = await admin.post('/api/login', { data: E2E_ADMIN });
    expect(login.status(), await login.text()).toBe(200);
    const moved = await admin.post('/api/payments/sandbox/clock', {
      data: { advanceSeconds: 2 * 24 * 3600 },
    });
    expect(moved.status(), await moved.text()).toBe(200);
  } finally {
    await admin.dispose();
  }

  await page.goto('/subscriptions');
  const subscription = page.getByTestId('subscription').filter({ hasText: 'Short trial' });
  await expect(subscription.getByTestId('subscription-status')).toHaveText('Payment failed — retrying');
  await subscription.getByRole('button', { name: 'Update card' }).click();
  await payWith(page, '4242 4242 4242 4242');
  await subscription.getByRole('button', { name: 'Save card and pay' }).click();
  await expect(toasts(page).filter({ hasText: 'Card updated' })).toContainText('active again');
  await expect(subscription.getByTestId('subscription-status')).toHaveText('Active');
  await expect(subscription).toContainText('card ending 4242');
});
