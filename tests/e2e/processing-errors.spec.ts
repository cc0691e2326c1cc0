// No raw internal errors reach clients: a video whose processing failed tells its owner why in
// product words on its card, never ffmpeg's or Node's text.
import type { Video } from '#common/schemas/videos.js';
import { MEDIA_FAILURES } from '#server/media/ffmpeg.js';
import { cardOf, expect, test, uniqueTitle } from './catalog-helpers';
import { loginViaApi } from './helpers';

/** A file that passes the MOV check by its first bytes but is no video at all. */
const BROKEN_MOV = Buffer.concat([
  Buffer.from([0, 0, 0, 20]),
  Buffer.from('ftypqt  \0\0\0\0qt  ', 'latin1'),
  Buffer.alloc(4096, 7),
]);

test("a failed video's card shows its owner why, in product words", async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Broken upload');
  const res = await capper.api.post('/api/videos', {
    multipart: {
      title,
      description: 'Line movement and injuries, explained.',
      emailInformation: 'Lakers +4.5 (2 units)',
      price: '25',
      category: 'General',
      isPremium: 'true',
      isExternalVideo: 'false',
      video: { name: 'broken.mov', mimeType: 'video/quicktime', buffer: BROKEN_MOV },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as Video;
  await expect
    .poll(
      async () => ((await (await capper.api.get(`/api/videos/${id}`)).json()) as Video).transcodingStatus,
      { timeout: 30_000 },
    )
    .toBe('failed');

  await loginViaApi(page, capper);
  await page.goto('/dashboard?tab=uploads');
  const state = cardOf(page, title).getByTestId('processing-state');
  await expect(state).toContainText('Processing failed');
  await expect(state).toContainText(MEDIA_FAILURES.unreadable);
  await expect(state).not.toContainText('ffprobe');
  await expect(state).not.toContainText('exited with');
});
