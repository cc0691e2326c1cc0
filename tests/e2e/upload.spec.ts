// The /upload page (spec 2, 5, 8): validation, a small MOV that ends up playing on its card, a YouTube link.
import { copyFileSync, mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { largeMovFixture, mediaFixture } from '../setup/media-fixtures';
import { expect, test } from './fixtures';
import {
  accountMenuButton,
  expectUploadSuccessful,
  mediaUrl,
  recordTusTraffic,
  registerAndLogin,
  toasts,
} from './helpers';

async function openUploadPage(page: Page) {
  await registerAndLogin(page);
  await page.goto('/upload');
  await expect(page.getByRole('heading', { name: 'Upload a New Video' })).toBeVisible();
  return page.getByRole('form', { name: 'Upload a video' });
}

async function fillDetails(page: Page, title: string) {
  const form = page.getByRole('form', { name: 'Upload a video' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Line movement and injuries, explained');
  await form.getByLabel('Winning selections').fill('Lakers +4.5 (2 units)');
  await form.getByLabel('Price ($)').fill('12');
}

test('shows the spec messages and keeps file and link exclusive', async ({ page }) => {
  const form = await openUploadPage(page);
  await expect(form.getByLabel('Category')).toHaveValue('General');
  await expect(form.getByText('minimum $1')).toBeVisible();
  await expect(form.getByText('youtu.be/ID', { exact: false })).toBeVisible();

  await form.getByRole('button', { name: 'Upload Video' }).click();
  await expect(form.getByText('Title is required')).toBeVisible();
  await expect(form.getByText('Description is required')).toBeVisible();
  await expect(form.getByText('Price must be at least $0.99')).toBeVisible();
  await expect(form.getByText('Either a video file or external URL is required')).toBeVisible();
  await expect(form.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('External video URL').fill('not a link');
  await form.getByRole('button', { name: 'Upload Video' }).click();
  await expect(form.getByText('Please enter a valid URL')).toBeVisible();
  await form.getByLabel('External video URL').fill('https://www.youtube.com/watch?v=short');
  await form.getByRole('button', { name: 'Upload Video' }).click();
  await expect(form.getByText(/^Invalid YouTube URL\. Accepted formats: YouTube: /)).toBeVisible();

  // A PNG is not a MOV; choosing a file clears the link.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-e2e-upload-'));
  const png = path.join(dir, 'picture.png');
  copyFileSync(mediaFixture('pngAsMov'), png);
  await form.getByLabel('MOV file').setInputFiles(png);
  await expect(form.getByLabel('External video URL')).toHaveValue('');
  await expect(form.getByText('Only MOV video files are accepted')).toBeVisible();

  // Entering a link clears the file.
  await form.getByLabel('MOV file').setInputFiles(mediaFixture('h264Mov'));
  await expect(page.getByTestId('chosen-file')).toContainText('h264.mov');
  await form.getByLabel('External video URL').fill('https://youtu.be/dQw4w9WgXcQ');
  await expect(page.getByTestId('chosen-file')).toHaveCount(0);
  await expect(form.getByLabel('MOV file')).toHaveValue('');
});

test('uploads a small MOV with real progress, then plays it on its card', async ({ page }) => {
  // The title as it stands when the success toast appears: the page moves on to / a second later, which
  // a loaded machine can reach before a locator would look at the form.
  await page.addInitScript(() => {
    const seen = window as unknown as { titleAtSuccess?: string };
    new MutationObserver(() => {
      if (seen.titleAtSuccess !== undefined) return;
      const toast = [...document.querySelectorAll('li')].find((li) =>
        li.textContent?.includes('Upload successful'),
      );
      if (!toast) return;
      const input = document.querySelector<HTMLInputElement>(
        'form[aria-label="Upload a video"] input[name="title"]',
      );
      seen.titleAtSuccess = input ? input.value : '(no form)';
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  const form = await openUploadPage(page);
  const title = `Upload e2e ${Date.now()}`;
  await fillDetails(page, title);
  await form.getByLabel('MOV file').setInputFiles(mediaFixture('h264Mov'));
  // The duration comes from the file's own metadata (spec 5).
  await expect(page.getByTestId('chosen-file')).toContainText('0:02');
  await form.getByRole('button', { name: 'Upload Video' }).click();

  await expect(toasts(page).filter({ hasText: 'Upload successful' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { titleAtSuccess?: string }).titleAtSuccess)).toBe(
    '',
  );
  await page.waitForURL((url) => url.pathname === '/');

  // The server processes it in the background; once ready it is in the catalog.
  const mine = await page.request.get('/api/user/videos');
  const video = ((await mine.json()) as Array<{ id: number; title: string }>).find((v) => v.title === title)!;
  expect(video).toBeTruthy();
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/videos/${video.id}`)).json()) as { transcodingStatus: string })
          .transcodingStatus,
      {
        timeout: 30_000,
      },
    )
    .toBe('ready');

  await page.reload();
  const card = page.getByRole('article', { name: title });
  await card.getByRole('button', { name: `Play ${title}` }).click();
  const player = card.locator('video');
  await expect(player).toHaveAttribute('src', mediaUrl(video.id, 'video.mp4'));
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.2);
});

test("a small MOV's progress climbs to 100% before 'Processing', never going back to 0", async ({ page }) => {
  // Every state the progress bar shows, as the page commits it (a small file is sent in a moment).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]');
      const state = bar
        ? `${bar.getAttribute('aria-valuenow')}|${bar.getAttribute('aria-valuetext')}`
        : 'none';
      if (seen.at(-1) !== state) seen.push(state);
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  const form = await openUploadPage(page);
  await fillDetails(page, `Progress e2e ${Date.now()}`);
  await form.getByLabel('MOV file').setInputFiles(mediaFixture('h264Mov'));
  await form.getByRole('button', { name: 'Upload Video' }).click();
  // What the server does next stays in view until the page moves on to the home page.
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute(
    'aria-valuetext',
    'Processing…',
  );
  await page.waitForURL((url) => url.pathname === '/');

  const seen = await page.evaluate(() =>
    (window as unknown as { progressSeen: string[] }).progressSeen.filter((state) => state !== 'none'),
  );
  const percents = seen.map((state) => Number(state.split('|')[0]));
  expect(percents, seen.join(', ')).toEqual([...percents].sort((a, b) => a - b));
  const full = seen.indexOf('100|Uploading… 100%');
  const processing = seen.indexOf('100|Processing…');
  expect(full, seen.join(', ')).toBeGreaterThanOrEqual(0);
  expect(processing, seen.join(', ')).toBeGreaterThan(full);
});

test('a MOV uploaded through the form is on the home page and the dashboard at once, and turns playable there by itself', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const form = await openUploadPage(page);
  const title = `Live e2e ${Date.now()}`;
  await fillDetails(page, title);
  // A re-encode of a few seconds: still being processed when the user lands on the home page.
  await form.getByLabel('MOV file').setInputFiles(mediaFixture('slowMov'));
  await form.getByRole('button', { name: 'Upload Video' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  // Set once: it would be gone after a reload.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  const card = page.getByRole('article', { name: title });
  await expect(card.getByTestId('processing-state')).toBeVisible();
  await expect(card.getByText('Your Video')).toBeVisible();

  // The dashboard, through the app's own menu: the same upload, updating itself until it can be played.
  await accountMenuButton(page).click();
  await page.getByRole('menuitem', { name: 'Dashboard' }).click();
  await page.getByRole('tab', { name: 'Your Uploads' }).click();
  const dashboardCard = page.getByRole('article', { name: title });
  await expect(dashboardCard).toBeVisible();
  await expect(dashboardCard.getByRole('button', { name: `Play ${title}` })).toBeVisible({ timeout: 60_000 });
  await expect(dashboardCard.getByTestId('processing-state')).toHaveCount(0);

  // Back on the home page the card it showed processing is playable too, at once.
  await page.goBack();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(card.getByRole('button', { name: `Play ${title}` })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  );
});

test('uploads a YouTube link: ready at once, on the home page', async ({ page }) => {
  const form = await openUploadPage(page);
  const title = `Link e2e ${Date.now()}`;
  await fillDetails(page, title);
  await form.getByLabel('External video URL').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  await form.getByRole('button', { name: 'Upload Video' }).click();
  await expect(toasts(page).filter({ hasText: 'Upload successful' })).toBeVisible();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('article', { name: title })).toBeVisible();
});

test('shows the spec message when the server refuses the file', async ({ page }) => {
  const form = await openUploadPage(page);
  await fillDetails(page, `Refused e2e ${Date.now()}`);
  // An MP4 named .mov passes the form (name and type) but not the server's check of its bytes.
  await form.getByLabel('MOV file').setInputFiles(mediaFixture('mp4AsMov'));
  await form.getByRole('button', { name: 'Upload Video' }).click();
  const toast = toasts(page).filter({ hasText: 'Upload failed' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Invalid video format. Please upload a MOV format video file.');
  await expect(page).toHaveURL(/\/upload$/);
  await expect(form.getByRole('button', { name: 'Upload Video' })).toBeEnabled();
});

test('sends a file above 50 MB over tus and resumes it after a reload', async ({ page }) => {
  test.setTimeout(120_000);
  const file = largeMovFixture(60 * 1024 * 1024);
  const tus = recordTusTraffic(page);
  const form = await openUploadPage(page);
  const title = `Resumable e2e ${Date.now()}`;
  // Slow the upload down (Chromium's own throttling) so the reload lands in the middle of it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 6 * 1024 * 1024,
  });
  const tusRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/uploads'))
      tusRequests.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });

  await fillDetails(page, title);
  await form.getByLabel('MOV file').setInputFiles(file);
  await form.getByRole('button', { name: 'Upload Video' }).click();
  const progress = page.getByRole('progressbar', { name: 'Upload progress' });
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(15);
  const created = tusRequests.filter((r) => r === 'POST /api/uploads');
  expect(created).toHaveLength(1);
  const uploadPath = tusRequests.find((r) => r.startsWith('PATCH '))!.split(' ')[1]!;

  await page.reload();
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  tusRequests.length = 0;
  await fillDetails(page, title);
  await form.getByLabel('MOV file').setInputFiles(file);
  await form.getByRole('button', { name: 'Upload Video' }).click();
  await expectUploadSuccessful(page, tus, 60_000);
  // The same upload went on where it stopped: no new one was created.
  expect(tusRequests).not.toContain('POST /api/uploads');
  expect(tusRequests[0]).toBe(`HEAD ${uploadPath}`);

  const mine = (await (await page.request.get('/api/user/videos')).json()) as Array<{
    id: number;
    title: string;
  }>;
  const video = mine.find((v) => v.title === title)!;
  const original = await page.request.head(`/media/videos/${video.id}/original.mov`);
  expect(original.headers()['content-length']).toBe(String(statSync(file).size));
});

test('Cancel during a tus upload ends it on the server (tus DELETE), not only in the browser', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const file = largeMovFixture(60 * 1024 * 1024);
  const form = await openUploadPage(page);
  // Slowed down (Chromium's own throttling) so Cancel lands in the middle of the upload.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 6 * 1024 * 1024,
  });
  const patched: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH') patched.push(new URL(request.url()).pathname);
  });

  await fillDetails(page, `Cancelled e2e ${Date.now()}`);
  await form.getByLabel('MOV file').setInputFiles(file);
  await form.getByRole('button', { name: 'Upload Video' }).click();
  const progress = page.getByRole('progressbar', { name: 'Upload progress' });
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(10);
  const uploadPath = patched[0]!;
  // A DELETE racing the PATCH it interrupted may be told 423 first; tus-js-client then retries it.
  const terminated = page.waitForResponse(
    (response) =>
      response.request().method() === 'DELETE' &&
      new URL(response.url()).pathname === uploadPath &&
      response.status() === 204,
  );
  await form.getByRole('button', { name: 'Cancel' }).click();
  await terminated;
  await expect(form.getByRole('button', { name: 'Upload Video' })).toBeEnabled();
  // Gone on the server: its bytes and its place among the owner's open uploads.
  const head = await page.request.head(uploadPath, { headers: { 'Tus-Resumable': '1.0.0' } });
  expect(head.status()).toBe(404);
});
