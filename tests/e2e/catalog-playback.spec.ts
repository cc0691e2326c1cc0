// Inline playback on the card (spec 2, 4, 8): our own files, direct file links, embeds, and each failure.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { mediaFixture } from '../setup/media-fixtures';
import {
  cardOf,
  createLinkVideo,
  expect,
  fakeVideo,
  serveHomeList,
  test,
  uniqueTitle,
  uploadMovVideo,
} from './catalog-helpers';
import { mediaUrl, toasts } from './helpers';

/** A host no test machine can reach: its requests are answered by the test itself. */
const FILE_HOST = 'https://media.pickreel.test';

async function serveFile(page: Page, path: string, body: Buffer | string, contentType: string, status = 200) {
  const served: string[] = [];
  await page.route(`${FILE_HOST}${path}`, (route) => {
    served.push(route.request().method());
    return route.fulfill({ status, body, contentType });
  });
  return served;
}

const currentTime = (page: Page) =>
  page.locator('video').evaluate((video: HTMLVideoElement) => video.currentTime);

test('an uploaded video plays inline with pause, mute and close, after a HEAD check of its file', async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const title = uniqueTitle('Inline MOV');
  const video = await uploadMovVideo(capper.api, { title });
  const heads: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'HEAD') heads.push(new URL(request.url()).pathname);
  });

  await page.goto('/');
  const card = cardOf(page, title);
  await card.getByRole('button', { name: `Play ${title}` }).click();
  const player = card.getByRole('group', { name: `${title} player` });
  await expect(player.locator('video')).toHaveAttribute('src', mediaUrl(video.id, 'video.mp4'));
  expect(heads).toContain(`/media/videos/${video.id}/video.mp4`);
  await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(0.2);

  await player.getByRole('button', { name: 'Pause' }).click();
  await expect(player).toHaveAttribute('data-phase', 'paused');
  await expect(page.locator('video')).toHaveJSProperty('paused', true);
  await player.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(player).toHaveAttribute('data-phase', /playing|ended/);

  const muted = await page.locator('video').evaluate((v: HTMLVideoElement) => v.muted);
  await player.getByRole('button', { name: muted ? 'Unmute' : 'Mute' }).click();
  await expect(page.locator('video')).toHaveJSProperty('muted', !muted);
  await expect(player.getByRole('button', { name: muted ? 'Mute' : 'Unmute' })).toBeVisible();

  // Close: back to the thumbnail, with focus on its play button.
  await player.getByRole('button', { name: 'Close player' }).click();
  await expect(player).toHaveCount(0);
  await expect(card.locator('video')).toHaveCount(0);
  await expect(card.getByRole('button', { name: `Play ${title}` })).toBeFocused();
});

test('Escape closes the player', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Escape');
  await uploadMovVideo(capper.api, { title });
  await page.goto('/');
  const card = cardOf(page, title);
  await card.getByRole('button', { name: `Play ${title}` }).click();
  const player = card.getByRole('group', { name: `${title} player` });
  await player
    .getByRole('button', { name: 'Mute' })
    .or(player.getByRole('button', { name: 'Unmute' }))
    .focus();
  await page.keyboard.press('Escape');
  await expect(player).toHaveCount(0);
  await expect(card.getByRole('button', { name: `Play ${title}` })).toBeFocused();
});

test('a direct .mp4 link plays in our player, without a HEAD check across origins', async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const title = uniqueTitle('MP4 link');
  await createLinkVideo(capper.api, { title, externalVideoUrl: `${FILE_HOST}/clips/pick.mp4` });
  const served = await serveFile(
    page,
    '/clips/pick.mp4',
    readFileSync(mediaFixture('mp4AsMov')),
    'video/mp4',
  );

  await page.goto('/');
  const card = cardOf(page, title);
  await card.getByRole('button', { name: `Play ${title}` }).click();
  const player = card.getByRole('group', { name: `${title} player` });
  await expect(player.locator('video')).toHaveAttribute('src', `${FILE_HOST}/clips/pick.mp4`);
  await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(0.1);
  expect(served).not.toContain('HEAD');
  await player.getByRole('button', { name: 'Close player' }).click();
  await expect(card.getByTestId('thumbnail-placeholder')).toBeVisible();
});

