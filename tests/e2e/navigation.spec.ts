import { createLinkVideo, expect, test } from './catalog-helpers';
import { registerAndLogin } from './helpers';

const PROTECTED = ['/dashboard', '/dashboard/analytics', '/upload', '/checkout/1', '/edit-video/1', '/admin'];

for (const path of PROTECTED) {
  test(`${path} sends a signed-out visitor to /auth, to come back after signing in`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(`/auth?next=${path}`);
    await expect(page.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
  });
}

test('protected pages open for a signed-in user', async ({ page, newUser }) => {
  // A video of its own to check out: another test may have deleted any video whose id it assumed.
  const capper = await newUser('capper');
  const video = await createLinkVideo(capper.api, { title: 'Navigation checkout pick' });
  await registerAndLogin(page);
  const expectations: [string, string][] = [
    ['/dashboard', 'Dashboard'],
    ['/dashboard/analytics', 'Analytics'],
    ['/upload', 'Upload a New Video'],
    [`/checkout/${video.id}`, 'Checkout'],
    // A signed-in visitor gets the page itself; for a video that does not exist, its not-found state.
    ['/edit-video/999999999', 'Video not found'],
  ];
  for (const [path, heading] of expectations) {
    await page.goto(path);
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page).toHaveTitle(`${heading} · PickReel`);
  }
});

test('a protected route shows a spinner while the session loads', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/session', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/upload');
  await expect(page.getByTestId('page-spinner')).toBeVisible();
  await expect(page).toHaveURL('/upload');
  release();
  await expect(page).toHaveURL('/auth?next=/upload');
});

test('unknown paths show the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page).toHaveTitle('Page not found · PickReel');
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL('/');
});

test('public routes exist', async ({ page }) => {
  await page.goto('/videos');
  await expect(page.getByRole('heading', { level: 1, name: 'All Available Selections' })).toBeVisible();
  await page.goto('/video/12');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toHaveCount(0);
});

test('the search box ignores a blank query and otherwise opens /videos?q=', async ({ page }) => {
  await page.goto('/');
  const search = page.getByRole('searchbox', { name: 'Search videos' });
  await expect(search).toHaveAttribute('placeholder', 'Search videos and products...');

  await search.press('Enter');
  await expect(page).toHaveURL('/');
  await search.fill('   ');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL('/');

  await search.fill('NBA parlay & props');
  await search.press('Enter');
  await expect(page).toHaveURL('/videos?q=NBA%20parlay%20%26%20props');
  await expect(page.getByText('Search results for “NBA parlay & props”')).toBeVisible();
});

test('the Home button and the brand lead home', async ({ page }) => {
  await page.goto('/videos');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL('/');
  await page.goto('/videos');
  await page.getByRole('link', { name: 'PickReel' }).first().click();
  await expect(page).toHaveURL('/');
});

test('the refresh button reloads the page', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => {
    (window as unknown as { beforeReload: boolean }).beforeReload = true;
  });
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Refresh page' }).click()]);
  expect(
    await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload),
  ).toBeUndefined();
  await expect(page).toHaveURL('/');
});

test('the navigation bar gains its shadow after scrolling more than 10 px', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.goto('/');
  const header = page.getByRole('banner');
  const shadow = () => header.evaluate((element) => getComputedStyle(element).boxShadow);
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  const flat = await shadow();
  await page.evaluate(() => window.scrollTo(0, 10));
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  await page.evaluate(() => window.scrollTo(0, 11));
  await expect(header).toHaveAttribute('data-scrolled', 'true');
  await expect.poll(shadow).not.toBe(flat);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(header).toHaveAttribute('data-scrolled', 'false');
});
