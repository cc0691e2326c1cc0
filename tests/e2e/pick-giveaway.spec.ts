// Selling only what is still secret (docs/decisions/028): the upload and edit forms name, as the capper
// types, the words that give the sealed pick away, and send nothing while they do; the category is the legs'
// league, shown read-only, and the pick is found under that league's filter. Desktop and a 390 px phone.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { Video } from '#common/schemas/videos.js';
import { cardOf, uniqueTitle } from './catalog-helpers';
import { expect, test } from './fixtures';
import { registerAndLogin, toasts } from './helpers';

const HOUR = 3600_000;
const YOUTUBE = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';

/** Two teams no other test uses: 'Knicks <tag>' and 'Celtics <tag>', so 'Knicks' names one of them. */
function teams() {
  const tag = randomBytes(3).toString('hex');
  return { home: `Celtics ${tag}`, away: `Knicks ${tag}` };
}

function startIn(hours: number): string {
  const date = new Date(Date.now() + hours * HOUR);
  date.setUTCSeconds(0, 0);
  return date.toISOString().replace('.000Z', 'Z');
}

const giveaway = (field: string, words: string) =>
  `The ${field} gives the pick away: "${words}". Describe the pick without its side, line or market.`;

/** Adds a self-reported NBA moneyline leg on the away team through the legs editor. */
async function addMoneylineLeg(page: Page, game: { home: string; away: string }) {
  await page.getByRole('button', { name: 'Add leg' }).click();
  const legForm = page.getByTestId('leg-form');
  await legForm.getByLabel('League').selectOption('NBA');
  await legForm.getByRole('radio', { name: 'Add a game' }).check();
  await legForm.getByLabel('Home team').fill(game.home);
  await legForm.getByLabel('Away team').fill(game.away);
  const start = await page.evaluate(() => {
    const date = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  });
  await legForm.getByLabel('Start').fill(start);
  await legForm.getByLabel('Market', { exact: true }).selectOption('moneyline');
  await legForm.getByRole('radio', { name: `${game.away} (away)` }).check();
  await legForm.getByLabel('Odds', { exact: true }).fill('+120');
  await legForm.getByRole('button', { name: 'Save leg' }).click();
  await expect(page.getByTestId('leg-row')).toHaveCount(1);
}

/** Counts the requests that would post or change a video. */
function countWrites(page: Page): { count: number } {
  const writes = { count: 0 };
  page.on('request', (request) => {
    if (['POST', 'PATCH'].includes(request.method()) && /\/api\/(videos|uploads)/.test(request.url()))
      writes.count += 1;
  });
  return writes;
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test.describe(`on ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the upload form names the words that give the pick away, live, refuses them, and files the pick under its league', async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await registerAndLogin(page);
      await page.goto('/upload');
      const form = page.getByRole('form', { name: 'Upload a video' });
      const game = teams();
      const nickname = game.away.split(' ')[0]!;
      await form.getByLabel('Title').fill(`${nickname} ML tonight`);
      await form.getByLabel('Description').fill('Line movement and injuries, explained');
      await form.getByLabel('Winning selections').fill(`${game.away} ML`);
      await form.getByLabel('Price ($)').fill('12');
      await form.getByLabel('External video URL').fill(YOUTUBE);
      // Without legs nothing is sealed, so nothing is given away.
      const titleNotice = page.getByTestId('giveaway-title');
      await expect(titleNotice).toHaveAttribute('aria-live', 'polite');
      await expect(titleNotice).toHaveText('');
      await expect(form.getByLabel('Category')).toHaveValue('General');

      await addMoneylineLeg(page, game);
      await expect(titleNotice).toHaveText(giveaway('title', `${nickname} ML`));
      await expect(form.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
      // The category follows the legs, read-only.
      await expect(form.getByLabel('Category')).toHaveValue('NBA');
      await expect(form.getByLabel('Category')).toHaveAttribute('readonly', '');

      // The description is checked as it is typed too.
      await form.getByLabel('Description').fill(`Take the ${nickname} moneyline`);
      await expect(page.getByTestId('giveaway-description')).toHaveText(
        giveaway('description', `${nickname} moneyline`),
      );

      const writes = countWrites(page);
      await form.getByRole('button', { name: 'Upload Video' }).click();
      await expect(form.getByLabel('Title')).toBeFocused();
      expect(writes.count).toBe(0);

      const title = uniqueTitle(`${nickname} vs Celtics preview`);
      await form.getByLabel('Title').fill(title);
      await form.getByLabel('Description').fill('Big night in Boston: my best bet');
      await expect(titleNotice).toHaveText('');
      await expect(page.getByTestId('giveaway-description')).toHaveText('');
      await form.getByRole('button', { name: 'Upload Video' }).click();
      await expect(toasts(page).filter({ hasText: 'Upload successful' })).toBeVisible();
      await page.waitForURL((url) => url.pathname === '/');

      // Found under NBA, by the catalog's own filter.
      await page.goto(`/videos?q=${encodeURIComponent(title)}&category=NBA`);
      await expect(cardOf(page, title)).toBeVisible();
      const mine = (await (await page.request.get('/api/user/videos')).json()) as Video[];
      expect(mine.find((video) => video.title === title)?.category).toBe('NBA');
    });

    test('the edit page names the words live, sends nothing while they give the pick away, and shows the category read-only', async ({
      page,
    }) => {
      await registerAndLogin(page);
      const game = teams();
      const nickname = game.away.split(' ')[0]!;
      const response = await page.request.post('/api/videos', {
        multipart: {
          title: uniqueTitle('Edit giveaway'),
          description: 'Why the line is off, explained.',
          emailInformation: 'The away side',
          price: '25',
          category: 'General',
          isPremium: 'true',
          duration: '95',
          isExternalVideo: 'true',
          externalVideoUrl: YOUTUBE,
          legs: JSON.stringify([
            {
              league: 'NBA',
              home: game.home,
              away: game.away,
              startsAt: startIn(30),
              market: 'spread',
              side: game.away,
              line: 4.5,
              odds: -110,
              units: 1,
            },
          ]),
          parlay: 'false',
        },
      });
      expect(response.status(), await response.text()).toBe(201);
      const video = (await response.json()) as Video;
      expect(video.category).toBe('NBA');

      await page.goto(`/edit-video/${video.id}`);
      const form = page.getByRole('form', { name: 'Edit video' });
      await expect(page.getByTestId('leg-row')).toHaveCount(1);
      await expect(form.getByLabel('Category')).toHaveValue('NBA');
      await expect(form.getByLabel('Category')).toHaveAttribute('readonly', '');

      const titleNotice = page.getByTestId('giveaway-title');
      await expect(titleNotice).toHaveAttribute('aria-live', 'polite');
      await form.getByLabel('Title').fill(`${nickname} +4.5 at Boston`);
      await expect(titleNotice).toHaveText(giveaway('title', `${nickname} +4.5`));
      const writes = countWrites(page);
      await form.getByRole('button', { name: 'Save changes' }).click();
      await expect(form.getByLabel('Title')).toBeFocused();
      expect(writes.count).toBe(0);

      await form.getByLabel('Title').fill(`${nickname} at Boston, Friday`);
      await expect(titleNotice).toHaveText('');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await expect(toasts(page).filter({ hasText: 'Video updated' })).toBeVisible();
    });
  });
}
