// docs/decisions/025 in the browser: a leg chosen from the market's games at its prices and sealed with
// their evidence; sales closing at the official start; grading from the provider's final score with the
// closing price and closing line value; self-reported legs kept apart from the record; and a phone's width.
// The tests' market follows NFL and MLB (playwright.config.ts); NBA legs are self-reported.
import type { Locator, Page } from '@playwright/test';
import { clvPercent, consensusFairProbability, formatClv } from '#common/clv.js';
import type { Video } from '#common/schemas/videos.js';
import { cardOf, uniqueTitle } from './catalog-helpers';
import { registerAndLogin, toasts } from './helpers';
import {
  defaultBooks,
  expect,
  finishMarketGame,
  marketGame,
  marketLeg,
  setMarketPrices,
  startMarketGame,
  test,
  untilCatalogSays,
  type TestBook,
} from './market-helpers';
import { legsOf, newLeg, pickOf, postPick, startedEventId } from './pick-helpers';

const YOUTUBE = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);

/** The tag in a market game's team names ('Home 1a2b3c'): what a capper searches the games by. */
const tagOf = (home: string) => home.split(' ').at(-1)!;

/** A time as the pick's page writes it, in the browser's zone ('Nov 28, 2026, 9:08 AM'). */
const pickTime = (page: Page, iso: string) =>
  page.evaluate(
    (at) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)),
    iso,
  );

/** A home moneyline's CLV as the app measures it: its odds against the closing books' consensus. */
function homeMoneylineClv(odds: number, closingBooks: TestBook[]): string {
  const fair = consensusFairProbability(
    closingBooks.map((book) => ({ odds: book.moneyline.home, other: book.moneyline.away })),
  );
  return formatClv(clvPercent([{ odds, closingFair: fair! }]));
}

async function openLegForm(page: Page) {
  await page.getByRole('button', { name: 'Add leg' }).click();
  const legForm = page.getByTestId('leg-form');
  await expect(legForm.getByLabel('League')).toBeFocused();
  return legForm;
}

