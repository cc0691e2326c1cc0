// The admin's Results tab ('Graded by the scoreboard'): an event past its start is settled with
// its final score, after a confirmation, and the pick on it is graded for everyone (GET /api/picks/{id}).
import { randomBytes } from 'node:crypto';
import type { PickView } from '#common/schemas/pick-views.js';
import type { UnsettledEventPage } from '#common/schemas/results.js';
import type { Video } from '#common/schemas/videos.js';
import { expect, test } from './admin-fixtures';
import { toasts } from './helpers';

test('an admin settles an event in the Results tab and the pick on it is graded', async ({
  adminPage: page,
  createUser,
}) => {
  const capper = await createUser();
  const tag = randomBytes(3).toString('hex');
  const home = `Results Home ${tag}`;
  const away = `Results Away ${tag}`;
  // A leg must start in the future when posted: this one starts in a few seconds.
  const startsAt = new Date(Math.ceil((Date.now() + 4000) / 1000) * 1000);
  const posted = await capper.api.post('/api/videos', {
    multipart: {
      title: `Results e2e ${tag}`,
      description: 'The home side wins outright.',
      emailInformation: `${home} moneyline`,
      price: '10',
      category: 'NBA',
      isPremium: 'true',
      duration: '60',
      isExternalVideo: 'true',
      externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      legs: JSON.stringify([
        {
          league: 'NBA',
          home,
          away,
          startsAt: startsAt.toISOString().replace('.000Z', 'Z'),
          market: 'moneyline',
          side: home,
          line: null,
          odds: -110,
          units: 1,
        },
      ]),
      parlay: 'false',
    },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  const video = (await posted.json()) as Video;

  // Once the game has started it waits for its result (oldest first, so it may be on a later page).
  await expect
    .poll(
      async () => {
        const res = await page.request.get('/api/admin/results?limit=100');
        const list = (await res.json()) as UnsettledEventPage;
        return list.events.some((event) => event.home === home);
      },
      { timeout: 20_000 },
    )
    .toBe(true);

  await page.goto('/admin?tab=results');
  await expect(page.getByRole('tab', { name: 'Results', selected: true })).toBeVisible();
  const card = page.getByRole('article', { name: `${away} at ${home}` });
  const next = page.getByRole('button', { name: 'Next' });
  await expect(page.getByRole('heading', { name: /Events to settle/ })).toBeVisible();
  while (!(await card.isVisible()) && (await next.isVisible()) && (await next.isEnabled())) {
    await next.click();
  }
  await expect(card).toBeVisible();
  await expect(card).toContainText('1 leg');

  // A score that is not a whole number from 0 to 999 is refused on the spot, with nothing sent.
  await card.getByLabel(`${away} (away)`).fill('98');
  await card.getByLabel(`${home} (home)`).fill('-1');
  await card.getByRole('button', { name: /Save the final score/ }).click();
  await expect(card.getByText('The home score must be a whole number from 0 to 999')).toBeVisible();

  await card.getByLabel(`${home} (home)`).fill('101');
  await card.getByRole('button', { name: /Save the final score/ }).click();
  const confirm = page.getByRole('alertdialog', { name: `Settle ${away} at ${home}?` });
  await expect(confirm).toContainText(`Final score: ${away} 98, ${home} 101.`);
  await confirm.getByRole('button', { name: 'Settle' }).click();
  await expect(toasts(page).filter({ hasText: 'Result saved' })).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(card).toBeHidden();

  // Settled: listed among the recent results, and the pick is graded for everyone.
  await expect(
    page
      .getByRole('region', { name: /Recently settled/ })
      .getByRole('button', { name: `Correct: ${away} at ${home}` }),
  ).toBeVisible();
  const pick = await page.request.get(`/api/picks/${video.id}`);
  expect(pick.status()).toBe(200);
  expect((await pick.json()) as PickView).toMatchObject({ status: 'graded', result: 'win', unitsWon: 0.91 });
});
