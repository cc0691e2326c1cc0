// Money in the browser: checkout with the sandbox provider's test cards, the purchase card and
// its selections, the dashboard's tiles and tabs, payouts against the ledger, and the analytics page.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { mediaFixture } from '../setup/media-fixtures';
import { E2E_SUPPORT_PHONE } from '../setup/e2e-env';
import { expect, test } from './fixtures';
import { loginViaApi, mediaUrl, registerAndLogin, toasts } from './helpers';
import {
  adminApi,
  buyViaApi,
  createFileVideo,
  createLinkVideo,
  newAccount,
  waitUntilPlayable,
  uniqueTitle,
} from './money-helpers';

async function payWithCard(page: Page, number: string) {
  const form = page.getByRole('form', { name: 'Card payment' });
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: /^Pay \$/ }).click();
}

/** Embedded players are third-party pages: the offline test machine answers for them. */
async function stubEmbeds(page: Page) {
  await page.route(/^https:\/\/(www\.youtube-nocookie\.com|player\.vimeo\.com)\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>player</title><p>player</p>' }),
  );
}

test('a bettor buys a video with 4242 and finds its selections on the purchase card', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  // Pays, lands on the pick, then the dashboard, the video page and the capper's: more than one page's budget.
  test.slow();
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const title = uniqueTitle('Lakers preview');
  const selections = 'Lakers -4.5 (2 units)\nOver 221.5 (1 unit)';
  const video = await createLinkVideo(capper, { title, price: 12, selections });
  await registerAndLogin(page);
  await stubEmbeds(page);

  await page.goto(`/checkout/${video.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await expect(page.getByText('Sandbox — no real charge')).toBeVisible();
  const summary = page.getByTestId('order-summary');
  await expect(page.getByTestId('order-title')).toHaveText(title);
  // The amount charged, to the cent (docs/product-decisions.md 'Money'); cards keep whole dollars.
  await expect(summary).toContainText('Price$12.00');
  await expect(summary).toContainText('Tax$0.00');
  await expect(summary).toContainText('Total$12.00');
  await expect(page.getByRole('heading', { name: "What you'll get" })).toBeVisible();
  await expect(page.getByText('Lifetime product ownership')).toBeVisible();

  // The number is shown in groups of four as it is typed.
  const number = page.getByLabel('Card number');
  await number.fill('4242424242424242');
  await expect(number).toHaveValue('4242 4242 4242 4242');
  await payWithCard(page, '4242 4242 4242 4242');

  await expect(toasts(page).filter({ hasText: 'Payment successful!' })).toContainText(
    'Thank you for purchasing this product.',
  );
  // Straight to the pick, its selections at the top with the heading focused; the purchase is on the dashboard.
  await expect(page).toHaveURL(`/video/${video.id}#your-selections`);
  await expect(page.getByRole('heading', { name: 'Your selections' })).toBeFocused();
  await expect(page.getByTestId('your-selections-text')).toHaveText(selections);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 2, name: 'Your purchases' })).toBeVisible();
  await expect(page.getByTestId('purchases-count')).toHaveText('1');

  const card = page.getByRole('article', { name: title });
  await expect(card).toContainText('Purchased');
  await expect(card).toContainText('$12');
  await expect(card.getByRole('link', { name: title })).toHaveAttribute('href', `/video/${video.id}`);

  await card.getByRole('button', { name: 'Digital Product Information' }).click();
  await expect(card.getByText('External video hosted on a third-party platform (YouTube)')).toBeVisible();
  await expect(card.getByText('Premium')).toBeVisible();

  await card.getByRole('button', { name: 'View Cappers Selections' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cappers Selections' });
  await expect(dialog.getByTestId('selections-text')).toHaveText(selections);
  await expect(dialog).toContainText('Not specified'); // a link has no duration
  await expect(dialog.getByRole('link', { name: 'View Video Details' })).toHaveAttribute(
    'href',
    `/video/${video.id}`,
  );
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toHaveCount(0);

  // Inline playback: the YouTube link embeds an autoplaying player; Stop returns to the thumbnail.
  await card.getByRole('button', { name: `Play ${title}` }).click();
  const frame = card.locator('iframe');
  await expect(frame).toHaveAttribute(
    'src',
    /^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ\?autoplay=1/,
  );
  await card.getByRole('button', { name: 'Stop' }).click();
  await expect(frame).toHaveCount(0);
  await expect(card.getByRole('button', { name: `Play ${title}` })).toBeFocused();

  // The video page shows the same selections to the buyer.
  await card.getByRole('button', { name: 'View Cappers Selections' }).click();
  await dialog.getByRole('link', { name: 'View Video Details' }).click();
  await expect(page).toHaveURL(`/video/${video.id}`);
  await expect(page.getByRole('region', { name: 'Winning Selections' })).toContainText(
    'Lakers -4.5 (2 units)',
  );
  await expect(page.getByRole('region', { name: 'Winning Selections' })).toContainText('Over 221.5 (1 unit)');

  // Bought once, it cannot be bought again; the capper has earned the sale.
  await page.goto(`/checkout/${video.id}`);
  await expect(page.getByRole('heading', { name: 'Error' })).toBeVisible();
  await expect(page.getByText('You have already purchased this video.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  const earnings = await (await capper.api.get('/api/user/earnings')).json();
  expect(earnings).toMatchObject({ sales: 12, salesCount: 1, total: 12, available: 12 });
});

test('a declined card shows the provider message and records nothing', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const video = await createLinkVideo(capper, {
    title: uniqueTitle('Declined'),
    price: 9,
    selections: 'Secret',
  });
  await registerAndLogin(page);
  await page.goto(`/checkout/${video.id}`);

  await payWithCard(page, '4000 0000 0000 0002');
  await expect(toasts(page).filter({ hasText: 'Payment failed' })).toContainText('Your card was declined.');
  await expect(page.getByTestId('payment-error')).toHaveText('Your card was declined.');
  await expect(page).toHaveURL(`/checkout/${video.id}`);
  await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeEnabled();

  await payWithCard(page, '4000 0000 0000 9995');
  await expect(page.getByTestId('payment-error')).toHaveText('Your card has insufficient funds.');

  expect(await (await page.request.get('/api/user/purchases')).json()).toEqual([]);
  expect(await (await page.request.get(`/api/videos/${video.id}/purchased`)).json()).toEqual({
    purchased: false,
  });
  expect(await (await capper.api.get('/api/user/sales')).json()).toEqual([]);

  // An incomplete card never reaches the provider.
  await page.getByLabel('Card number').fill('4242');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByText('Your card number is incomplete.')).toBeVisible();
  await expect(page.getByLabel('Card number')).toBeFocused();
});

