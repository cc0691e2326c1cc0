// Phones and layout: no page scrolls sideways on a phone, 320 to 390 px wide. Every route of the
// client router (app/routes.tsx), as the visitor, the bettor, the capper and the admin see it, with the data
// that makes a page widest: an e-mail and no phone in the users table, a decided payout ('None' actions).
import type { Page } from '@playwright/test';
import { E2E_ADMIN } from '../setup/e2e-env';
import { expect, test } from './fixtures';
import { loginViaApi, newCredentials } from './helpers';
import { adminApi, buyViaApi, createLinkVideo, newAccount, uniqueTitle, type Account } from './money-helpers';

const WIDTHS = [390, 320] as const;

/** The page's elements that reach past the right edge, innermost first: what to look at when this fails. */
function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const edge = document.documentElement.clientWidth + 0.5;
    const past = (element: Element) => element.getBoundingClientRect().right > edge;
    return [...document.body.querySelectorAll('*')]
      .filter((element) => past(element) && ![...element.children].some(past))
      .slice(0, 5)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}">`);
  });
}

/** The page has loaded what it shows: no page spinner, nothing busy, no request in flight. */
async function settle(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('page-spinner')).toHaveCount(0);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
}

async function expectNoSidewaysScroll(page: Page, path: string): Promise<void> {
  await page.setViewportSize({ width: WIDTHS[0], height: 844 });
  await page.goto(path);
  await settle(page);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    // What stays after the resize is judged: a chart takes its box's new width a moment later (its
    // ResizeObserver), so right after it the page can still be the old width (353 px at 320, in one CI run).
    await expect
      .poll(
        () =>
          page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        {
          timeout: 3000,
        },
      )
      .toBeLessThanOrEqual(0)
      .catch(() => undefined); // judged, with the elements past the edge, just below
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    // Soft: one run lists every page that scrolls, not only the first.
    expect
      .soft(
        scrollWidth,
        `${path} at ${width} px scrolls sideways; past the edge: ${(await overflowingElements(page)).join(', ')}`,
      )
      .toBeLessThanOrEqual(clientWidth);
  }
}

/** A capper with an e-mail and no phone, two videos, a sale, and a payout the admin has already paid. */
async function capperWithHistory(
  playwright: Parameters<typeof newAccount>[0],
  options: Parameters<typeof newAccount>[1],
): Promise<{ capper: Account; buyer: Account; sold: { id: number }; unsold: { id: number } }> {
  const api = await playwright.request.newContext(options);
  const credentials = newCredentials('capper');
  const registered = await api.post('/api/register', {
    data: { ...credentials, email: `${credentials.username}@example.com`, phoneNumber: '' },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const capper: Account = { api, credentials, id: ((await registered.json()) as { id: number }).id };

  const sold = await createLinkVideo(capper, {
    title: uniqueTitle('Lakers at Celtics, the full card and the one number we like most'),
    price: 25,
    selections: 'Lakers +4.5 (2 units)\nOver 220.5 (1 unit)',
  });
  const unsold = await createLinkVideo(capper, {
    title: uniqueTitle('Sunday slate'),
    price: 9.99,
    selections: 'x',
  });
  const buyer = await newAccount(playwright, options, 'buyer');
  await buyViaApi(buyer, sold.id);

  const admin = await adminApi(playwright, options);
  const bonus = await admin.patch(`/api/admin/users/${capper.id}/earnings`, { data: { manualEarnings: 50 } });
  expect(bonus.status(), await bonus.text()).toBe(200);
  const request = await capper.api.post('/api/payout-request', {
    data: { amount: 10, paymentMethod: 'paypal', accountDetails: `${credentials.username}@example.com` },
  });
  expect(request.status(), await request.text()).toBe(201);
  const { id: payoutId } = (await request.json()) as { id: number };
  const paid = await admin.patch(`/api/admin/payouts/${payoutId}`, { data: { status: 'paid' } });
  expect(paid.status(), await paid.text()).toBe(200);
  await admin.dispose();
  return { capper, buyer, sold, unsold };
}

test('no page scrolls sideways at 320 and 390 px, signed out, in, or as the admin', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(180_000);
  const { capper, buyer, sold, unsold } = await capperWithHistory(playwright, { baseURL, extraHTTPHeaders });

  for (const path of [
    '/',
    '/videos',
    '/videos?q=Lakers',
    `/video/${sold.id}`,
    '/video/999999999',
    '/auth',
    '/auth?tab=register',
    '/no-such-page',
  ]) {
    await expectNoSidewaysScroll(page, path);
  }

  await loginViaApi(page, buyer.credentials);
  for (const path of [
    `/video/${sold.id}`,
    `/video/${unsold.id}`,
    `/checkout/${unsold.id}`,
    '/dashboard',
    '/dashboard?tab=uploads',
    '/upload',
  ]) {
    await expectNoSidewaysScroll(page, path);
  }

  await loginViaApi(page, capper.credentials);
  for (const path of [
    `/video/${sold.id}`,
    `/edit-video/${sold.id}`,
    '/dashboard?tab=uploads',
    '/dashboard/analytics',
  ]) {
    await expectNoSidewaysScroll(page, path);
  }

  await loginViaApi(page, E2E_ADMIN);
  for (const path of [
    '/admin',
    '/admin?tab=videos',
    '/admin?tab=payouts',
    '/admin?tab=audit',
    `/video/${unsold.id}`,
    `/edit-video/${unsold.id}`,
  ]) {
    await expectNoSidewaysScroll(page, path);
  }
  await Promise.all([capper.api.dispose(), buyer.api.dispose()]);
});
