// A capper's record (issue 14, "The record"): the profile after picks are graded by an admin's final
// score (record, chart, revealed legs), open sealed picks and unverified videos, the leaderboard's filters
// in the URL and its empty state, the 404, and the keyboard.
import type { APIRequestContext } from '@playwright/test';
import type { PickView } from '#common/schemas/pick-views.js';
import { E2E_ADMIN } from '../setup/e2e-env';
import { createLinkVideo, expect, test, uniqueTitle } from './catalog-helpers';
import { newLeg as anyLeg, postPick as postAnyPick, startedEventId, type TestLeg } from './pick-helpers';

/** An NBA moneyline on the home side, on a game of its own. */
const newLeg = (startsAt: Date, overrides: Record<string, unknown> = {}) =>
  anyLeg(startsAt, { league: 'NBA', market: 'moneyline', line: null, ...overrides });
/** Straight picks only, however many legs. */
const postPick = (api: APIRequestContext, title: string, legs: TestLeg[]) =>
  postAnyPick(api, title, legs, { parlay: false });

test('a capper profile shows open sealed picks, unverified videos and an empty record', async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const legs = [newLeg(new Date(Date.now() + 48 * 3600_000)), newLeg(new Date(Date.now() + 48 * 3600_000))];
  const open = await postPick(capper.api, uniqueTitle('Open pick'), legs);
  await createLinkVideo(capper.api, { title: uniqueTitle('No legs') });
  await createLinkVideo(capper.api, { title: uniqueTitle('No legs either') });

  await page.goto(`/cappers/${capper.username}`);
  await expect(page.getByRole('heading', { level: 1, name: capper.username })).toBeVisible();
  const openSection = page.getByRole('region', { name: /Open picks/ });
  await expect(openSection.getByRole('heading')).toHaveText('Open picks (1)');
  await expect(openSection.getByRole('listitem')).toContainText(open.title);
  await expect(openSection.getByRole('listitem')).toContainText('2 legs, sealed');
  await expect(openSection.getByRole('listitem')).toContainText(open.pick!.commitment);
  // Sealed: nothing of the legs on the page before grading.
  await expect(page.locator('body')).not.toContainText(legs[0]!.home);
  await expect(page.locator('body')).not.toContainText(legs[1]!.home);
  await expect(page.getByTestId('unverified-count')).toHaveText(
    '2 videos were posted without a sealed pick (unverified): they never count in the record.',
  );
  await expect(page.getByRole('region', { name: 'Graded picks (0)' })).toContainText('No graded picks yet');
  await expect(page.getByRole('img', { name: 'No graded picks yet.' })).toBeVisible();
});

