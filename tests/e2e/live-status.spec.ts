// docs/product-decisions.md 'Live status': a video being processed updates itself on screen, its
// percentage and then its player, without a reload; nothing else is ever polled.
import type { Page, Request } from '@playwright/test';
import type { Video } from '#common/schemas/videos.js';
import { PROCESSING_POLL_MS } from '#client/features/videos/api/while-processing.ts';
import {
  cardOf,
  createLinkVideo,
  expect,
  test,
  uniqueTitle,
  uploadMovVideo,
  type ApiUser,
} from './catalog-helpers';
import { loginViaApi } from './helpers';

/**
 * The small fixture is processed in well under a second, too fast to watch. The server's answers about this
 * video are held at `progress` percent while `held`, as a longer video's would be, then passed on as they are.
 */
async function holdProcessing(page: Page, path: string, videoId: number) {
  const hold = { held: true, progress: 40 };
  const asProcessing = (video: Video): Video =>
    video.id === videoId && hold.held
      ? {
          ...video,
          transcodingStatus: 'processing',
          transcodingProgress: hold.progress,
          thumbnailUrl: null,
          videoUrl: null,
          hlsUrl: null,
        }
      : video;
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Video | Video[];
      // Status and JSON only: the server's headers describe its (compressed) bytes, not these.
      await route.fulfill({
        status: response.status(),
        json: Array.isArray(body) ? body.map(asProcessing) : asProcessing(body),
      });
    },
  );
  return hold;
}

/** The API requests the page makes from now on. */
function apiRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) seen.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  return seen;
}

/** Long enough for several polls, had there been any. */
const QUIET_MS = 3 * PROCESSING_POLL_MS;

// Each test waits for a real upload to be processed, and the last one for several poll intervals.
test.describe.configure({ timeout: 60_000 });

async function readyUpload(newUser: () => Promise<ApiUser>, page: Page) {
  const capper = await newUser();
  const title = uniqueTitle('Live status');
  const video = await uploadMovVideo(capper.api, { title });
  await loginViaApi(page, capper);
  return { title, video };
}

test('a processing card on the dashboard shows its progress, then turns playable, by itself', async ({
  page,
  newUser,
}) => {
  const { title, video } = await readyUpload(newUser, page);
  const hold = await holdProcessing(page, '/api/user/videos', video.id);

  await page.goto('/dashboard?tab=uploads');
  const card = cardOf(page, title);
  await expect(card.getByTestId('processing-state')).toContainText('Processing 40%');
  hold.progress = 70;
  await expect(card.getByTestId('processing-state')).toContainText('Processing 70%');
  await expect(card.getByRole('progressbar', { name: `Processing ${title}` })).toHaveAttribute(
    'aria-valuenow',
    '70',
  );
  hold.held = false;
  await expect(card.getByRole('button', { name: `Play ${title}` })).toBeVisible();
  await expect(card.getByTestId('processing-state')).toHaveCount(0);

  // Once it is playable, the asking stops.
  const requests = apiRequests(page);
  await page.waitForTimeout(QUIET_MS);
  expect(requests).toEqual([]);
});

test("a video's own page goes from its processing overlay to its player by itself", async ({
  page,
  newUser,
}) => {
  const { title, video } = await readyUpload(newUser, page);
  const hold = await holdProcessing(page, `/api/videos/${video.id}`, video.id);

  await page.goto(`/video/${video.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByTestId('processing-state')).toContainText('Processing 40%');
  hold.progress = 85;
  await expect(page.getByTestId('processing-state')).toContainText('Processing 85%');
  hold.held = false;
  await expect(page.getByRole('button', { name: `Play ${title}` })).toBeVisible();
  await expect(page.getByTestId('processing-state')).toHaveCount(0);
});

test('nothing is polled while nothing shown is being processed', async ({ page, newUser }) => {
  const capper = await newUser();
  const link = uniqueTitle('Quiet link');
  const file = uniqueTitle('Quiet file');
  await createLinkVideo(capper.api, { title: link });
  await uploadMovVideo(capper.api, { title: file });
  await loginViaApi(page, capper);

  for (const path of ['/dashboard?tab=uploads', '/']) {
    await page.goto(path);
    await expect(cardOf(page, link)).toBeVisible();
    await expect(cardOf(page, file).getByRole('button', { name: `Play ${file}` })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const requests = apiRequests(page);
    await page.waitForTimeout(QUIET_MS);
    expect(requests, path).toEqual([]);
  }
});
