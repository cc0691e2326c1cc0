// The moment after paying: the buyer lands on the pick with their selections in large type (legs, status,
// commitment and Verify); a printable receipt per purchase; purchase cards and the panel say Won/Lost with
// units once graded; a bettor's dashboard opens on purchases with their results, a capper's on uploads.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { buyVideo, createLinkVideo, uniqueTitle } from './catalog-helpers';
import { loginViaApi, registerAndLogin } from './helpers';
import { expect, finishMarketGame, marketGame, marketLeg, test } from './market-helpers';
import { postPick } from './pick-helpers';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const AXE_URL_PATH = '/__receipt-checks/axe.min.js';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);

type AxeViolation = { id: string; help: string; nodes: { target: string[] }[] };

/** axe-core from npm, served from the page's own origin (the CSP refuses inline scripts): no violation. */
async function expectAxeClean(page: Page, label: string): Promise<void> {
  await page.route(`**${AXE_URL_PATH}`, (route) =>
    route.fulfill({ path: AXE_PATH, contentType: 'text/javascript' }),
  );
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ url: new URL(AXE_URL_PATH, page.url()).href });
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(' | ')})`,
    );
  });
  expect(violations, `axe on ${label}`).toEqual([]);
}

async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, `sideways scroll on ${label}`).toBeLessThanOrEqual(widths.client);
}

async function payWithCard(page: Page) {
  const form = page.getByRole('form', { name: 'Card payment' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: /^Pay/ }).click();
}

/** A time as the pick's page writes it, in the browser's zone ('Nov 28, 2026, 9:08 AM'). */
const pickTime = (page: Page, iso: string) =>
  page.evaluate(
    (at) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)),
    iso,
  );

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test.describe(`after paying (${size})`, () => {
    test.use({ viewport });
    // Pays, plays the game out and visits four pages: longer than one page's budget.
    test.slow();

    test('the buyer lands on the pick with the selections, then the receipt, card and dashboard say Won', async ({
      page,
      newUser,
      adminApi,
    }) => {
      const game = await marketGame(adminApi, inHours(3));
      const capper = await newUser();
      const title = uniqueTitle('Sunday home side');
      const video = await postPick(capper.api, title, [marketLeg(game)], {
        selections: 'One unit, home side',
      });
      await registerAndLogin(page);

      await page.goto(`/checkout/${video.id}`);
      await payWithCard(page);

      // Straight to the pick, at the panel, its heading focused.
      await expect(page).toHaveURL(`/video/${video.id}#your-selections`);
      const panel = page.getByTestId('your-selections');
      await expect(panel.getByRole('heading', { name: 'Your selections' })).toBeFocused();
      const leg = panel.getByTestId('selection-leg');
      await expect(leg).toHaveCount(1);
      await expect(leg).toContainText(`${game.home} moneyline`);
      await expect(leg).toContainText(`${game.away} at ${game.home}`);
      await expect(leg).toContainText(await pickTime(page, game.startsAt));
      await expect(leg).toContainText('-145');
      await expect(leg.getByTestId('selection-leg-status')).toHaveText('Status: Open');
      await expect(panel.getByTestId('outcome-chip')).toHaveText('Status: Open');
      await expect(panel.getByTestId('your-selections-text')).toHaveText('One unit, home side');
      await expect(panel.getByTestId('what-happens-next')).toContainText(
        "graded automatically from its game's final score",
      );
      await expect(panel.getByTestId('commitment')).toContainText(video.pick!.commitment);
      // The buyer verifies at once that what they bought is what was sealed.
      await panel.getByRole('button', { name: 'Verify' }).click();
      await expect(panel.getByTestId('verify-result')).toContainText('Matches');
      await expectNoSidewaysScroll(page, `the pick's page (${size})`);

      // The receipt, from the panel.
      await panel.getByRole('link', { name: 'View your receipt' }).click();
      await expect(page).toHaveURL(/\/purchases\/\d+$/);
      const receiptUrl = new URL(page.url()).pathname;
      await expect(page.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
      const facts = page.getByTestId('receipt-facts');
      await expect(facts).toContainText(title);
      await expect(facts).toContainText(capper.username);
      await expect(page.getByTestId('receipt-amount')).toHaveText('$25');
      await expect(facts).toContainText('Sandbox test card (no real money moved)');
      await expect(facts.getByTestId('outcome-chip')).toHaveText('Status: Open');

      // The game is played: the home side wins at −145, one unit: +0.69 units.
      await finishMarketGame(adminApi, game, { home: 24, away: 17 });
      await page.reload();
      await expect(facts.getByTestId('outcome-chip')).toHaveText('Status: Won +0.7u');
      const receiptLeg = page.getByTestId('selection-leg');
      await expect(receiptLeg.getByTestId('selection-leg-status')).toHaveText('Status: Won');
      await expect(receiptLeg.getByTestId('selection-leg-final')).toHaveText(
        `Final: ${game.away} 17, ${game.home} 24`,
      );
      await expect(page.getByRole('link', { name: title })).toHaveAttribute('href', `/video/${video.id}`);
      await expectNoSidewaysScroll(page, `the receipt (${size})`);
      await expectAxeClean(page, `the receipt (${size})`);

      // Printed: no navigation, no buttons, black on white.
      await page.emulateMedia({ media: 'print' });
      await expect(page.getByRole('navigation').first()).toBeHidden();
      await expect(page.getByRole('contentinfo')).toBeHidden();
      await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
      await expect(page.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
      expect(
        await page.evaluate(() => [
          getComputedStyle(document.body).backgroundColor,
          getComputedStyle(document.querySelector('h1')!).color,
        ]),
      ).toEqual(['rgb(255, 255, 255)', 'rgb(0, 0, 0)']);
      await page.emulateMedia({ media: 'screen' });
      await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();

      // The pick's page says Won too.
      await page.goto(`/video/${video.id}`);
      await expect(panel.getByTestId('outcome-chip')).toHaveText('Status: Won +0.7u');
      await expect(panel.getByTestId('selection-leg-status')).toHaveText('Status: Won');

      // A bettor's dashboard: purchases first with their results, no capper tiles.
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 2, name: 'Your purchases' })).toBeVisible();
      await expect(page.getByTestId('purchases-count')).toHaveText('1');
      await expect(page.getByTestId('uploads-count')).toHaveCount(0);
      await expect(page.getByTestId('earnings-total')).toHaveCount(0);
      const results = page.getByTestId('purchase-results');
      await expect(results.getByTestId('results-record')).toHaveText('1-0');
      await expect(results.getByTestId('results-units')).toHaveText('+0.7u');
      await expect(results.getByTestId('results-money')).toHaveText('+$69 at $100 a unit');
      const card = page.getByRole('article', { name: title });
      await expect(card.getByTestId('outcome-chip')).toHaveText('Status: Won +0.7u');
      await expect(card.getByRole('link', { name: 'Receipt', exact: true })).toHaveAttribute(
        'href',
        receiptUrl,
      );
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await expectNoSidewaysScroll(page, `the dashboard (${size})`);
      await expectAxeClean(page, `the dashboard (${size})`);
    });
  });
}