test("a capper's profile shows the record, the chart and the revealed legs once an admin grades the picks", async ({
  page,
  newUser,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.slow();
  const capper = await newUser();
  // Starts a few seconds after posting: the only way to grade without touching the server's clock.
  const soon = new Date(Date.now() + 5_000);
  const winner = newLeg(soon, { odds: 150, units: 2 });
  const loser = newLeg(soon);
  const won = await postPick(capper.api, uniqueTitle('Winning pick'), [winner]);
  const lost = await postPick(capper.api, uniqueTitle('Losing pick'), [loser]);
  await expect
    .poll(async () => ((await (await capper.api.get(`/api/picks/${won.id}`)).json()) as PickView).status, {
      timeout: 15_000,
    })
    .toBe('started');

  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders });
  try {
    const login = await admin.post('/api/login', { data: E2E_ADMIN });
    expect(login.status(), await login.text()).toBe(200);
    for (const leg of [winner, loser]) {
      // Both picks are on the home side: the first game goes home (the +150, 2u pick wins 3u), the
      // second away (the -110, 1u pick loses 1u).
      const homeWins = leg === winner;
      const settled = await admin.post(`/api/admin/events/${await startedEventId(admin, leg)}/result`, {
        data: { status: 'final', homeScore: homeWins ? 101 : 90, awayScore: homeWins ? 99 : 100 },
      });
      expect(settled.status(), await settled.text()).toBe(200);
    }
  } finally {
    await admin.dispose();
  }

  await page.goto(`/cappers/${capper.username}`);
  const record = page.getByRole('region', { name: 'Verified record' });
  await expect(record.getByRole('tab', { name: 'All time' })).toHaveAttribute('aria-selected', 'true');
  const figures = record.getByRole('tabpanel');
  await expect(figures).toContainText('W-L-P1-1-0');
  await expect(figures).toContainText('Win %50%');
  await expect(figures).toContainText('Units won+2.0u');
  await expect(figures).toContainText('ROI+66.7%');
  await expect(
    page.getByRole('img', { name: /Cumulative units over 2 graded picks.*\+2\.0u now/ }),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Cumulative units after each graded pick' })).toContainText(
    '+2.0u',
  );
  const graded = page.getByRole('region', { name: 'Graded picks (2)' });
  const wonItem = graded.getByRole('listitem').filter({ hasText: won.title });
  await expect(wonItem).toContainText('win');
  await expect(wonItem).toContainText('+3.0u');
  await expect(wonItem.getByRole('list', { name: 'Legs' })).toContainText(`${winner.home} ML`);
  await expect(wonItem).toContainText(won.pick!.commitment);
  await expect(graded.getByRole('listitem').filter({ hasText: lost.title })).toContainText('-1.0u');
  await expect(page.getByRole('table', { name: 'All-time record in each league' })).toContainText('NBA');

  // The period tabs by keyboard: arrows move between them, as a tab list should.
  await record.getByRole('tab', { name: 'All time' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(record.getByRole('tab', { name: '90 days' })).toHaveAttribute('aria-selected', 'true');
  await expect(record.getByRole('tabpanel')).toContainText('W-L-P1-1-0');
});

test('an unknown capper gets a not-found page', async ({ page }) => {
  await page.goto('/cappers/nobody_by_this_name_at_all');
  await expect(page.getByRole('heading', { level: 1, name: 'Capper not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'See the leaderboard' })).toBeVisible();
});

test('the leaderboard keeps its filters in the URL and explains the 20-pick threshold', async ({ page }) => {
  await page.goto('/');
  // From the navbar, by keyboard.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leaderboard' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/leaderboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Leaderboard' })).toBeVisible();

  const filters = page.getByRole('form', { name: 'Leaderboard filters' });
  await filters.getByLabel('Period').focus();
  await filters.getByLabel('Period').selectOption('30');
  await expect(page).toHaveURL(/\/leaderboard\?period=30$/);
  await filters.getByLabel('League').selectOption('Horse Racing');
  await expect(page).toHaveURL(/period=30&league=Horse\+Racing/);
  await filters.getByLabel('Rank by').selectOption('roi');
  await expect(page).toHaveURL(/sort=roi/);
  const empty = page.getByRole('status').filter({ hasText: 'No capper is ranked here yet.' });
  await expect(empty).toContainText('at least 20 graded picks in the period in Horse Racing');

  // A shared link opens with the same filters.
  await page.goto('/leaderboard?period=90&league=Golf&sort=roi');
  await expect(filters.getByLabel('Period')).toHaveValue('90');
  await expect(filters.getByLabel('League')).toHaveValue('Golf');
  await expect(filters.getByLabel('Rank by')).toHaveValue('roi');
  await expect(page.getByRole('status').filter({ hasText: 'No capper is ranked here yet.' })).toBeVisible();
});

test('on a phone the leaderboard shows each ranked capper as a card with every figure in view', async ({
  page,
  newUser,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.slow();
  const capper = await newUser();
  // 20 one-leg picks on one game (the ranking's threshold), starting once they are all posted.
  const leg = newLeg(new Date(Date.now() + 15_000), { odds: 100 });
  const posted: number[] = [];
  for (let i = 0; i < 20; i++)
    posted.push((await postPick(capper.api, uniqueTitle(`Ranked ${i}`), [leg])).id);
  await expect
    .poll(async () => ((await (await capper.api.get(`/api/picks/${posted[0]}`)).json()) as PickView).status, {
      timeout: 30_000,
    })
    .toBe('started');
  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders });
  try {
    expect((await admin.post('/api/login', { data: E2E_ADMIN })).status()).toBe(200);
    const settled = await admin.post(`/api/admin/events/${await startedEventId(admin, leg)}/result`, {
      data: { status: 'final', homeScore: 110, awayScore: 100 },
    });
    expect(settled.status(), await settled.text()).toBe(200);
  } finally {
    await admin.dispose();
  }

  await page.setViewportSize({ width: 360, height: 780 });
  // The records cache may hold the ranking from before the grade for a few seconds.
  await expect
    .poll(async () => JSON.stringify(await (await capper.api.get('/api/leaderboard')).json()), {
      timeout: 30_000,
    })
    .toContain(`"${capper.username}"`);
  await page.goto('/leaderboard');
  const card = page
    .getByRole('list', { name: /^Cappers ranked by/ })
    .getByRole('listitem')
    .filter({ hasText: capper.username });
  await expect(card.getByRole('link', { name: capper.username })).toBeVisible();
  await expect(card).toContainText('+20.0u');
  await expect(card.getByRole('term')).toHaveText(['ROI', 'Win %', 'W-L-P', 'Picks']);
  await expect(card.getByRole('definition')).toHaveText(['+100.0%', '100%', '20-0-0', '20']);
  // Nothing of the row is off screen: the page does not scroll sideways, and the table is not shown.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expect(page.getByRole('table')).toBeHidden();
});
