// Finding things: a capper found by name from the search box, /videos filtered by league and
// status and sorted by price with the state in the URL, "Popular picks" that never recommend a pick whose
// sales have closed, all at a desktop and a 390 px phone, with axe on /videos.
import { createRequire } from 'node:module';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Video } from '#common/schemas/videos.js';
import { cardOf, createLinkVideo, uniqueTitle, type ApiUser } from './catalog-helpers';
import { newCredentials } from './helpers';
import { expect, marketGame, marketLeg, startMarketGame, test, untilCatalogSays } from './market-helpers';
import { postPick } from './pick-helpers';

const require = createRequire(import.meta.url);
// axe-core served from the page's own origin (our CSP refuses an inline script), as page-audits.spec.ts does.
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const AXE_URL_PATH = '/__finding-checks/axe.min.js';
const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);

/** A capper signed in through the API in a cookie jar of their own. */
async function newCapper(
  playwright: { request: { newContext: (options: object) => Promise<APIRequestContext> } },
  baseURL: string | undefined,
  headers: Record<string, string> | undefined,
  prefix: string,
): Promise<ApiUser> {
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: headers });
  const credentials = newCredentials(prefix);
  const res = await api.post('/api/register', {
    data: { ...credentials, phoneNumber: '', bio: '', avatarUrl: '' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { ...credentials, id: ((await res.json()) as { id: number }).id, api };
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.route(`**${AXE_URL_PATH}`, (route) =>
    route.fulfill({ path: AXE_PATH, contentType: 'text/javascript' }),
  );
  await page.addScriptTag({ url: new URL(AXE_URL_PATH, page.url()).href });
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        run: (
          context: Document,
          options: object,
        ) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

/** Nothing wider than the screen, and each control inside it. */
async function expectFitsWidth(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
  const width = page.viewportSize()!.width;
  for (const label of ['Category', 'Status', 'Sort by']) {
    const box = (await page.getByLabel(label, { exact: true }).boundingBox())!;
    expect(box.x, label).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, label).toBeLessThanOrEqual(width);
  }
}

for (const size of [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test.describe(`finding things (${size.name})`, () => {
    test.use({ viewport: size.viewport });

    test("a capper's name in the search box finds the capper, linked to their storefront", async ({
      page,
      playwright,
      baseURL,
      extraHTTPHeaders,
    }) => {
      const capper = await newCapper(playwright, baseURL, extraHTTPHeaders, 'sharpfind');
      await createLinkVideo(capper.api, { title: uniqueTitle('Storefront pick') });
      await page.goto('/');
      // The phone's search sits behind the menu on some layouts: the URL is what the search box sends.
      const search = page.getByRole('searchbox', { name: 'Search videos' });
      if (await search.isVisible()) {
        await search.fill(capper.username);
        await page.keyboard.press('Enter');
        await expect(page).toHaveURL(`/videos?q=${capper.username}`);
      } else {
        await page.goto(`/videos?q=${capper.username}`);
      }
      const cappers = page.getByRole('region', { name: `Cappers matching “${capper.username}”` });
      const link = cappers.getByRole('link', { name: new RegExp(capper.username) });
      await expect(link).toBeVisible();
      await expect(link).toContainText('No verified record yet');
      await expectFitsWidth(page);
      expect(await axeViolations(page)).toEqual([]);
      await link.click();
      await expect(page).toHaveURL(`/cappers/${capper.username}`);
      await capper.api.dispose();
    });

    test('league and status filter the list, price sorts it, all in the URL', async ({
      page,
      adminApi,
      playwright,
      baseURL,
      extraHTTPHeaders,
    }) => {
      const capper = await newCapper(playwright, baseURL, extraHTTPHeaders, 'filters');
      const word = uniqueTitle('Filter').split(' ').at(-1)!;
      await createLinkVideo(capper.api, { title: `Cheap NFL ${word}`, category: 'NFL', price: 10 });
      await createLinkVideo(capper.api, { title: `Dear NFL ${word}`, category: 'NFL', price: 30 });
      await createLinkVideo(capper.api, { title: `MLB ${word}`, category: 'MLB', price: 20 });
      // A sealed NFL pick whose game has started: sales closed, so never "on sale".
      const game = await marketGame(adminApi, inHours(3));
      const started: Video = await postPick(capper.api, `Closed NFL ${word}`, [marketLeg(game)]);
      await startMarketGame(adminApi, game);
      await untilCatalogSays(capper.api, started.id, 'started');
      const titles = () => page.getByRole('article').getByRole('heading').allTextContents();

      await page.goto(`/videos?q=${word}`);
      await expect(page.getByRole('article')).toHaveCount(4);
      await page.getByLabel('Category', { exact: true }).selectOption('NFL');
      await expect(page).toHaveURL(`/videos?q=${word}&category=NFL`);
      await expect(page.getByRole('article')).toHaveCount(3);
      await page.getByLabel('Status', { exact: true }).selectOption('open');
      await expect(page).toHaveURL(`/videos?q=${word}&category=NFL&status=open`);
      await expect(cardOf(page, `Closed NFL ${word}`)).toHaveCount(0);
      await page.getByLabel('Sort by', { exact: true }).selectOption('price_asc');
      await expect(page).toHaveURL(`/videos?q=${word}&category=NFL&status=open&sort=price_asc`);
      await expect.poll(titles).toEqual([`Cheap NFL ${word}`, `Dear NFL ${word}`]);
      await expect(page.getByRole('status').filter({ hasText: 'Showing 2 NFL picks on sale' })).toContainText(
        'lowest price first',
      );
      await expectFitsWidth(page);

      // The URL alone gives the same list (a shared link, a reload).
      await page.goto(`/videos?q=${word}&category=NFL&status=open&sort=price_desc`);
      await expect(page.getByLabel('Status', { exact: true })).toHaveValue('open');
      await expect.poll(titles).toEqual([`Dear NFL ${word}`, `Cheap NFL ${word}`]);
      expect(await axeViolations(page)).toEqual([]);
      await capper.api.dispose();
    });
  });
}

test('Popular picks never recommend a pick whose sales have closed', async ({
  page,
  adminApi,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(90_000);
  const capper = await newCapper(playwright, baseURL, extraHTTPHeaders, 'popular');
  const word = uniqueTitle('Popular').split(' ').at(-1)!;
  const game = await marketGame(adminApi, inHours(3));
  const closed: Video = await postPick(capper.api, `Closed popular ${word}`, [marketLeg(game)]);
  const open = await createLinkVideo(capper.api, { title: `Open popular ${word}` });
  const here = await createLinkVideo(capper.api, { title: `Watching ${word}` });
  // Both the most viewed picks of the catalog: a view counts once per visitor (address) an hour.
  const views = async (videoId: number, count: number) => {
    const counted = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const ip = `10.249.${Math.floor(i / 250)}.${(i % 250) + 1}`;
        const res = await page.request.post(`/api/videos/${videoId}/view`, {
          headers: { 'X-Forwarded-For': ip },
        });
        expect(res.status()).toBe(200);
        return ((await res.json()) as { counted: boolean }).counted;
      }),
    );
    expect(counted.every(Boolean)).toBe(true);
  };
  await views(closed.id, 60);
  await views(open.id, 50);
  await startMarketGame(adminApi, game);
  await untilCatalogSays(capper.api, closed.id, 'started');

  await page.goto(`/video/${here.id}`);
  const popular = page.getByRole('region', { name: 'Popular picks' });
  await expect(popular.getByRole('article', { name: `Open popular ${word}` })).toBeVisible();
  await expect(popular.getByRole('article', { name: `Closed popular ${word}` })).toHaveCount(0);
  const featured = (await (await page.request.get('/api/videos/featured')).json()) as Video[];
  expect(featured.filter((video) => video.pick && video.pick.status !== 'open')).toEqual([]);
  await capper.api.dispose();
});