test('an unverified pick: the panel shows the winning selections text and says it is not graded', async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const title = uniqueTitle('Unverified card');
  const video = await createLinkVideo(capper.api, {
    title,
    price: 9.99,
    emailInformation: 'Knicks +4 (1 unit)',
  });
  await registerAndLogin(page);
  await page.goto(`/checkout/${video.id}`);
  await payWithCard(page);
  await expect(page).toHaveURL(`/video/${video.id}#your-selections`);
  const panel = page.getByTestId('your-selections');
  await expect(panel.getByRole('heading', { name: 'Your selections' })).toBeFocused();
  await expect(panel.getByTestId('your-selections-text')).toHaveText('Knicks +4 (1 unit)');
  await expect(panel.getByTestId('selection-leg')).toHaveCount(0);
  await expect(panel.getByTestId('what-happens-next')).toContainText('unverified');
  await panel.getByRole('link', { name: 'View your receipt' }).click();
  await expect(page.getByTestId('receipt-amount')).toHaveText('$9.99');
  await expect(page.getByTestId('receipt-facts')).toContainText('Unverified pick: not graded automatically');
});

test("a receipt is its buyer's only: another user is told it is not found", async ({ page, newUser }) => {
  const capper = await newUser();
  const buyer = await newUser('bettor');
  const video = await createLinkVideo(capper.api, { title: uniqueTitle('Private receipt') });
  await buyVideo(buyer.api, video.id);
  const [purchase] = (await (await buyer.api.get('/api/user/purchases')).json()) as { id: number }[];
  await registerAndLogin(page);
  await page.goto(`/purchases/${purchase!.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Receipt not found' })).toBeVisible();
  await expect(page.getByText('Private receipt')).toHaveCount(0);
});

test("a capper's dashboard opens on their uploads, each with its sales and where its pick stands", async ({
  page,
  newUser,
  adminApi,
}) => {
  const game = await marketGame(adminApi, inHours(3));
  const capper = await newUser();
  const buyer = await newUser('bettor');
  const title = uniqueTitle('Sold pick');
  const video = await postPick(capper.api, title, [marketLeg(game)]);
  await buyVideo(buyer.api, video.id);
  await loginViaApi(page, capper);
  await page.goto('/dashboard');
  await expect(page.getByRole('tab', { name: 'Your Uploads' })).toHaveAttribute('aria-selected', 'true');
  const item = page.getByRole('listitem').filter({ has: page.getByRole('article', { name: title }) });
  const sales = item.getByTestId('upload-sales');
  await expect(sales).toContainText('1 sale · $25');
  await expect(sales.getByTestId('outcome-chip')).toHaveText('Status: Open');
});
