// Promo codes (docs/decisions/039): a capper creates a code on the dashboard; a bettor applies it at
// checkout, sees the struck price and the discounted total, pays with the sandbox card and the receipt says
// what was charged. Also on a 390 px phone, where the field must fit.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { createLinkVideo, expect, test, uniqueTitle } from './catalog-helpers';
import { registerAndLogin } from './helpers';

const PHONE = { width: 390, height: 844 };
const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const AXE_URL_PATH = '/__promo-checks/axe.min.js';

/** axe-core from npm, served from the page's own origin (the CSP refuses an inline script). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.route(`**${AXE_URL_PATH}`, (route) =>
    route.fulfill({ path: AXE_PATH, contentType: 'text/javascript' }),
  );
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

async function payWithCard(page: Page) {
  const form = page.getByRole('form', { name: 'Card payment' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: 'Pay $18.75' }).click();
}

async function createCodeOnDashboard(page: Page, code: string) {
  await page.goto('/dashboard');
  const section = page.getByRole('region', { name: 'Promo codes' });
  const form = section.getByRole('form', { name: 'New promo code' });
  // A mistake first: the message is beside its field.
  await form.getByLabel('Code').fill('x');
  await form.getByLabel('Percent off').fill('95');
  await form.getByRole('button', { name: 'Create code' }).click();
  await expect(form.getByText('A code has at least 3 characters')).toBeVisible();
  await expect(form.getByText('Percent off must be at most 90')).toBeVisible();
  await expect(form.getByLabel('Code')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Code').fill(code.toLowerCase());
  await form.getByLabel('Percent off').fill('25');
  await form.getByLabel('Maximum uses (optional)').fill('5');
  await form.getByRole('button', { name: 'Create code' }).click();
  const listed = section.getByTestId('promo-code');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText(code);
  await expect(listed).toContainText('25% off · 0 of 5 used');
  await expect(listed).toContainText('Active');
  expect(await axeViolations(page)).toEqual([]);
}

test('a capper creates a code; a bettor applies it, pays the discounted amount and the receipt says so', async ({
  page,
}) => {
  // Two people, the dashboard, the checkout, a payment and the receipt: longer than one page's budget.
  test.slow();
  await registerAndLogin(page);
  const title = uniqueTitle('Promo pick');
  const video = await createLinkVideo(page.request, { title, price: 25 });
  const code = `SAVE-${Date.now().toString(36).slice(-6).toUpperCase()}`;
  await createCodeOnDashboard(page, code);

  // The bettor, in the same browser after the capper signs out.
  expect((await page.request.post('/api/logout')).status()).toBe(200);
  await registerAndLogin(page);
  await page.goto(`/checkout/${video.id}`);
  const summary = page.getByTestId('order-summary');
  await expect(summary.getByTestId('order-total')).toHaveText('$25.00');
  await expect(page.getByRole('button', { name: 'Pay $25' })).toBeVisible();

  await summary.getByRole('button', { name: 'Add promo code' }).click();
  const field = summary.getByLabel('Promo code');
  await expect(field).toBeFocused();
  await field.fill('NOPE-CODE');
  await summary.getByRole('button', { name: 'Apply' }).click();
  await expect(summary.getByTestId('promo-error')).toHaveText('No such code for this capper');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(await axeViolations(page)).toEqual([]);

  await field.fill(code.toLowerCase());
  await summary.getByRole('button', { name: 'Apply' }).click();
  await expect(summary.getByTestId('promo-applied')).toContainText(`Code ${code} applied — $6.25 off`);
  await expect(summary.getByTestId('order-original-price')).toHaveText('Was $25.00');
  await expect(summary.getByTestId('order-discount')).toHaveText('−$6.25');
  await expect(summary.getByTestId('order-total')).toHaveText('$18.75');

  // Removing the code gives back the full price; applying it again, the discount.
  await summary.getByRole('button', { name: `Remove promo code ${code}` }).click();
  await expect(summary.getByTestId('order-total')).toHaveText('$25.00');
  await expect(summary.getByTestId('order-original-price')).toHaveCount(0);
  await summary.getByRole('button', { name: 'Add promo code' }).click();
  await summary.getByLabel('Promo code').fill(code);
  await summary.getByRole('button', { name: 'Apply' }).click();
  await expect(summary.getByTestId('order-total')).toHaveText('$18.75');

  await payWithCard(page);
  await expect(page).toHaveURL(`/video/${video.id}#your-selections`);
  const panel = page.getByTestId('your-selections');
  await panel.getByRole('link', { name: 'View your receipt' }).click();
  await expect(page.getByTestId('receipt-amount')).toHaveText('$18.75');
});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE });

  test('the promo field and the struck price fit a 390 px screen', async ({ page, newUser }) => {
    const capper = await newUser('capper');
    const video = await createLinkVideo(capper.api, { title: uniqueTitle('Phone promo'), price: 10 });
    const created = await capper.api.post(`/api/cappers/${capper.username}/promo-codes`, {
      data: { code: 'PHONE-10', kind: 'fixed', amountOff: 1.5 },
    });
    expect(created.status(), await created.text()).toBe(200);
    await registerAndLogin(page);
    await page.goto(`/checkout/${video.id}`);
    const summary = page.getByTestId('order-summary');
    await summary.getByRole('button', { name: 'Add promo code' }).click();
    await summary.getByLabel('Promo code').fill('phone-10');
    await summary.getByRole('button', { name: 'Apply' }).click();
    await expect(summary.getByTestId('order-total')).toHaveText('$8.50');
    await expect(page.getByRole('button', { name: 'Pay $8.50' })).toBeVisible();
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(await axeViolations(page)).toEqual([]);
  });
});
