// The checkout as a bettor trusts it: the Pay button says the amount the card is charged and every amount on
// the page is that charge; on a phone the order summary comes before the card form; "What you'll get" says
// what is true for this pick (sealed legs, graded, verifiable; a file to download or none for a link;
// unverified without legs); a graded pick is never sold, only read free; axe finds nothing.
import { createRequire } from 'node:module';
import type { APIRequestContext, Page } from '@playwright/test';
import { formatUnits } from '#common/pick-grading.js';
import type { Video } from '#common/schemas/videos.js';
import { uniqueTitle, uploadMovVideo, createLinkVideo } from './catalog-helpers';
import { registerAndLogin } from './helpers';
import {
  expect,
  finishMarketGame,
  marketGame,
  marketLeg,
  test,
  untilCatalogSays,
  type MarketTestGame,
} from './market-helpers';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const AXE_URL_PATH = '/__checkout-exact/axe.min.js';
const PHONE = { width: 390, height: 844 };
const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);

/** A verified pick (one leg, the home moneyline) on `game`, at `price` dollars. */
async function postPickAt(api: APIRequestContext, title: string, game: MarketTestGame, price: string) {
  const res = await api.post('/api/videos', {
    multipart: {
      title,
      description: 'Why the line is off, explained.',
      emailInformation: 'The home side, 1 unit',
      price,
      category: game.league,
      isPremium: 'true',
      duration: '95',
      isExternalVideo: 'true',
      externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      legs: JSON.stringify([marketLeg(game)]),
      parlay: 'false',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Video;
}

/** Opens the checkout and waits for the payment intent: the amount the card will be charged. */
async function openCheckout(page: Page, videoId: number): Promise<number> {
  const intent = page.waitForResponse((response) => response.url().endsWith('/api/create-payment-intent'));
  await page.goto(`/checkout/${videoId}`);
  const answer = await intent;
  expect(answer.status(), await answer.text()).toBe(200);
  const { amount } = (await answer.json()) as { amount: number };
  await expect(page.getByRole('form', { name: 'Card payment' })).toBeVisible();
  return amount;
}

/** Every dollar amount written in the page's main content. */
async function amountsOnPage(page: Page): Promise<string[]> {
  const text = await page.locator('main').innerText();
  return text.match(/\$\d[\d,]*(?:\.\d\d)?/g) ?? [];
}

/** axe-core from npm, served from the page's own origin (the CSP refuses an inline script). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.route(`**${AXE_URL_PATH}`, (route) =>
    route.fulfill({ path: AXE_PATH, contentType: 'text/javascript' }),
  );
  await page.waitForLoadState('networkidle');
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ url: new URL(AXE_URL_PATH, page.url()).href });
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        run: (
          context: Document,
          options: object,
        ) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(' | ')})`,
    );
  });
}

test('the Pay button names the charge, every amount equals it, and a verified pick says what it gives', async ({
  page,
  newUser,
  adminApi,
}) => {
  const game = await marketGame(adminApi, inHours(6));
  const capper = await newUser();
  const video = await postPickAt(capper.api, uniqueTitle('Exact money'), game, '9.99');
  await registerAndLogin(page);

  const amount = await openCheckout(page, video.id);
  expect(amount).toBe(9.99);
  const form = page.getByRole('form', { name: 'Card payment' });
  await expect(form.getByRole('button', { name: 'Pay $9.99' })).toBeEnabled();
  await expect(page.getByTestId('order-price')).toHaveText('$9.99');
  await expect(page.getByTestId('order-total')).toHaveText('$9.99');
  // Every amount on the page is the charge, but the tax line's zero.
  const amounts = await amountsOnPage(page);
  expect(amounts.filter((a) => a !== '$0.00')).toEqual(['$9.99', '$9.99', '$9.99']);
  expect(amounts.filter((a) => a === '$0.00')).toHaveLength(1);

  const get = page.getByTestId('what-you-get');
  await expect(get.getByRole('heading', { name: "What you'll get" })).toBeVisible();
  await expect(get.getByTestId('get-legs')).toHaveText(
    "Its 1 sealed leg and the capper's written selections, revealed to you at once after paying",
  );
  await expect(get.getByTestId('get-graded')).toHaveText('Graded automatically from the games’ final scores');
  await expect(get.getByTestId('get-verify')).toContainText('its commitment is in the public log');
  await expect(get.getByRole('link', { name: 'How to check it' })).toHaveAttribute('href', '/log');
  // A verified pick is not "unverified", and this one is a link: no download promised.
  await expect(get.getByTestId('get-unverified')).toHaveCount(0);
  await expect(get.getByTestId('get-media')).toHaveText(
    'The preview is a link to another site: there is no video file to download',
  );
  await expect(get).not.toContainText(/direct download/i);
});

test("What you'll get: a file video's original to download, a link's none, and unverified without legs", async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const file = await uploadMovVideo(capper.api, { title: uniqueTitle('File offer'), price: 12.5 });
  const link = await createLinkVideo(capper.api, { title: uniqueTitle('Link offer'), price: 7 });
  await registerAndLogin(page);

  expect(await openCheckout(page, file.id)).toBe(12.5);
  await expect(page.getByRole('button', { name: 'Pay $12.50' })).toBeVisible();
  const get = page.getByTestId('what-you-get');
  await expect(get.getByTestId('get-media')).toHaveText('The original video file, to download');
  await expect(get.getByTestId('get-selections')).toHaveText(
    "The capper's written selections, shown at once after paying",
  );
  await expect(get.getByTestId('get-unverified')).toHaveText(
    'Unverified: self-reported by the capper, not sealed and not graded, never counted in a record',
  );
  await expect(get.getByTestId('get-legs')).toHaveCount(0);

  expect(await openCheckout(page, link.id)).toBe(7);
  await expect(page.getByRole('button', { name: 'Pay $7' })).toBeVisible();
  await expect(get.getByTestId('get-media')).toHaveText(
    'The preview is a link to another site: there is no video file to download',
  );
  await expect(get).not.toContainText(/direct download/i);
  await expect(get.getByTestId('get-unverified')).toBeVisible();
});

test('a graded pick is never sold: its checkout shows the result and links to read it free, no card form', async ({
  page,
  newUser,
  adminApi,
}) => {
  const game = await marketGame(adminApi, inHours(6));
  const capper = await newUser();
  const video = await postPickAt(capper.api, uniqueTitle('Decided'), game, '9.99');
  await finishMarketGame(adminApi, game, { home: 24, away: 17 });
  await untilCatalogSays(adminApi, video.id, 'graded');
  const graded = (await (await adminApi.get(`/api/videos/${video.id}`)).json()) as Video;
  expect(graded.pick).toMatchObject({ status: 'graded', result: 'win' });
  await registerAndLogin(page);

  await page.goto(`/checkout/${video.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Free to read' })).toBeVisible();
  await expect(page.getByTestId('checkout-result')).toHaveText(
    `Graded: Won ${formatUnits(graded.pick!.unitsWon!)}`,
  );
  await expect(page.getByTestId('checkout-sales-closed')).toContainText('free to read');
  await expect(page.getByRole('form', { name: 'Card payment' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
  const read = page.getByRole('link', { name: 'Read it free' });
  await expect(read).toHaveAttribute('href', `/video/${video.id}`);
  expect(await axeViolations(page)).toEqual([]);
  await read.click();
  await expect(page).toHaveURL(`/video/${video.id}`);
});

test('graded while the checkout is open: the card is refused, nothing is charged, and it says read it free', async ({
  page,
  newUser,
  adminApi,
}) => {
  const game = await marketGame(adminApi, inHours(6));
  const capper = await newUser();
  const video = await postPickAt(capper.api, uniqueTitle('Graded meanwhile'), game, '9.99');
  await registerAndLogin(page);
  await openCheckout(page, video.id);

  await finishMarketGame(adminApi, game, { home: 10, away: 17 });
  const form = page.getByRole('form', { name: 'Card payment' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  const refused = page.waitForResponse((response) =>
    response.url().endsWith('/api/payments/sandbox/confirm'),
  );
  await form.getByRole('button', { name: 'Pay $9.99' }).click();
  const answer = await refused;
  expect(answer.status()).toBe(409);
  expect(((await answer.json()) as { message: string }).message).toMatch(/^This pick has been graded/);
  await expect(page.getByRole('heading', { level: 1, name: 'Free to read' })).toBeVisible();
  await expect(page.getByTestId('checkout-sales-closed')).toContainText('You have not been charged.');
  await expect(page.getByRole('link', { name: 'Read it free' })).toHaveAttribute(
    'href',
    `/video/${video.id}`,
  );
  expect(((await (await page.request.get(`/api/videos/${video.id}`)).json()) as Video).isPurchased).toBe(
    false,
  );
});

test('axe finds nothing on the checkout at desktop', async ({ page, newUser, adminApi }) => {
  const game = await marketGame(adminApi, inHours(6));
  const capper = await newUser();
  const video = await postPickAt(capper.api, uniqueTitle('Axe desktop'), game, '9.99');
  await registerAndLogin(page);
  await openCheckout(page, video.id);
  // From lg up, the summary is the right-hand column beside the form.
  const summary = (await page.getByTestId('order-summary').boundingBox())!;
  const form = (await page.getByRole('form', { name: 'Card payment' }).boundingBox())!;
  expect(summary.x).toBeGreaterThan(form.x + form.width);
  expect(await axeViolations(page)).toEqual([]);
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: PHONE });

  test('the order summary comes before the card form, nothing scrolls sideways, and axe finds nothing', async ({
    page,
    newUser,
    adminApi,
  }) => {
    const game = await marketGame(adminApi, inHours(6));
    const capper = await newUser();
    const video = await postPickAt(capper.api, uniqueTitle('Phone order'), game, '9.99');
    await registerAndLogin(page);
    await openCheckout(page, video.id);

    const summary = (await page.getByTestId('order-summary').boundingBox())!;
    const form = (await page.getByRole('form', { name: 'Card payment' }).boundingBox())!;
    expect(summary.y + summary.height).toBeLessThanOrEqual(form.y);
    // In reading order too: the summary's heading before the form.
    const order = await page.evaluate(() => {
      const summaryEl = document.querySelector('[data-testid="order-summary"]')!;
      const formEl = document.querySelector('form[aria-label="Card payment"]')!;
      return summaryEl.compareDocumentPosition(formEl) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    expect(order).toBeTruthy();
    await expect(page.getByRole('button', { name: 'Pay $9.99' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
  });
});