test("a capper picks an NFL game and its price from the market's list, leaves the odds to the market, and the pick's page shows the price's evidence", async ({
  page,
  adminApi,
}) => {
  test.setTimeout(60_000);
  const game = await marketGame(adminApi, inHours(2));
  await registerAndLogin(page);
  await page.goto('/upload');
  const form = page.getByRole('form', { name: 'Upload a video' });
  const title = uniqueTitle('Market leg');
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('The home side at the best price in town.');
  await form.getByLabel('Winning selections').fill(`${game.home} moneyline`);
  await form.getByLabel('Price ($)').fill('12');
  await form.getByLabel('External video URL').fill(YOUTUBE);

  const legForm = await openLegForm(page);
  await legForm.getByLabel('League').selectOption('NFL');
  await expect(legForm.getByTestId('leg-binding')).toHaveText(
    'Games and prices come from the market: this leg counts in your verified record.',
  );
  await legForm.getByLabel('Search games by team').fill(tagOf(game.home));
  await legForm.getByRole('radio', { name: `${game.away} @ ${game.home}` }).check();
  // The moneyline's prices, each side's best among the books, with the snapshot's time.
  const prices = legForm.getByTestId('market-prices');
  await expect(prices.getByRole('radio')).toHaveCount(2);
  await expect(prices.getByRole('radio', { name: `${game.away} ML +130 at DraftKings` })).toBeVisible();
  const home = prices.getByRole('radio', { name: `${game.home} ML −145 at FanDuel` });
  await expect(prices).toContainText(/Prices as of (just now|\d+ min ago)/);
  await expect(prices.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  await home.check();
  const odds = legForm.getByLabel('Odds (optional)');
  await expect(odds).toHaveValue('');
  await expect(legForm).toContainText('Best now: −145 at FanDuel.');
  await legForm.getByRole('button', { name: 'Save leg' }).click();
  const row = page.getByTestId('leg-row');
  await expect(row).toContainText(`NFL · ${game.away} @ ${game.home} · ${game.home} ML (best price) · 1u`);
  await expect(row.getByTestId('leg-binding-tag')).toHaveText('Market price');

  await form.getByRole('button', { name: 'Upload Video' }).click();
  await expect(toasts(page).filter({ hasText: 'Upload successful' })).toBeVisible();
  await page.waitForURL((url) => url.pathname === '/');
  const mine = (await (await page.request.get('/api/user/videos')).json()) as Video[];
  const video = mine.find((candidate) => candidate.title === title)!;
  expect(video).toBeTruthy();
  expect(await pickOf(page.request, video.id)).toMatchObject({ status: 'open', selfReported: false });
  // Sealed at the best price then, with the book and the snapshot's time as evidence.
  const [sealed] = (await legsOf(page.request, video.id)).legs;
  expect(sealed).toMatchObject({
    odds: -145,
    game: `the-odds-api:${game.gameId}`,
    price: { book: 'fanduel', odds: -145, line: null },
  });

  // Its owner sees the legs on the pick's page before anyone else, evidence included.
  await page.goto(`/video/${video.id}`);
  const panel = page.getByTestId('pick-seal-panel');
  await expect(panel.getByTestId('pick-self-reported')).toHaveCount(0);
  const leg = panel.getByRole('list', { name: 'Current legs' }).getByTestId('pick-leg');
  await expect(leg).toContainText(`${game.home} moneyline`);
  await expect(leg).toContainText('-145');
  await expect(leg.getByTestId('leg-status')).toHaveText('Status: Open');
  await expect(leg.getByTestId('leg-binding-tag')).toHaveText('Market price');
  await expect(leg.getByTestId('price-evidence')).toHaveText(
    `Best price among books: -145 at FanDuel, prices of ${await pickTime(page, sealed!.price!.at)}`,
  );
});

test('once its game starts, a pick shows Sales closed on its card and page, and the checkout refuses it with the server’s message', async ({
  page,
  newUser,
  adminApi,
}) => {
  // A checkout, a refused payment and the catalog's refresh: more than one default test time on a busy machine.
  test.slow();
  const game = await marketGame(adminApi, inHours(2));
  const capper = await newUser();
  const title = uniqueTitle('Closing sale');
  const video = await postPick(capper.api, title, [marketLeg(game)]);
  await registerAndLogin(page);

  // Before the start: on sale, and the bettor opens the checkout. The card is found by its title: the
  // other worker's uploads may push it off the home page's newest 24.
  await page.goto(`/videos?q=${encodeURIComponent(title)}`);
  const card = cardOf(page, title);
  await expect(card.getByRole('link', { name: 'Buy Winners' })).toBeVisible();
  await expect(card.getByTestId('sales-closed')).toHaveCount(0);
  await page.goto(`/checkout/${video.id}`);
  const cardForm = page.getByRole('form', { name: 'Card payment' });
  await expect(cardForm.getByLabel('Card number')).toBeVisible();

  await startMarketGame(adminApi, game);

  // The checkout page still shows the form: paying now is the server's to refuse.
  await cardForm.getByLabel('Card number').fill('4242 4242 4242 4242');
  await cardForm.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await cardForm.getByLabel('CVC').fill('123');
  const refused = page.waitForResponse((response) =>
    response.url().endsWith('/api/payments/sandbox/confirm'),
  );
  await cardForm.getByRole('button', { name: 'Pay $25' }).click();
  const answer = await refused;
  expect(answer.status()).toBe(409);
  const { message } = (await answer.json()) as { message: string };
  expect(message).toMatch(/^Sales for this pick closed when its first game started/);
  await expect(page.getByRole('heading', { name: 'Sales closed' })).toBeVisible();
  await expect(page.getByTestId('checkout-sales-closed')).toHaveText(message);
  expect(((await (await page.request.get(`/api/videos/${video.id}`)).json()) as Video).isPurchased).toBe(
    false,
  );
  // Nor can a new payment start.
  const intent = await page.request.post('/api/create-payment-intent', { data: { videoId: video.id } });
  expect(intent.status()).toBe(409);

  // The catalog's rows are a couple of seconds old at most: the card says so once its list is read again.
  await untilCatalogSays(page.request, video.id, 'started');
  await expect(async () => {
    await page.goto(`/videos?q=${encodeURIComponent(title)}`);
    await expect(card.getByTestId('sales-closed')).toHaveText('Sales closed', { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await expect(card.getByRole('link', { name: 'Buy Winners' })).toHaveCount(0);
  await page.goto(`/video/${video.id}`);
  await expect(page.getByTestId('sales-closed')).toHaveText('Sales closed');
  await expect(page.getByText("Sales closed when this pick's first game started.")).toBeVisible();
  // No way to the checkout of this pick anywhere on its page (other picks' cards may have theirs).
  await expect(page.locator(`a[href="/checkout/${video.id}"]`)).toHaveCount(0);
  await expect(page.getByTestId('pick-status')).toHaveText('Started');
});

test("a pick is graded from the game's final score, and its page and the capper's profile show the score, the closing price and the CLV", async ({
  page,
  newUser,
  adminApi,
}) => {
  const game = await marketGame(adminApi, inHours(2));
  const capper = await newUser();
  const title = uniqueTitle('Beat the close');
  // The home side at the market's best, FanDuel's −145.
  const video = await postPick(capper.api, title, [marketLeg(game)]);
  // The price moves after the posting: the home side closes at −190 at best.
  const closing: TestBook[] = [
    { book: 'draftkings', title: 'DraftKings', moneyline: { home: -200, away: 170 } },
    { book: 'fanduel', title: 'FanDuel', moneyline: { home: -190, away: 160 } },
  ];
  await setMarketPrices(adminApi, game, closing);
  await startMarketGame(adminApi, game);
  await finishMarketGame(adminApi, game, { home: 24, away: 17 });
  const clv = homeMoneylineClv(-145, closing);
  // Taken at a better price than the close: above zero, and not what the posting's own prices would give.
  expect(clv).toMatch(/^\+/);
  expect(clv).not.toBe(homeMoneylineClv(-145, defaultBooks('NFL')));

  // Its page, to anyone: graded, revealed, with the score, the close and the CLV.
  await page.goto(`/video/${video.id}`);
  const panel = page.getByTestId('pick-seal-panel');
  await expect(panel.getByTestId('pick-status')).toHaveText('Graded');
  await expect(panel.getByTestId('pick-result')).toHaveText('Won +0.7u');
  const leg = panel.getByRole('list', { name: 'Revealed legs' }).getByTestId('pick-leg');
  await expect(leg).toContainText(`${game.home} moneyline`);
  await expect(leg.getByTestId('leg-status')).toHaveText('Status: Won');
  await expect(leg.getByTestId('price-evidence')).toContainText('Best price among books: -145 at FanDuel');
  const outcome = leg.getByTestId('leg-outcome');
  await expect(outcome).toContainText(`Final: ${game.away} 17, ${game.home} 24`);
  await expect(outcome).toContainText('Closing price -190');
  await expect(outcome.getByTestId('leg-clv')).toHaveText(`CLV ${clv}`);

  // The capper's profile: the record's CLV, and the graded pick with the same figures.
  await page.goto(`/cappers/${capper.username}`);
  const figures = page.getByRole('region', { name: 'Verified record' }).getByRole('tabpanel');
  await expect(figures).toContainText('W-L-P1-0-0');
  await expect(figures).toContainText(`CLV${clv}100% of 1 bet beat the close`);
  const graded = page.getByRole('region', { name: 'Graded picks (1)' }).getByRole('listitem').first();
  await expect(graded).toContainText(title);
  await expect(graded).toContainText(`CLV ${clv}`);
  await expect(graded.getByTestId('leg-outcome')).toContainText(`Final: ${game.away} 17, ${game.home} 24`);
  await expect(graded.getByTestId('leg-outcome')).toContainText('Closing price -190');
});

test('a self-reported leg is marked so, and once graded the profile lists it apart, never in the record', async ({
  page,
  newUser,
  adminApi,
}) => {
  test.slow();
  const capper = await newUser();
  // NBA, which the market does not follow, on a game the capper adds: it starts in a few seconds, so that an
  // admin can grade it once started (a self-reported game's score is an admin's).
  const nbaLeg = newLeg(new Date(Math.ceil((Date.now() + 5_000) / 1000) * 1000), {
    league: 'NBA',
    market: 'moneyline',
    line: null,
    odds: -110,
  });
  const selfTitle = uniqueTitle('Self-reported');
  const selfReported = await postPick(capper.api, selfTitle, [nbaLeg]);
  expect(selfReported.pick).toMatchObject({ selfReported: true });
  const game = await marketGame(adminApi, inHours(2));
  const marketTitle = uniqueTitle('Counted');
  await postPick(capper.api, marketTitle, [marketLeg(game)]);

  // Marked on its page for everyone, and in the profile's open picks, before any grade.
  await page.goto(`/video/${selfReported.id}`);
  await expect(page.getByTestId('pick-self-reported')).toContainText(
    'Self-reported: not counted in the verified record.',
  );
  await page.goto(`/cappers/${capper.username}`);
  const open = page.getByRole('region', { name: /Open picks/ }).getByRole('listitem');
  await expect(open.filter({ hasText: selfTitle }).getByTestId('leg-binding-tag')).toHaveText(
    'Self-reported· will not count',
  );
  await expect(open.filter({ hasText: marketTitle }).getByTestId('leg-binding-tag')).toHaveCount(0);

  // The self-reported game goes away (the bet loses), the market game home (the bet wins).
  await expect
    .poll(async () => (await pickOf(capper.api, selfReported.id)).status, { timeout: 20_000 })
    .toBe('started');
  const settled = await adminApi.post(`/api/admin/events/${await startedEventId(adminApi, nbaLeg)}/result`, {
    data: { status: 'final', homeScore: 98, awayScore: 104 },
  });
  expect(settled.status(), await settled.text()).toBe(200);
  await finishMarketGame(adminApi, game, { home: 21, away: 14 });

  await page.goto(`/cappers/${capper.username}`);
  // The record is the market pick's alone: one bet, won.
  const figures = page.getByRole('region', { name: 'Verified record' }).getByRole('tabpanel');
  await expect(figures).toContainText('W-L-P1-0-0');
  await expect(figures).toContainText('Graded bets1in 1 pick');
  const graded = page.getByRole('region', { name: 'Graded picks (1)' });
  await expect(graded).toContainText(marketTitle);
  await expect(graded).not.toContainText(selfTitle);
  const apart = page.getByRole('region', { name: 'Self-reported picks (1)' });
  await expect(apart).toContainText('never count in the record above');
  const row = apart.getByRole('table').getByRole('row').filter({ hasText: selfTitle });
  await expect(row).toContainText('loss');
  await expect(row).toContainText(`${nbaLeg.home} ML (-110) · ${nbaLeg.away} @ ${nbaLeg.home}`);
  await expect(apart).not.toContainText(marketTitle);
});

test('on a 390 px phone, the leg form’s market prices and the profile’s CLV fit without sideways scroll', async ({
  page,
  adminApi,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const game = await marketGame(adminApi, inHours(2));
  // A name as long as registerAndLogin's (no spaces): the profile's header must wrap it on a phone too.
  const capper = await registerAndLogin(page);
  const noSidewaysScroll = async () => {
    const { scrollWidth, past } = await page.evaluate(() => {
      const edge = document.documentElement.clientWidth + 0.5;
      const beyond = (element: Element) => element.getBoundingClientRect().right > edge;
      return {
        scrollWidth: document.documentElement.scrollWidth,
        // The innermost elements past the right edge: what to look at when this fails.
        past: [...document.body.querySelectorAll('*')]
          .filter((element) => beyond(element) && ![...element.children].some(beyond))
          .slice(0, 5)
          .map(
            (element) => `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}">`,
          ),
      };
    });
    expect(scrollWidth, `past the edge: ${past.join(', ')}`).toBeLessThanOrEqual(390);
  };
  const within = async (target: Locator) => {
    const box = (await target.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  };

  // The spread: the most to show, each side's lines with their prices and books.
  await page.goto('/upload');
  const legForm = await openLegForm(page);
  await legForm.getByLabel('League').selectOption('NFL');
  await legForm.getByLabel('Search games by team').fill(tagOf(game.home));
  await legForm.getByRole('radio', { name: `${game.away} @ ${game.home}` }).check();
  await legForm.getByLabel('Market', { exact: true }).selectOption('spread');
  const prices = legForm.getByTestId('market-prices');
  const away = prices.getByRole('radio', { name: `${game.away} +3.5 −108 at DraftKings` });
  await expect(away).toBeVisible();
  await expect(prices).toContainText('Prices as of');
  await noSidewaysScroll();
  for (const label of await prices.locator('label').all()) await within(label);
  await within(prices);

  // A graded market pick of this capper's, so that the profile has a CLV to show.
  const video = await postPick(page.request, uniqueTitle('Phone CLV'), [marketLeg(game)]);
  await finishMarketGame(adminApi, game, { home: 31, away: 10 });
  expect(await pickOf(page.request, video.id)).toMatchObject({ status: 'graded', result: 'win' });
  const clv = homeMoneylineClv(-145, defaultBooks('NFL'));
  await page.goto(`/cappers/${capper.username}`);
  const figures = page.getByRole('region', { name: 'Verified record' }).getByRole('tabpanel');
  await expect(figures).toContainText(`CLV${clv}`);
  const clvTile = figures.getByRole('term').filter({ hasText: /^CLV$/ }).locator('..');
  await within(clvTile);
  const graded = page.getByRole('region', { name: 'Graded picks (1)' }).getByRole('listitem').first();
  await expect(graded.getByTestId('leg-clv')).toHaveText(`CLV ${clv}`);
  await within(graded.getByTestId('leg-clv'));
  await noSidewaysScroll();
});