test('checkout explains a missing video and refuses the capper their own', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  await registerAndLogin(page);
  await page.goto('/checkout/987654321');
  await expect(page.getByRole('heading', { name: 'Video Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go Back Home' }).click();
  await expect(page).toHaveURL('/');

  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const video = await createLinkVideo(capper, { title: uniqueTitle('Own'), price: 5, selections: 'Mine' });
  await loginViaApi(page, capper.credentials);
  await page.goto(`/checkout/${video.id}`);
  await expect(page.getByRole('heading', { name: 'Error' })).toBeVisible();
  await expect(page.getByText('You cannot buy your own video.')).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL('/');
});

test('a capper requests a payout and sees the balance drop', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const buyer = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'bettor');
  const title = uniqueTitle('Payout');
  const video = await createLinkVideo(capper, { title, price: 20, selections: 'Pick' });
  await buyViaApi(buyer, video.id);
  // An admin's manual earnings show as the Bonus line.
  const admin = await adminApi(playwright, { baseURL, extraHTTPHeaders });
  const bonus = await admin.patch(`/api/admin/users/${capper.id}/earnings`, { data: { manualEarnings: 10 } });
  expect(bonus.status(), await bonus.text()).toBe(200);

  await loginViaApi(page, capper.credentials);
  await page.goto('/dashboard');
  const tile = page.getByRole('region', { name: 'Earnings' });
  await expect(page.getByTestId('earnings-total')).toHaveText('$30.00');
  await expect(tile).toContainText('Sales$20.00');
  await expect(tile).toContainText('Bonus$10.00');
  await expect(page.getByTestId('earnings-available')).toHaveText('$30.00');
  // The capper's own video is under Your Uploads, on the catalog's card with the owner's badge.
  await expect(page.getByTestId('uploads-count')).toHaveText('1');
  await page.getByRole('tab', { name: 'Your Uploads' }).click();
  await expect(page.getByRole('article', { name: title })).toContainText('Your Video');

  await tile.getByRole('button', { name: 'Request Payout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request Payout' });
  await expect(dialog).toContainText(`After submitting, please text ${E2E_SUPPORT_PHONE}`);
  await expect(dialog.getByLabel('Payment method')).toHaveValue('paypal');
  const amount = dialog.getByLabel('Amount ($)');
  await expect(amount).toHaveAttribute('max', '30');
  await expect(amount).toHaveAttribute('min', '1');
  await expect(amount).toHaveAttribute('step', '0.01');

  await dialog.getByRole('button', { name: 'Submit Request' }).click();
  await expect(dialog.getByText('Amount is required')).toBeVisible();
  await expect(dialog.getByText('Please provide sufficient payment account details')).toBeVisible();

  await amount.fill('30.01');
  await dialog.getByLabel('Account details').fill('@capper-on-venmo');
  await dialog.getByRole('button', { name: 'Submit Request' }).click();
  await expect(
    dialog.getByText('Invalid amount: You cannot request more than your available earnings.'),
  ).toBeVisible();

  // The fee and what the capper receives, before submitting.
  await amount.fill('12.50');
  await expect(dialog.getByTestId('payout-net')).toHaveText('$11.25');
  await expect(dialog).toContainText('Processing fee (10%)−$1.25');
  await dialog.getByLabel('Payment method').selectOption('venmo');
  await dialog.getByRole('button', { name: 'Submit Request' }).click();

  await expect(toasts(page).filter({ hasText: 'Payout request submitted' })).toContainText(
    'Your payout request has been submitted successfully. Our team will process it shortly.',
  );
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('earnings-available')).toHaveText('$17.50');
  const requests = page.getByRole('region', { name: 'Payout requests' });
  await expect(requests.getByRole('row')).toHaveCount(2);
  await expect(requests.getByRole('row').nth(1)).toContainText('$12.50');
  await expect(requests.getByRole('row').nth(1)).toContainText('$11.25');
  await expect(requests.getByRole('row').nth(1)).toContainText('Venmo');
  await expect(requests.getByRole('row').nth(1)).toContainText('Pending');

  // Reopened, the form starts afresh; the server's ledger refuses what the balance no longer covers.
  await tile.getByRole('button', { name: 'Request Payout' }).click();
  await expect(dialog.getByLabel('Amount ($)')).toHaveValue('');
  await expect(dialog.getByLabel('Account details')).toHaveValue('');
  await expect(dialog.getByLabel('Amount ($)')).toHaveAttribute('max', '17.5');

  // Meanwhile another request (another tab) takes $10: the server's ledger refuses what is left uncovered.
  const other = await capper.api.post('/api/payout-request', {
    data: { amount: 10, paymentMethod: 'paypal', accountDetails: 'capper@example.com' },
  });
  expect(other.status(), await other.text()).toBe(201);
  await dialog.getByLabel('Amount ($)').fill('15');
  await dialog.getByLabel('Account details').fill('capper@example.com');
  await dialog.getByRole('button', { name: 'Submit Request' }).click();
  // The toast sits outside the modal dialog, hidden from the accessibility tree while it is open.
  await expect(page.getByText('Error submitting payout request', { exact: true })).toBeVisible();
  await expect(
    dialog.getByText('Invalid amount: You cannot request more than your available earnings.'),
  ).toBeVisible();
  await expect(dialog.getByLabel('Amount ($)')).toBeFocused();
  await expect(dialog.getByLabel('Amount ($)')).toHaveAttribute('max', '7.5');
  await expect(page.getByTestId('earnings-available')).toHaveText('$7.50');
});

