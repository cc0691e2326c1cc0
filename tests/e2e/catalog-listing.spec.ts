// /videos (docs/product-decisions.md 'Screens the spec does not show'): all selections, search (?q=), category and
// sort in the URL, load more, empty states.
import { randomBytes } from 'node:crypto';
import { cardOf, createLinkVideo, expect, test } from './catalog-helpers';

/** A word no other video has, so a search for it finds exactly this test's videos. */
const token = () => `zq${randomBytes(4).toString('hex')}`;

test('the navigation search shows the matches and says what was searched', async ({ page, newUser }) => {
  const capper = await newUser();
  const word = token();
  await createLinkVideo(capper.api, { title: `Title ${word} pick` });
  await createLinkVideo(capper.api, { title: 'Described pick', description: `Notes: ${word.toUpperCase()}` });
  await createLinkVideo(capper.api, { title: `Unrelated ${token()}` });

  await page.goto('/');
  await page.getByRole('link', { name: 'See all picks' }).click();
  await expect(page).toHaveURL('/videos');
  await expect(page.getByRole('heading', { level: 1, name: 'All Available Selections' })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search videos' }).fill(word);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/videos?q=${word}`);
  await expect(page.getByText(`Search results for “${word}”`)).toBeVisible();
  await expect(page).toHaveTitle(`Results for “${word}” · PickReel`);
  // Title and description, case-insensitively (the description has it in capitals).
  await expect(page.getByRole('article')).toHaveCount(2);
  await expect(cardOf(page, `Title ${word} pick`)).toBeVisible();
  await expect(cardOf(page, 'Described pick')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Showing 2 picks' })).toBeVisible();
});

test('a search without matches says so and offers to clear it', async ({ page }) => {
  const word = token();
  await page.goto(`/videos?q=${word}`);
  const empty = page.getByTestId('videos-empty');
  await expect(empty).toContainText(`No results for “${word}”`);
  await empty.getByRole('link', { name: 'Clear search' }).click();
  await expect(page).toHaveURL('/videos');
  await expect(page.getByText('Search results for')).toHaveCount(0);
});

test('category and sort filter the list and live in the URL', async ({ page, newUser }) => {
  const capper = await newUser();
  const word = token();
  await createLinkVideo(capper.api, { title: `Cheap NBA ${word}`, category: 'NBA', price: 10 });
  await createLinkVideo(capper.api, { title: `NFL ${word}`, category: 'NFL', price: 30 });
  await createLinkVideo(capper.api, { title: `Dear NBA ${word}`, category: 'NBA', price: 20 });
  const titles = () => page.getByRole('article').getByRole('heading').allTextContents();

  await page.goto(`/videos?q=${word}`);
  await expect(page.getByRole('article')).toHaveCount(3);

  await page.getByLabel('Category').selectOption('NBA');
  await expect(page).toHaveURL(`/videos?q=${word}&category=NBA`);
  await expect(page.getByRole('article')).toHaveCount(2);
  await expect(cardOf(page, `NFL ${word}`)).toHaveCount(0);

  await page.getByLabel('Sort by').selectOption('price_desc');
  await expect(page).toHaveURL(`/videos?q=${word}&category=NBA&sort=price_desc`);
  await expect.poll(titles).toEqual([`Dear NBA ${word}`, `Cheap NBA ${word}`]);

  // The URL alone gives the same list (a shared link, a reload).
  await page.goto(`/videos?q=${word}&sort=price_asc`);
  await expect(page.getByLabel('Sort by')).toHaveValue('price_asc');
  await expect(page.getByLabel('Category')).toHaveValue('');
  await expect.poll(titles).toEqual([`Cheap NBA ${word}`, `Dear NBA ${word}`, `NFL ${word}`]);

  await page.getByLabel('Sort by').selectOption('newest');
  await expect(page).toHaveURL(`/videos?q=${word}`);
  await expect.poll(titles).toEqual([`Dear NBA ${word}`, `NFL ${word}`, `Cheap NBA ${word}`]);
});

test('Load more fetches the next page while the last one was full', async ({ page, newUser }) => {
  const capper = await newUser();
  const word = token();
  for (let index = 0; index < 25; index += 1) {
    await createLinkVideo(capper.api, { title: `Page pick ${String(index).padStart(2, '0')} ${word}` });
  }
  const offsets: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/videos') offsets.push(url.searchParams.get('offset') ?? '0');
  });

  await page.goto(`/videos?q=${word}`);
  await expect(page.getByRole('article')).toHaveCount(24);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(page.getByRole('article')).toHaveCount(25);
  await expect(page.getByRole('status').filter({ hasText: 'Showing 25 picks' })).toBeVisible();
  // The second page came back short: nothing more to load.
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  expect(offsets).toEqual(['0', '24']);
  // Newest first, so the oldest is last.
  await expect(page.getByRole('article').last()).toHaveAccessibleName(`Page pick 00 ${word}`);
});

test.describe('empty states', () => {
  test.beforeEach(async ({ page }) => {
    // The database is shared with every other test: an empty catalog is the server's empty answer.
    await page.route(
      (url) => url.pathname === '/api/videos',
      (route) => route.fulfill({ json: [] }),
    );
  });

  test('the listing says no videos are available', async ({ page }) => {
    await page.goto('/videos');
    const empty = page.getByTestId('videos-empty');
    await expect(empty).toContainText('No videos available');
    await expect(empty).toContainText('Check back soon for new content from our cappers.');
  });

  test('an empty category says so and offers all categories', async ({ page }) => {
    await page.goto('/videos?category=Golf');
    const empty = page.getByTestId('videos-empty');
    await expect(empty).toContainText('No Golf picks yet');
    await empty.getByRole('link', { name: 'Show all categories' }).click();
    await expect(page).toHaveURL('/videos');
    await expect(page.getByTestId('videos-empty')).toContainText('No videos available');
  });
});
