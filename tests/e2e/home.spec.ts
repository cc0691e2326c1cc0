import type { Page } from '@playwright/test';
import { E2E_SUPPORT_PHONE } from '../setup/e2e-env';
import { fakeVideo, serveHomeList } from './catalog-helpers';
import { expect, test } from './fixtures';

test('the home page shows the hero with what verified means and the support phone, and the empty state', async ({
  page,
}) => {
  // Other tests add videos to the shared database; the empty catalog is this page's answer to an empty list.
  await serveHomeList(page, []);
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('PickReel');
  const hero = page.getByRole('region', { name: 'Sports picks you can check.' });
  await expect(hero.getByTestId('hero-verified')).toContainText('Verified means sealed before the game');
  // The cut is the sellers' business: the footer states it, not the bettors' hero.
  await expect(hero).not.toContainText('10% cut');
  await expect(page.getByRole('contentinfo')).toContainText('10% cut');
  // The phone comes from the SUPPORT_PHONE setting, through the config the server writes into the page.
  await expect(hero).toContainText(E2E_SUPPORT_PHONE);
  await expect(page.getByRole('heading', { level: 2, name: "Today's Picks" })).toBeVisible();
  await expect(page.getByText('No videos available yet. Be the first to upload!')).toBeVisible();
});

test('three placeholder cards show while the videos load', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/videos', async (route) => {
    await held;
    await route.fulfill({ json: [] });
  });
  await page.goto('/');
  await expect(page.getByTestId('video-card-skeleton')).toHaveCount(3);
  release();
  await expect(page.getByTestId('video-card-skeleton')).toHaveCount(0);
  await expect(page.getByText('No videos available yet. Be the first to upload!')).toBeVisible();
});

test('video cards show title, price as charged and a thumbnail placeholder, and link to the video', async ({
  page,
}) => {
  const video = fakeVideo({ title: 'Sunday NFL parlay', price: 24.99, duration: 95 });
  await serveHomeList(page, [video]);
  await page.goto('/');
  const card = page.getByRole('article', { name: 'Sunday NFL parlay' });
  await expect(card).toContainText('$24.99');
  await expect(card).toContainText('Thumbnail');
  await expect(card).toContainText('1:35');
  await card.getByRole('link', { name: 'Sunday NFL parlay' }).click();
  await expect(page).toHaveURL(`/video/${video.id}`);
});

test('the footer carries the brand, social links, the responsible-gambling line and this year', async ({
  page,
}) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText('PickReel');
  await expect(footer).toContainText('21+ only. Gambling problem? Call 1-800-GAMBLER.');
  await expect(footer).toContainText(`© ${new Date().getFullYear()} PickReel`);
  const social = footer.getByRole('list', { name: 'Social media' }).getByRole('link');
  await expect(social).toHaveCount(4);
  await expect(social.first()).toHaveAttribute('href', '#');
  await expect(social.first()).toHaveAccessibleName('PickReel on X');
});

/** Holds the app's entry module, so the prerendered home page stays inert until `release()`. */
async function holdTheApp(page: Page) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

test('a search typed before the app has started is kept and answered once it has', async ({ page }) => {
  const release = await holdTheApp(page);
  await page.goto('/');
  // The prerendered first paint is there before any of the app's JavaScript.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search videos' });
  await search.fill('early bird');
  await search.press('Enter');
  await expect(page).toHaveURL('/'); // no page load in the meantime
  release();
  await expect(page).toHaveURL('/videos?q=early%20bird');
  await expect(page.getByRole('searchbox', { name: 'Search videos' })).toHaveValue('early bird');
});

test('a button clicked before the app has started does its work once it has', async ({ page }) => {
  const release = await holdTheApp(page);
  await page.goto('/');
  await page.evaluate(() => {
    (window as unknown as { beforeReload: boolean }).beforeReload = true;
  });
  await page.getByRole('button', { name: 'Refresh page' }).click();
  const reloaded = page.waitForEvent('load');
  release();
  await reloaded;
  expect(
    await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload),
  ).toBeUndefined();
});