test('a YouTube link plays in the privacy-enhanced YouTube embed', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('YouTube link');
  await createLinkVideo(capper.api, { title, externalVideoUrl: 'https://youtu.be/dQw4w9WgXcQ' });
  // Offline: the frame's page is answered here; only its address is under test.
  await page.route('https://www.youtube-nocookie.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>player</title>' }),
  );

  await page.goto('/');
  const card = cardOf(page, title);
  await card.getByRole('button', { name: `Play ${title}` }).click();
  const frame = card.locator('iframe');
  await expect(frame).toHaveAttribute(
    'src',
    'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&playsinline=1&rel=0',
  );
  await expect(frame).toHaveAttribute('title', `${title} (YouTube player)`);
  await expect(frame).toHaveAttribute('allow', /autoplay/);
  await card.getByRole('button', { name: 'Close player' }).click();
  await expect(frame).toHaveCount(0);
});

test('a png link shows the image, and Image unavailable when it cannot load', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('PNG link');
  await createLinkVideo(capper.api, { title, externalVideoUrl: `${FILE_HOST}/slips/missing.png` });
  await serveFile(page, '/slips/missing.png', 'gone', 'text/plain', 404);

  await page.goto('/');
  const card = cardOf(page, title);
  await card.getByRole('button', { name: `Play ${title}` }).click();
  await expect(card.getByRole('alert')).toHaveText('Image unavailable');
  await expect(card.getByRole('img', { name: title })).toHaveCount(0);
});

test('a link to a site the card does not embed shows nothing', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Rumble link');
  await createLinkVideo(capper.api, { title, externalVideoUrl: 'https://rumble.com/v4abcd-pick.html' });

  await page.goto('/');
  const card = cardOf(page, title);
  await card.getByRole('button', { name: `Play ${title}` }).click();
  const player = card.getByRole('group', { name: `${title} player` });
  await expect(player.getByRole('button', { name: 'Close player' })).toBeVisible();
  await expect(player.locator('iframe, video, img')).toHaveCount(0);
  await expect(player).toHaveText('');
});

test('a file that is gone says Video Unavailable', async ({ page }) => {
  // A ready video whose file is missing: the HEAD check answers 404 (spec 7, 8).
  const video = fakeVideo({ title: 'Missing file' });
  await serveHomeList(page, [video]);
  await page.goto('/');
  await cardOf(page, 'Missing file').getByRole('button', { name: 'Play Missing file' }).click();
  await expect(cardOf(page, 'Missing file').getByRole('alert')).toHaveText(
    'Video Unavailable: This video is currently unavailable. It may have been removed or is still processing.',
  );
  await expect(cardOf(page, 'Missing file').locator('video')).toHaveCount(0);
});

test.describe('when the check cannot reach the server', () => {
  test.use({ allowedConsoleErrors: /net::ERR_FAILED/ });

  test('it says Network Error', async ({ page }) => {
    const video = fakeVideo({ title: 'Offline check' });
    await serveHomeList(page, [video]);
    await page.route(`**${video.videoUrl}`, (route) =>
      route.request().method() === 'HEAD' ? route.abort('failed') : route.continue(),
    );
    await page.goto('/');
    await cardOf(page, 'Offline check').getByRole('button', { name: 'Play Offline check' }).click();
    await expect(cardOf(page, 'Offline check').getByRole('alert')).toHaveText(
      "Network Error: We couldn't verify if this video exists. Please check your connection.",
    );
  });
});

