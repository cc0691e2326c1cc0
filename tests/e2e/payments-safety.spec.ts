// Keeping its word on money, as a buyer and an admin see it: the checkout shows the amount it
// charges to the cent, a price changed while the page was open is shown before anyone pays, a refunded
// payment is explained at checkout and listed on the dashboard, and the admin's Audit log tab lists refunds.
// The sandbox closes every race that could make a real refund (decision 010), so the refund screens are fed
// the server's own sentences through route handlers; the API tests make real ones on both databases.
import type { Page } from '@playwright/test';
import type { AuditEntry, AuditLogPage } from '#common/schemas/admin.js';
import { PRICE_CHANGED_BEFORE_PAYMENT, refundMessage, type Refund } from '#common/schemas/payments.js';
import { expect, test } from './fixtures';
import { adminApi, createLinkVideo, newAccount, uniqueTitle } from './money-helpers';
import { loginViaApi, registerAndLogin } from './helpers';
import { E2E_ADMIN } from '../setup/e2e-env';

async function payWithCard(page: Page) {
  const form = page.getByRole('form', { name: 'Card payment' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: /^Pay \$/ }).click();
}

test('the checkout charges what it shows, to the cent, and shows a changed price before paying', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const title = uniqueTitle('Cents');
  const video = await createLinkVideo(capper, { title, price: 9.99, selections: 'Celtics ML' });
  await registerAndLogin(page);

  await page.goto(`/checkout/${video.id}`);
  await expect(page.getByTestId('order-price')).toHaveText('$9.99');
  await expect(page.getByTestId('order-total')).toHaveText('$9.99');

  // The capper raises the price while the buyer is on the page: the old intent is canceled.
  const raise = await capper.api.patch(`/api/videos/${video.id}`, { data: { price: 12.5 } });
  expect(raise.status(), await raise.text()).toBe(200);
  await payWithCard(page);
  const notice = page.getByTestId('price-changed');
  await expect(notice).toHaveAttribute('role', 'alert');
  await expect(notice).toContainText(PRICE_CHANGED_BEFORE_PAYMENT);
  expect(await (await page.request.get('/api/user/purchases')).json()).toEqual([]);

  await notice.getByRole('button', { name: 'Review the new price' }).click();
  await expect(page.getByTestId('order-price')).toHaveText('$12.50');
  await expect(page.getByTestId('order-total')).toHaveText('$12.50');
  await payWithCard(page);
  await expect(page).toHaveURL(`/video/${video.id}#your-selections`);
  const purchases = (await (await page.request.get('/api/user/purchases')).json()) as { amount: number }[];
  expect(purchases.map((purchase) => purchase.amount)).toEqual([12.5]);
});

test('a refunded payment is explained at checkout and listed under the purchases', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const title = uniqueTitle('Refunded');
  const video = await createLinkVideo(capper, { title, price: 9.99, selections: 'Knicks +4' });
  await registerAndLogin(page);
  const message = refundMessage('price_changed', 999);
  await page.route('**/api/payment-complete', (route) =>
    route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ message }) }),
  );
  const refund: Refund = {
    paymentIntentId: 'pi_sandbox_refunded',
    videoId: video.id,
    videoTitle: title,
    amount: 9.99,
    reason: 'price_changed',
    message,
    refundedAt: new Date().toISOString(),
  };
  await page.route('**/api/user/refunds', (route) => route.fulfill({ json: [refund] }));

  await page.goto(`/checkout/${video.id}`);
  await payWithCard(page);
  const refunded = page.getByTestId('payment-refunded');
  await expect(refunded).toHaveAttribute('role', 'alert');
  await expect(refunded).toContainText(
    'The price of this pick changed while you were paying. Your payment of $9.99 has been refunded; please review the new price.',
  );

  await refunded.getByRole('link', { name: 'View your purchases' }).click();
  await expect(page).toHaveURL('/dashboard?tab=purchased');
  const list = page.getByRole('region', { name: 'Refunded payments' });
  await expect(list).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText(title);
  await expect(list.getByRole('listitem')).toContainText('$9.99 refunded');
  await expect(list.getByRole('listitem')).toContainText('The price changed while you were paying');
});

test('the admin reads refunds and bonus changes in the Audit log tab, on a phone too', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const admin = await adminApi(playwright, { baseURL, extraHTTPHeaders });
  // A real entry: the admin gives the capper a bonus.
  const bonus = await admin.patch(`/api/admin/users/${capper.id}/earnings`, { data: { manualEarnings: 25 } });
  expect(bonus.status(), await bonus.text()).toBe(200);
  // And an automatic refund, as the server writes it, on top of the real first page.
  const title = uniqueTitle('Twice bought');
  const refundEntry: AuditEntry = {
    id: 999_999_999,
    actorId: null,
    actorUsername: null,
    action: 'payment.refund',
    targetType: 'video',
    targetId: 4242,
    before: { status: 'succeeded' },
    after: {
      status: 'refunded',
      paymentIntentId: 'pi_sandbox_twice',
      provider: 'sandbox',
      buyerId: 7,
      videoTitle: title,
      amountCents: 999,
      reason: 'already_owned',
    },
    createdAt: new Date().toISOString(),
  };
  await page.route('**/api/admin/audit-log?*', async (route) => {
    const real = (await (await route.fetch()).json()) as AuditLogPage;
    const offset = new URL(route.request().url()).searchParams.get('offset');
    if (offset !== '0') return route.fulfill({ json: real });
    await route.fulfill({ json: { total: real.total + 1, entries: [refundEntry, ...real.entries] } });
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await loginViaApi(page, E2E_ADMIN);
  await page.goto('/admin');
  const tab = page.getByRole('tab', { name: 'Audit log' });
  const box = await tab.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  // Keyboard: the tabs are a Radix tab list, arrows move between them.
  await page.getByRole('tab', { name: 'Users' }).focus();
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Mail' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(tab).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/admin?tab=audit');
  await expect(page.getByRole('tab', { name: 'Audit log', selected: true })).toBeVisible();

  const table = page.getByRole('table', { name: /^Audit log, page 1 of \d+$/ });
  await expect(table.getByRole('columnheader')).toHaveText(['What', 'Who', 'Target', 'Details', 'When']);
  const refundRow = table.getByRole('row').filter({ hasText: title });
  await expect(refundRow.getByRole('rowheader')).toHaveText('Automatic refund');
  await expect(refundRow).toContainText('PickReel (automatic)');
  await expect(refundRow).toContainText('Video #4242');
  await expect(refundRow).toContainText('status');
  await expect(refundRow).toContainText('succeeded → refunded');
  await expect(refundRow).toContainText('$9.99');
  await expect(refundRow).toContainText('You already owned this pick');

  const bonusRow = table
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'Bonus changed' }) })
    .filter({ hasText: `User #${capper.id}` });
  await expect(bonusRow).toContainText(E2E_ADMIN.username);
  await expect(bonusRow).toContainText('$0.00 → $25.00');
  // The table scrolls inside its own region; the page itself never gets wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await admin.dispose();
});
