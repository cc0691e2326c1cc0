// Phones and layout: on a 390 × 844 phone the video page shows what a visitor came for without
// scrolling (the buy action, or a buyer's selections); the dashboard's tiles are even and two to a row; the
// edit page's side-by-side fields line up.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { loginViaApi, registerAndLogin } from './helpers';
import { adminApi, buyViaApi, createLinkVideo, newAccount, uniqueTitle } from './money-helpers';

const PHONE = { width: 390, height: 844 };

// A title of two lines on a phone, and a description long enough to be worth reading after the price.
const TITLE = 'Lakers at Celtics: the full card and the number we like';
const DESCRIPTION =
  'Line movement since the open, the injury report, and why the total is too low.\nThree plays, one lock.';

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, 'the element has a box').not.toBeNull();
  return found!;
}

function buyAndShare(page: Page) {
  return page.getByRole('complementary', { name: 'Buy and share' });
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true });

  test('the video page shows Buy Winners without scrolling, signed out and signed in', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
    const video = await createLinkVideo(capper, {
      title: uniqueTitle(TITLE),
      description: DESCRIPTION,
      price: 25,
      selections: 'Lakers +4.5',
    });

    await page.goto(`/video/${video.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const buy = buyAndShare(page).getByRole('link', { name: 'Buy Winners' });
    await expect(buy).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('video-price')).toBeInViewport({ ratio: 1 });
    // The title stays above the buy box: a visitor knows what they are buying.
    await expect(page.getByRole('heading', { level: 1 })).toBeInViewport({ ratio: 1 });

    await registerAndLogin(page);
    await page.goto(`/video/${video.id}`);
    await expect(buy).toHaveAttribute('href', `/checkout/${video.id}`);
    await expect(buy).toBeInViewport({ ratio: 1 });
    await capper.api.dispose();
  });

  test("a buyer sees the winning selections without scrolling, and so does the video's owner", async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
    const buyer = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'buyer');
    const video = await createLinkVideo(capper, {
      title: uniqueTitle(TITLE),
      description: DESCRIPTION,
      price: 25,
      selections: 'Lakers +4.5 (2 units)\nOver 220.5 (1 unit)',
    });
    await buyViaApi(buyer, video.id);

    for (const who of [buyer, capper]) {
      await loginViaApi(page, who.credentials);
      await page.goto(`/video/${video.id}`);
      // The selections come first, in large type, above the player and the title.
      const selections = page.getByRole('region', { name: 'Your selections' });
      await expect(selections.getByTestId('your-selections-text')).toContainText('Over 220.5 (1 unit)');
      await expect(selections.getByTestId('your-selections-text')).toBeInViewport({ ratio: 1 });
      await expect(selections.getByRole('heading', { name: 'Your selections' })).toBeInViewport({ ratio: 1 });
    }
    await Promise.all([capper.api.dispose(), buyer.api.dispose()]);
  });

  test('the dashboard tiles are two to a row, all of one height', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    // A capper with a bonus: the Earnings tile has its Bonus line and its Request Payout button.
    const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
    const admin = await adminApi(playwright, { baseURL, extraHTTPHeaders });
    const bonus = await admin.patch(`/api/admin/users/${capper.id}/earnings`, {
      data: { manualEarnings: 1234.5 },
    });
    expect(bonus.status(), await bonus.text()).toBe(200);
    await loginViaApi(page, capper.credentials);

    for (const width of [PHONE.width, 320, 1280]) {
      await page.setViewportSize({ width, height: PHONE.height });
      await page.goto('/dashboard');
      await expect(page.getByRole('button', { name: 'Request Payout' })).toBeVisible();
      await expect(page.getByTestId('uploads-count')).toHaveText('0');
      const tiles = ['Total Uploads', 'Purchases', 'Earnings', 'Analytics'].map((name) =>
        page.getByRole('region', { name, exact: true }),
      );
      const boxes = await Promise.all(tiles.map(box));
      for (const [index, tile] of boxes.entries()) {
        expect(
          Math.abs(tile.height - boxes[0]!.height),
          `tile ${index + 1} at ${width} px`,
        ).toBeLessThanOrEqual(1);
      }
      // Within the page's 16 px margins: no tile's content holds the grid open past them.
      for (const card of await Promise.all(tiles.map((tile) => box(tile.locator('xpath=..'))))) {
        expect(card.x, `a tile's left edge at ${width} px`).toBeGreaterThanOrEqual(16);
        expect(card.x + card.width, `a tile's right edge at ${width} px`).toBeLessThanOrEqual(width - 16);
      }
      // Side by side: the first two tiles share a row.
      expect(Math.abs(boxes[1]!.y - boxes[0]!.y), `the first row at ${width} px`).toBeLessThanOrEqual(1);
      expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x + boxes[0]!.width);
    }
    await Promise.all([capper.api.dispose(), admin.dispose()]);
  });
});

test("the edit page's Price and Category sit on one line", async ({
  page,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
  const video = await createLinkVideo(capper, { title: uniqueTitle('Edit me'), price: 25, selections: 'x' });
  await loginViaApi(page, capper.credentials);
  await page.goto(`/edit-video/${video.id}`);
  const form = page.getByRole('form', { name: 'Edit video' });
  const price = await box(form.getByLabel('Price ($)'));
  const category = await box(form.getByLabel('Category'));
  expect(Math.abs(category.y - price.y)).toBeLessThanOrEqual(1);
  expect(category.x).toBeGreaterThan(price.x + price.width);
  await capper.api.dispose();
});