test('a file that will not play is retried twice, then says Playback Error', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Broken file');
  await createLinkVideo(capper.api, { title, externalVideoUrl: `${FILE_HOST}/clips/broken.mp4` });
  await serveFile(page, '/clips/broken.mp4', 'this is not a video', 'video/mp4');
  // Loads are counted in the page: the browser may answer a reload from its cache.
  await page.addInitScript(() => {
    const counter = window as unknown as { videoLoads: number };
    counter.videoLoads = 0;
    window.addEventListener(
      'loadstart',
      (event) => {
        if ((event.target as Element).tagName === 'VIDEO') counter.videoLoads += 1;
      },
      true,
    );
  });
  const loads = () => page.evaluate(() => (window as unknown as { videoLoads: number }).videoLoads);

  await page.goto('/');
  const card = cardOf(page, title);
  await card.getByRole('button', { name: `Play ${title}` }).click();
  await expect(card.getByRole('alert')).toHaveText(
    'Playback Error: There was an issue playing this video. Please try again later.',
  );
  // The first load and the two recovery attempts (spec 4: after 200 ms, then 500 ms), and no more.
  expect(await loads()).toBe(3);
  await expect(toasts(page).filter({ hasText: 'Please press the refresh button' })).toBeVisible();

  await card.getByRole('button', { name: 'Try again' }).click();
  await expect.poll(loads).toBe(6);
  await expect(card.getByRole('alert')).toContainText('Playback Error');
});

test.describe('when the browser blocks playback', () => {
  test('autoplay with sound blocked: it plays muted instead', async ({ page, newUser }) => {
    const capper = await newUser();
    const title = uniqueTitle('Autoplay blocked');
    await uploadMovVideo(capper.api, { title });
    // As browsers do without a user gesture they count: sound may not start by itself.
    await page.addInitScript(() => {
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        if (!this.muted) return Promise.reject(new DOMException('blocked', 'NotAllowedError'));
        return play.call(this);
      };
    });
    await page.goto('/');
    const card = cardOf(page, title);
    await card.getByRole('button', { name: `Play ${title}` }).click();
    await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThan(0.1);
    await expect(page.locator('video')).toHaveJSProperty('muted', true);
    await expect(card.getByRole('button', { name: 'Unmute' })).toBeVisible();
  });

  test('any playback refused: a toast says so', async ({ page, newUser }) => {
    const capper = await newUser();
    const title = uniqueTitle('Playback refused');
    await uploadMovVideo(capper.api, { title });
    await page.addInitScript(() => {
      HTMLMediaElement.prototype.play = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));
    });
    await page.goto('/');
    await cardOf(page, title)
      .getByRole('button', { name: `Play ${title}` })
      .click();
    const toast = toasts(page).filter({ hasText: 'Video playback error' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('Could not play the video. Please try again.');
    await expect(cardOf(page, title).getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  });
});