test('the dashboard tabs follow ?tab= and show their empty states', async ({ page }) => {
  await registerAndLogin(page);
  // Someone who never uploaded sees their purchases first, without a capper's empty tiles.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Your purchases' })).toBeVisible();
  await expect(page.getByText('No purchased products')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse Marketplace' })).toHaveAttribute('href', '/');
  await expect(page.getByTestId('uploads-count')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Upload a pick' })).toHaveAttribute('href', '/upload');

  // ?tab=uploads opens the capper's tabs and tiles; their Purchases tab is the bettor's view again.
  await page.goto('/dashboard?tab=uploads');
  await expect(page.getByRole('tab', { name: 'Your Uploads' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('uploads-count')).toHaveText('0');
  await page.getByRole('tab', { name: 'Your Purchases' }).click();
  await expect(page).toHaveURL('/dashboard?tab=purchased');
  await expect(page.getByRole('heading', { level: 2, name: 'Your purchases' })).toBeVisible();
  await expect(page.getByText('No purchased products')).toBeVisible();
  await page.goto('/dashboard?tab=uploads');
  await expect(page.getByTestId('earnings-total')).toHaveText('$0.00');
  await expect(page.getByRole('button', { name: 'Request Payout' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Upload New Video' })).toHaveAttribute('href', '/upload');

  await page.getByRole('tab', { name: 'Your Uploads' }).click();
  await expect(page).toHaveURL('/dashboard?tab=uploads');
  await expect(page.getByText('No videos uploaded yet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upload Your First Video' })).toHaveAttribute(
    'href',
    '/upload',
  );

  await page.reload();
  await expect(page.getByRole('tab', { name: 'Your Uploads' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('link', { name: 'View analytics' }).click();
  await expect(page).toHaveURL('/dashboard/analytics');
  await expect(page.getByText('No videos uploaded yet, so there is nothing to measure.')).toBeVisible();
});

test('analytics shows sales and views over time and per video, by day or by week', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const buyer = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'bettor');
  const title = uniqueTitle('Analytics');
  const video = await createLinkVideo(capper, { title, price: 15, selections: 'Pick' });
  await buyer.api.post(`/api/videos/${video.id}/view`);
  await buyViaApi(buyer, video.id);

  await loginViaApi(page, capper.credentials);
  await page.goto('/dashboard/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Daily' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('img', { name: /^Sales \(count\)/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Sales amount .*Total \$15\.00/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Views .*Total 1 view\./ })).toBeVisible();

  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row.getByRole('cell')).toHaveText(['1', '1', '$15.00', '100.0%']);

  await page.getByRole('button', { name: 'Show the numbers as a table' }).click();
  await expect(page.getByRole('table', { name: 'Sales, sales amount and views per period' })).toBeVisible();

  await page.getByRole('button', { name: 'Weekly' }).click();
  await expect(page).toHaveURL('/dashboard/analytics?range=week');
  await expect(page.getByRole('heading', { name: 'Over the last 12 weeks' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Sales \(count\) 12 periods/ })).toBeVisible();
});

test('the home page does not download checkout, dashboard or Stripe code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: "Today's Picks" })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => /checkout|dashboard|analytics|stripe|payout/i.test(url))).toEqual([]);
});

test('a purchased upload plays inline with pause, resume, mute and stop', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const buyer = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'bettor');
  const title = uniqueTitle('Upload to buy');
  const video = await createFileVideo(capper, { title, price: 7, selections: 'Over 44.5' });
  await waitUntilPlayable(capper, video.id);
  await buyViaApi(buyer, video.id);

  await loginViaApi(page, buyer.credentials);
  await page.goto('/dashboard');
  const card = page.getByRole('article', { name: title });
  await expect(card).toContainText('0:02'); // the duration overlay, probed by the server
  await card.getByRole('button', { name: `Play ${title}` }).click();
  const player = card.locator('video');
  await expect(player).toHaveAttribute('src', mediaUrl(video.id, 'video.mp4'));
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.2);

  await card.getByRole('button', { name: 'Pause' }).click();
  await expect(card.getByRole('button', { name: 'Resume' })).toBeVisible();
  expect(await player.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  const mute = card.getByRole('button', { name: 'Mute' });
  const wasMuted = (await mute.getAttribute('aria-pressed')) === 'true';
  await mute.click();
  await expect(mute).toHaveAttribute('aria-pressed', String(!wasMuted));
  expect(await player.evaluate((v: HTMLVideoElement) => v.muted)).toBe(!wasMuted);
  await card.getByRole('button', { name: 'Resume' }).click();
  await expect(card.getByRole('button', { name: 'Pause' })).toBeVisible();

  await card.getByRole('button', { name: 'Stop' }).click();
  await expect(player).toHaveCount(0);
  await card.getByRole('button', { name: 'View Cappers Selections' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cappers Selections' });
  await expect(dialog.getByTestId('selections-text')).toHaveText('Over 44.5');
  await expect(dialog).toContainText('0:02');
  await expect(dialog).toContainText('video.mp4');
});

test('a buyer downloads the original upload from the purchase card and the video page', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const buyer = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'bettor');
  const stranger = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'stranger');
  const title = uniqueTitle('Original to download');
  const video = await createFileVideo(capper, { title, price: 6, selections: 'Under 210' });
  const original = readFileSync(mediaFixture('h264Mov'));
  await waitUntilPlayable(capper, video.id);

  // Before buying there is nothing to download, in the page or in the API.
  await loginViaApi(page, stranger.credentials);
  await page.goto(`/video/${video.id}`);
  // Other videos may be listed under this one: look at this video's own buy box.
  const buyBox = page.getByRole('complementary', { name: 'Buy and share' });
  await expect(buyBox.getByRole('link', { name: 'Buy Winners' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download original' })).toHaveCount(0);
  expect(await (await stranger.api.get(`/api/videos/${video.id}`)).json()).not.toHaveProperty('originalUrl');

  await buyViaApi(buyer, video.id);
  await page.context().clearCookies();
  await loginViaApi(page, buyer.credentials);
  await page.goto('/dashboard?tab=purchased');
  const card = page.getByRole('article', { name: title });
  const fromCard = page.waitForEvent('download');
  await card.getByRole('link', { name: 'Download original' }).click();
  const download = await fromCard;
  expect(download.suggestedFilename()).toMatch(/^Original-to-download-[a-z0-9]+\.mov$/);
  expect(readFileSync((await download.path())!).equals(original)).toBe(true);

  await page.goto(`/video/${video.id}`);
  await expect(buyBox.getByRole('link', { name: 'Download original' })).toHaveAttribute(
    'href',
    `/media/videos/${video.id}/original.mov`,
  );
});

test('a purchased Vimeo link plays in an autoplaying embed', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const buyer = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'bettor');
  const title = uniqueTitle('Vimeo');
  const video = await createLinkVideo(capper, {
    title,
    price: 4,
    selections: 'Under 8.5',
    externalVideoUrl: 'https://vimeo.com/76979871',
  });
  await buyViaApi(buyer, video.id);
  await stubEmbeds(page);
  await loginViaApi(page, buyer.credentials);
  await page.goto('/dashboard?tab=purchased');
  const card = page.getByRole('article', { name: title });
  await card.getByRole('button', { name: `Play ${title}` }).click();
  await expect(card.locator('iframe')).toHaveAttribute(
    'src',
    'https://player.vimeo.com/video/76979871?autoplay=1&playsinline=1',
  );
  await expect(card.locator('iframe')).toHaveAttribute('allow', /autoplay/);
});

test('a purchase outlives its deleted video: title, price, date and selections stay', async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const buyer = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'bettor');
  const title = uniqueTitle('Deleted later');
  const video = await createLinkVideo(capper, { title, price: 6, selections: 'Chiefs ML' });
  await buyViaApi(buyer, video.id);
  const removed = await capper.api.delete(`/api/videos/${video.id}`);
  expect(removed.status(), await removed.text()).toBe(200);

  await loginViaApi(page, buyer.credentials);
  await page.goto('/dashboard');
  const card = page.getByRole('article', { name: title });
  await expect(card).toContainText('The capper has removed this video.');
  await expect(card).toContainText('$6');
  await expect(card.getByRole('button', { name: /^Play / })).toHaveCount(0);
  await expect(card.getByRole('link', { name: title })).toHaveCount(0);
  await card.getByRole('button', { name: 'View Cappers Selections' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cappers Selections' });
  await expect(dialog.getByTestId('selections-text')).toHaveText('Chiefs ML');
  await expect(dialog.getByRole('link', { name: 'View Video Details' })).toHaveCount(0);
});

test.describe('when the server fails', () => {
  // These tests make the server answer 500 on purpose; Chromium logs each such response.
  test.use({ allowedConsoleErrors: /the server responded with a status of 500/ });

  test('a payment that cannot be set up shows the Error box', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
    const video = await createLinkVideo(capper, {
      title: uniqueTitle('No intent'),
      price: 3,
      selections: 'X',
    });
    await registerAndLogin(page);
    await page.route('**/api/create-payment-intent', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto(`/checkout/${video.id}`);
    await expect(page.getByRole('heading', { name: 'Error' })).toBeVisible();
    await expect(page.getByText('Failed to initialize payment')).toBeVisible();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL('/');
  });

  test('a payment whose recording fails says so, and recording again completes it', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
    const title = uniqueTitle('Record later');
    const video = await createLinkVideo(capper, { title, price: 8, selections: 'Nuggets -3' });
    await registerAndLogin(page);
    await page.route('**/api/payment-complete', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto(`/checkout/${video.id}`);
    await payWithCard(page, '4242 4242 4242 4242');
    await expect(toasts(page).filter({ hasText: 'Error' })).toContainText(
      'Payment processed but there was an error recording your purchase',
    );
    await expect(page.getByRole('alert')).toContainText('you will not be charged twice');
    // The sandbox recorded it on confirmation already, as Stripe's webhook would: nothing is lost.
    expect(await (await page.request.get('/api/user/purchases')).json()).toHaveLength(1);

    await page.unroute('**/api/payment-complete');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page).toHaveURL(`/video/${video.id}#your-selections`);
    await expect(page.getByTestId('your-selections-text')).toHaveText('Nuggets -3');
    await page.goto('/dashboard');
    await expect(page.getByRole('article', { name: title })).toBeVisible();
  });
});
