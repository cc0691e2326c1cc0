// A capper's record (docs/decisions/020, 025): the profile once the market's final scores
// have graded the picks (record in bets, chart, revealed legs), open sealed picks and unverified videos, the
// leaderboard's filters in the URL and its empty state, the 404, and the keyboard. Counted picks are on the
// market's games at its prices: NFL here, which the tests' market follows.
import type { APIRequestContext } from '@playwright/test';
import { clvPercent, consensusFairProbability, formatClv } from '#common/clv.js';
import { createLinkVideo, uniqueTitle } from './catalog-helpers';
import {
  defaultBooks,
  expect,
  finishMarketGame,
  marketGame,
  marketLeg,
  test,
  type MarketTestGame,
} from './market-helpers';
import { postPick as postAnyPick } from './pick-helpers';

/** Straight picks only, however many legs: each leg is a bet of its own. */
const postPick = (api: APIRequestContext, title: string, games: MarketTestGame[], units = 1) =>
  postAnyPick(
    api,
    title,
    games.map((game) => marketLeg(game, { units })),
    { parlay: false },
  );

const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);

test('a capper profile shows open sealed picks, unverified videos and an empty record', async ({
  page,
  newUser,
  adminApi,
}) => {
  const capper = await newUser();
  const games = [await marketGame(adminApi, inHours(48)), await marketGame(adminApi, inHours(48))];
  const open = await postPick(capper.api, uniqueTitle('Open pick'), games);
  await createLinkVideo(capper.api, { title: uniqueTitle('No legs') });
  await createLinkVideo(capper.api, { title: uniqueTitle('No legs either') });

  await page.goto(`/cappers/${capper.username}`);
  await expect(page.getByRole('heading', { level: 1, name: capper.username })).toBeVisible();
  const openSection = page.getByRole('region', { name: /Open picks/ });
  await expect(openSection.getByRole('heading')).toHaveText('Open picks (1)');
  await expect(openSection.getByRole('listitem')).toContainText(open.title);
  await expect(openSection.getByRole('listitem')).toContainText('Open · 2 legs, sealed');
  await expect(openSection.getByRole('listitem')).toContainText(open.pick!.commitment);
  // On the market's games at its prices: it will count, so it is not marked self-reported.
  await expect(openSection.getByTestId('leg-binding-tag')).toHaveCount(0);
  // Sealed: nothing of the legs on the page before grading.
  await expect(page.locator('body')).not.toContainText(games[0]!.home);
  await expect(page.locator('body')).not.toContainText(games[1]!.home);
  await expect(page.getByTestId('unverified-count')).toHaveText(
    '2 videos were posted without a sealed pick (unverified): they never count in the record.',
  );
  await expect(page.getByRole('region', { name: 'Graded picks (0)' })).toContainText('No graded picks yet');
  await expect(page.getByRole('img', { name: 'No graded picks yet.' })).toBeVisible();
  await expect(page.getByTestId('self-reported-picks')).toHaveCount(0);
});

test("a capper's profile shows the record, the chart and the revealed legs once the games' final scores grade the picks", async ({
  page,
  newUser,
  adminApi,
}) => {
  test.slow();
  const capper = await newUser();
  // The first game's home side at +150 (FanDuel's, the market's best), 2 units; the second's at −145, 1 unit.
  const underdog = await marketGame(adminApi, inHours(2), { moneyline: { home: 150, away: -170 } });
  const favourite = await marketGame(adminApi, inHours(2));
  const won = await postPick(capper.api, uniqueTitle('Winning pick'), [underdog], 2);
  const lost = await postPick(capper.api, uniqueTitle('Losing pick'), [favourite]);
  // The first game goes home (the +150, 2u bet wins 3u), the second away (the −145, 1u bet loses 1u).
  await finishMarketGame(adminApi, underdog, { home: 27, away: 24 });
  await finishMarketGame(adminApi, favourite, { home: 17, away: 20 });

  await page.goto(`/cappers/${capper.username}`);
  const record = page.getByRole('region', { name: 'Verified record' });
  await expect(record.getByRole('tab', { name: 'All time' })).toHaveAttribute('aria-selected', 'true');
  const figures = record.getByRole('tabpanel');
  await expect(figures).toContainText('W-L-P1-1-0');
  await expect(figures).toContainText('Win %50%of decided bets');
  await expect(figures).toContainText('Units won+2.0u');
  await expect(figures).toContainText('ROI+66.7%');
  await expect(figures).toContainText('Graded bets2in 2 picks');
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
  const wonLegs = wonItem.getByRole('list', { name: 'Legs' });
  await expect(wonLegs).toContainText(`${underdog.home} moneyline`);
  await expect(wonLegs).toContainText('+150');
  // Graded from the provider's final score, shown beside the leg.
  await expect(wonLegs).toContainText(`Final: ${underdog.away} 24, ${underdog.home} 27`);
  await expect(wonItem).toContainText(won.pick!.commitment);
  await expect(graded.getByRole('listitem').filter({ hasText: lost.title })).toContainText('-1.0u');
  await expect(page.getByRole('table', { name: 'All-time record in each league' })).toContainText('NFL');

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

test('the leaderboard keeps its filters in the URL and explains the 20-bet threshold', async ({ page }) => {
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
  await expect(empty).toContainText('at least 20 decided bets in the period in Horse Racing');

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
  adminApi,
}) => {
  test.slow();
  const capper = await newUser();
  // 20 one-leg picks on one game at even money: 20 decided bets, the ranking's threshold.
  const moneyline = { home: 100, away: -120 };
  const game = await marketGame(adminApi, inHours(2), { moneyline });
  for (let i = 0; i < 20; i++) await postPick(capper.api, uniqueTitle(`Ranked ${i}`), [game]);
  await finishMarketGame(adminApi, game, { home: 30, away: 20 });
  // Every bet took +100 and the price did not move: each one's CLV is the closing books' consensus.
  const fair = consensusFairProbability(
    defaultBooks('NFL', moneyline).map((book) => ({ odds: book.moneyline.home, other: book.moneyline.away })),
  )!;
  const clv = formatClv(clvPercent([{ odds: 100, closingFair: fair }]));

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
  await expect(card.getByRole('term')).toHaveText(['ROI', 'CLV', 'Win %', 'W-L-P', 'Bets']);
  await expect(card.getByRole('definition')).toHaveText(['+100.0%', clv, '100%', '20-0-0', '20']);
  // Nothing of the row is off screen: the page does not scroll sideways, and the table is not shown.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expect(page.getByRole('table')).toBeHidden();
});