test('an owner sees pending, processing with its percent, and failed with the reason', async ({ page }) => {
  await serveHomeList(page, [
    fakeVideo({ title: 'Queued pick', transcodingStatus: 'pending', transcodingProgress: 0, isOwner: true }),
    fakeVideo({
      title: 'Busy pick',
      transcodingStatus: 'processing',
      transcodingProgress: 42,
      isOwner: true,
    }),
    fakeVideo({
      title: 'Broken pick',
      transcodingStatus: 'failed',
      transcodingError: 'The file has no video stream.',
      isOwner: true,
    }),
  ]);
  await page.goto('/');
  await expect(cardOf(page, 'Queued pick').getByTestId('processing-state')).toContainText('Pending');
  const busy = cardOf(page, 'Busy pick');
  await expect(busy.getByTestId('processing-state')).toContainText('Processing 42%');
  await expect(busy.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42');
  const broken = cardOf(page, 'Broken pick');
  await expect(broken.getByTestId('processing-state')).toContainText('Processing failed');
  await expect(broken.getByTestId('processing-state')).toContainText('The file has no video stream.');
  // Nothing to play yet: no play button, no Watch.
  for (const title of ['Queued pick', 'Busy pick', 'Broken pick']) {
    await expect(cardOf(page, title).getByRole('button', { name: `Play ${title}` })).toHaveCount(0);
    await expect(cardOf(page, title).getByRole('button', { name: 'Watch', exact: true })).toHaveCount(0);
    await expect(cardOf(page, title).getByText('Your Video')).toBeVisible();
  }
});

test('a broken thumbnail becomes the grey Thumbnail placeholder', async ({ page }) => {
  await serveHomeList(page, [
    fakeVideo({ title: 'Broken thumbnail', thumbnailUrl: '/media/videos/900000999/thumbnail.jpg' }),
  ]);
  await page.goto('/');
  const card = cardOf(page, 'Broken thumbnail');
  await expect(card.getByTestId('thumbnail-placeholder')).toHaveText('Thumbnail');
  await expect(card.locator('img')).toHaveCount(0);
});

test('Vimeo and X links play in their own embeds', async ({ page }) => {
  await serveHomeList(page, [
    fakeVideo({ title: 'Vimeo pick', isExternalVideo: true, externalVideoUrl: 'https://vimeo.com/76979871' }),
    fakeVideo({
      title: 'X pick',
      isExternalVideo: true,
      externalVideoUrl: 'https://x.com/sharpcapper/status/1790000000000000000',
    }),
  ]);
  await page.route(/^https:\/\/(player\.vimeo\.com|platform\.twitter\.com)\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>player</title>' }),
  );
  await page.goto('/');
  await cardOf(page, 'Vimeo pick').getByRole('button', { name: 'Play Vimeo pick' }).click();
  await expect(cardOf(page, 'Vimeo pick').locator('iframe')).toHaveAttribute(
    'src',
    'https://player.vimeo.com/video/76979871?autoplay=1&playsinline=1',
  );
  await cardOf(page, 'X pick').getByRole('button', { name: 'Play X pick' }).click();
  await expect(cardOf(page, 'X pick').locator('iframe')).toHaveAttribute(
    'src',
    'https://platform.twitter.com/embed/Tweet.html?id=1790000000000000000&dnt=true',
  );
});

test('an Instagram post that never loads is reloaded once, then offers to open it on Instagram', async ({
  page,
}) => {
  await serveHomeList(page, [
    fakeVideo({
      title: 'Instagram pick',
      isExternalVideo: true,
      externalVideoUrl: 'https://www.instagram.com/reel/C1a2b3c4d5e/',
    }),
  ]);
  // The post's frame never answers; the page's clock is the test's, so the waits take no time.
  const frames: string[] = [];
  await page.route('https://www.instagram.com/**', (route) => {
    frames.push(route.request().url());
  });
  await page.clock.install();
  await page.goto('/');
  const card = cardOf(page, 'Instagram pick');
  await card.getByRole('button', { name: 'Play Instagram pick' }).click();
  await page.clock.runFor(200);
  await expect(card.locator('iframe')).toHaveAttribute(
    'src',
    'https://www.instagram.com/reel/C1a2b3c4d5e/embed',
  );
  await expect.poll(() => frames.length).toBe(1);

  await page.clock.runFor(15_000 + 1_000);
  await expect.poll(() => frames.length).toBe(2);
  await expect(card.getByRole('alert')).toHaveCount(0);

  await page.clock.runFor(15_000);
  await expect(card.getByRole('alert')).toHaveText(
    'Unable to load Instagram content. The post may be private or unavailable.',
  );
  const open = card.getByRole('link', { name: /Open on Instagram/ });
  await expect(open).toHaveAttribute('href', 'https://www.instagram.com/reel/C1a2b3c4d5e/');
  await expect(open).toHaveAttribute('target', '_blank');
  await expect(open).toHaveAttribute('rel', 'noopener noreferrer');
});
