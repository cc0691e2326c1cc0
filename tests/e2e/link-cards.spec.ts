// A link video shows what can be known of it without asking its site: YouTube's picture of the
// video (from its id), else the site's name in place of a picture; a duration nobody gave is 'Not specified'.
import { cardOf, createLinkVideo, expect, test, uniqueTitle } from './catalog-helpers';
import { TINY_JPEG, YOUTUBE_IMAGE_HOST } from './fixtures';

test("a YouTube link's card and page show YouTube's thumbnail of that video", async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('YouTube picture');
  const youtubeId = 'aqz-KE-bpKQ';
  const video = await createLinkVideo(capper.api, {
    title,
    externalVideoUrl: `https://www.youtube.com/shorts/${youtubeId}`,
    duration: null,
  });
  // The tests run offline: YouTube's image host answers from here, and says what was asked of it.
  const asked: string[] = [];
  await page.route(`${YOUTUBE_IMAGE_HOST}/**`, (route) => {
    asked.push(route.request().url());
    return route.fulfill({ body: TINY_JPEG, contentType: 'image/jpeg' });
  });
  const thumbnail = `https://i.ytimg.com/vi/${youtubeId}/hqdefault.jpg`;

  await page.goto('/');
  const card = cardOf(page, title);
  const picture = card.locator('img');
  await expect(picture).toHaveAttribute('src', thumbnail);
  await picture.scrollIntoViewIfNeeded();
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);
  expect(asked).toContain(thumbnail);
  await expect(card.getByTestId('thumbnail-placeholder')).toHaveCount(0);
  // Nothing can know a link's duration: the card claims none.
  await expect(card).not.toContainText(/\d:\d\d/);

  await page.goto(`/video/${video.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.locator('main img').first()).toHaveAttribute('src', thumbnail);
  const duration = page.locator('dl > div').filter({ has: page.locator('dt', { hasText: /^Duration$/ }) });
  await expect(duration.locator('dd')).toHaveText('Not specified');
});

test("a link to a site whose picture cannot be known shows that site's name, not a grey box", async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const vimeo = uniqueTitle('Vimeo link');
  const elsewhere = uniqueTitle('Other site link');
  await createLinkVideo(capper.api, { title: vimeo, externalVideoUrl: 'https://vimeo.com/76979871' });
  await createLinkVideo(capper.api, {
    title: elsewhere,
    externalVideoUrl: 'https://www.dailymotion.com/video/x8abcde',
  });

  await page.goto('/');
  await expect(cardOf(page, vimeo).getByTestId('thumbnail-placeholder')).toHaveText('Vimeo');
  await expect(cardOf(page, elsewhere).getByTestId('thumbnail-placeholder')).toHaveText('dailymotion.com');
  for (const title of [vimeo, elsewhere]) await expect(cardOf(page, title).locator('img')).toHaveCount(0);
});
