// /video/{id} (docs/product-decisions.md 'Screens the spec does not show', /video/{id}): details, the viewer's
// state, selections, views, shares, not found.
import { buyVideo, createLinkVideo, expect, test, uniqueTitle } from './catalog-helpers';
import { loginViaApi, registerAndLogin, toasts } from './helpers';

test('a visitor sees the details, counts a view, and is sent to sign in to buy', async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const title = uniqueTitle('Page view');
  const video = await createLinkVideo(capper.api, {
    title,
    description: 'Full card breakdown.\nThree plays.',
    price: 42.99,
    category: 'Soccer',
    duration: 125,
    emailInformation: 'Secret winners',
  });
  const view = page.waitForResponse(
    (response) =>
      response.url().endsWith(`/api/videos/${video.id}/view`) && response.request().method() === 'POST',
  );

  await page.goto(`/video/${video.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page).toHaveTitle(`${title} · PickReel`);
  expect(await (await view).json()).toEqual({ counted: true });
  const main = page.getByRole('main');
  await expect(main).toContainText(`by ${capper.username}`);
  await expect(main).toContainText('Soccer');
  await expect(page.getByTestId('video-price')).toHaveText('$42.99');
  await expect(main).toContainText('2:05');
  // The view just counted shows at once.
  await expect(page.getByRole('definition').filter({ hasText: /^1$/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Description' })).toContainText('Three plays.');
  // No selections for a visitor: the server does not send them (docs/product-decisions.md 'Security overrides').
  await expect(page.getByRole('region', { name: 'Winning Selections' })).toHaveCount(0);
  await expect(main).not.toContainText('Secret winners');
  const aside = page.getByRole('complementary', { name: 'Buy and share' });
  await expect(aside.getByRole('link', { name: 'Buy Winners' })).toHaveAttribute(
    'href',
    `/auth?next=/checkout/${video.id}`,
  );

  await page.route('https://www.youtube-nocookie.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>player</title>' }),
  );
  await page.getByRole('button', { name: `Play ${title}` }).click();
  await expect(page.locator('iframe')).toHaveAttribute(
    'src',
    /^https:\/\/www\.youtube-nocookie\.com\/embed\//,
  );
});

test('the owner sees Your Video, the selections and the owner tools', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Owner page');
  const video = await createLinkVideo(capper.api, { title, emailInformation: 'Chiefs -2.5' });
  await loginViaApi(page, capper);
  await page.goto(`/video/${video.id}`);
  const aside = page.getByRole('complementary', { name: 'Buy and share' });
  await expect(aside.getByText('Your Video')).toBeVisible();
  await expect(aside.getByRole('link', { name: 'Buy Winners' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Winning Selections' })).toContainText('Chiefs -2.5');
  await expect(aside.getByRole('link', { name: 'Edit', exact: true })).toHaveAttribute(
    'href',
    `/edit-video/${video.id}`,
  );
  await expect(aside.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
});

test('a buyer sees Purchased and the selections they bought', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Bought page');
  const video = await createLinkVideo(capper.api, { title, emailInformation: 'Over 8.5 runs' });
  await registerAndLogin(page);
  await page.goto(`/video/${video.id}`);
  const aside = page.getByRole('complementary', { name: 'Buy and share' });
  await expect(aside.getByRole('link', { name: 'Buy Winners' })).toHaveAttribute(
    'href',
    `/checkout/${video.id}`,
  );
  await expect(page.getByRole('region', { name: 'Winning Selections' })).toHaveCount(0);

  await buyVideo(page.request, video.id);
  await page.goto(`/video/${video.id}`);
  await expect(aside.getByText('Purchased')).toBeVisible();
  await expect(aside.getByRole('link', { name: 'Buy Winners' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Winning Selections' })).toContainText('Over 8.5 runs');
});

test('share buttons copy the link or open the network in a new tab, and each counts a share', async ({
  page,
  context,
  newUser,
  baseURL,
}) => {
  const capper = await newUser();
  const title = uniqueTitle('Share me');
  const video = await createLinkVideo(capper.api, { title });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Offline: the networks' share pages are answered here.
  await context.route(/^https:\/\/(x\.com|www\.facebook\.com|wa\.me)\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>share</title>' }),
  );
  const pageUrl = `${baseURL}/video/${video.id}`;
  await page.goto(`/video/${video.id}`);
  const share = page.getByRole('region', { name: 'Share this pick' });
  await expect(share).toContainText('Shared 0 times');

  await share.getByRole('button', { name: 'Copy link' }).click();
  await expect(toasts(page).filter({ hasText: 'Link copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pageUrl);
  await expect(share).toContainText('Shared 1 time');

  const x = share.getByRole('link', { name: /^X/ });
  await expect(x).toHaveAttribute('target', '_blank');
  await expect(x).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(x).toHaveAttribute(
    'href',
    new RegExp(`^https://x\\.com/intent/post\\?url=${encodeURIComponent(pageUrl)}`),
  );
  await expect(share.getByRole('link', { name: /^Facebook/ })).toHaveAttribute(
    'href',
    `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(pageUrl)}`,
  );
  await expect(share.getByRole('link', { name: /^WhatsApp/ })).toHaveAttribute(
    'href',
    new RegExp(`^https://wa\\.me/\\?text=.*${encodeURIComponent(pageUrl)}$`),
  );

  const popup = page.waitForEvent('popup');
  await share.getByRole('link', { name: /^WhatsApp/ }).click();
  // noopener: the new tab cannot reach back into PickReel.
  expect(await (await popup).evaluate(() => window.opener)).toBeNull();
  await expect(share).toContainText('Shared 2 times');
});

test('a missing, malformed or hidden video says Video not found, with a way home', async ({ page }) => {
  for (const path of ['/video/999999999', '/video/abc', '/video/0']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Video not found' })).toBeVisible();
    await expect(page).toHaveTitle('Video not found · PickReel');
  }
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL('/');
});
