import { expect, test } from './fixtures';

test.describe('when a page cannot be loaded', () => {
  // The aborted download and React's report of the caught error are the point of this test.
  test.use({
    allowedConsoleErrors: /net::ERR_FAILED|Page failed to render|Failed to fetch dynamically imported module/,
  });

  test('the shell stays and offers a reload; navigating away recovers', async ({ page }) => {
    await page.route(/\/assets\/not-found-page-[^/]+\.js$/, (route) => route.abort('failed'));
    await page.goto('/');
    await page.evaluate(() => window.history.pushState(null, '', '/missing-page'));
    await page.evaluate(() => window.dispatchEvent(new PopStateEvent('popstate')));
    await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await expect(page.getByRole('heading', { name: "Today's Picks" })).toBeVisible();
  });
});
