// issue 14: a pick's legs through the upload form and the edit page, as a capper fills them on a phone or
// a desktop: a known game chosen from the list (one game, one event), a game added, validation, versions.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { KEEP_LEGS_MESSAGE, ODDS_MESSAGE } from '#common/schemas/picks.js';
import { largeMovFixture } from '../setup/media-fixtures';
import type { EventView, PickView } from '#common/schemas/pick-views.js';
import type { Video } from '#common/schemas/videos.js';
import { buyVideo, expect, test, uniqueTitle } from './catalog-helpers';
import { expectUploadSuccessful, recordTusTraffic, registerAndLogin, toasts } from './helpers';

const YOUTUBE = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const HOUR = 60 * 60 * 1000;

/** An ISO start `hours` from now, to the minute (as a datetime-local input holds it). */
function startIn(hours: number): string {
  const date = new Date(Date.now() + hours * HOUR);
  date.setUTCSeconds(0, 0);
  return date.toISOString().replace('.000Z', 'Z');
}

/** Two teams no other test (or run) uses. */
function teams() {
  const tag = randomBytes(3).toString('hex');
  return { tag, home: `Lakers ${tag}`, away: `Celtics ${tag}` };
}

/** POST /api/videos with a link and legs, as tests/api/picks.test.ts posts them. */
async function postPick(api: APIRequestContext, title: string, legs: unknown[]): Promise<Video> {
  const res = await api.post('/api/videos', {
    multipart: {
      title,
      description: 'Line movement and injuries, explained.',
      emailInformation: 'See the legs',
      price: '20',
      category: 'General',
      isPremium: 'true',
      duration: '',
      isExternalVideo: 'true',
      externalVideoUrl: YOUTUBE,
      legs: JSON.stringify(legs),
      parlay: 'false',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Video;
}

async function events(api: APIRequestContext, league: string): Promise<EventView[]> {
  const res = await api.get(`/api/events?league=${encodeURIComponent(league)}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as EventView[];
}

async function pickOf(api: APIRequestContext, videoId: number): Promise<PickView> {
  const res = await api.get(`/api/picks/${videoId}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as PickView;
}

async function openLegForm(page: Page) {
  await page.getByRole('button', { name: 'Add leg' }).click();
  const legForm = page.getByTestId('leg-form');
  // The leg form takes the focus when it opens.
  await expect(legForm.getByLabel('League')).toBeFocused();
  return legForm;
}

test('a capper posts two legs, one on a known game and one added; the edit page seals a version 2', async ({
  page,
  newUser,
}) => {
  test.setTimeout(60_000);
  // Someone else has already posted on this game: it is a known event.
  const game = teams();
  const startsAt = startIn(2);
  const other = await newUser('capper');
  await postPick(other.api, uniqueTitle('Known game'), [
    {
      league: 'NBA',
      home: game.home,
      away: game.away,
      startsAt,
      market: 'moneyline',
      side: game.home,
      odds: -150,
      units: 1,
    },
  ]);
  const known = (await events(other.api, 'NBA')).filter((event) => event.home === game.home);
  expect(known).toHaveLength(1);

  await registerAndLogin(page);
  await page.goto('/upload');
  const form = page.getByRole('form', { name: 'Upload a video' });
  const title = uniqueTitle('Legs e2e');
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Two legs, one parlay-free card');
  await form.getByLabel('Winning selections').fill('Lakers -3.5, over 44.5');
  await form.getByLabel('Price ($)').fill('15');
  await form.getByLabel('External video URL').fill(YOUTUBE);
  await expect(form.getByText('Without legs the pick is sold as unverified.')).toBeVisible();

  // Leg 1: the known game, found by team.
  let legForm = await openLegForm(page);
  await legForm.getByLabel('League').selectOption('NBA');
  await legForm.getByLabel('Search games by team').fill(game.tag);
  await legForm.getByRole('radio', { name: `${game.away} @ ${game.home}` }).check();
  await legForm.getByLabel('Market').selectOption('spread');
  await legForm.getByRole('radio', { name: `${game.home} (home)` }).check();
  await legForm.getByLabel('Line', { exact: true }).fill('-3.5');
  await legForm.getByLabel('Odds', { exact: true }).fill('50');
  await legForm.getByRole('button', { name: 'Save leg' }).click();
  // The schema's own message, on the field, which takes the focus.
  await expect(legForm.getByText(ODDS_MESSAGE)).toBeVisible();
  const odds = legForm.getByLabel('Odds', { exact: true });
  await expect(odds).toHaveAttribute('aria-invalid', 'true');
  await expect(odds).toBeFocused();
  await odds.fill('-110');
  await expect(legForm.getByText(ODDS_MESSAGE)).toHaveCount(0);
  await legForm.getByRole('button', { name: 'Save leg' }).click();
  const rows = page.getByTestId('leg-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(
    `NBA · ${game.away} @ ${game.home} · ${game.home} −3.5 (−110) · 1u`,
  );
  // Closed: the focus is back on the button that opened it.
  await expect(page.getByRole('button', { name: 'Add leg' })).toBeFocused();

  // Leg 2: a game nobody has posted on yet, typed in the browser's time zone.
  const added = teams();
  const local = await page.evaluate(() => {
    const date = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
    date.setSeconds(0, 0);
    const pad = (n: number) => String(n).padStart(2, '0');
    return {
      value: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`,
      iso: date.toISOString().replace('.000Z', 'Z'),
    };
  });
  legForm = await openLegForm(page);
  await legForm.getByLabel('League').selectOption('NFL');
  await legForm.getByRole('radio', { name: 'Add a game' }).check();
  await legForm.getByLabel('Home team').fill(added.home);
  await legForm.getByLabel('Away team').fill(added.away);
  await legForm.getByLabel('Start').fill(local.value);
  await legForm.getByLabel('Market').selectOption('total');
  await legForm.getByRole('radio', { name: 'Over' }).check();
  await legForm.getByLabel('Line', { exact: true }).fill('44.5');
  await legForm.getByLabel('Odds', { exact: true }).fill('+100');
  await legForm.getByLabel('Units', { exact: true }).fill('2');
  await legForm.getByRole('button', { name: 'Save leg' }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(`NFL · ${added.away} @ ${added.home} · Over 44.5 (+100) · 2u`);
  // Two legs: the parlay switch is offered (left off: two single bets).
  await expect(page.getByRole('switch', { name: 'Parlay (all legs must win)' })).not.toBeChecked();

  await form.getByRole('button', { name: 'Upload Video' }).click();
  await expect(toasts(page).filter({ hasText: 'Upload successful' })).toBeVisible();
  await page.waitForURL((url) => url.pathname === '/');

  const mine = (await (await page.request.get('/api/user/videos')).json()) as Video[];
  const video = mine.find((candidate) => candidate.title === title)!;
  expect(video).toBeTruthy();
  const pick = await pickOf(page.request, video.id);
  expect(pick).toMatchObject({ legCount: 2, parlay: false, status: 'open' });
  expect(pick.versions).toHaveLength(1);
  // One game, one event: the known one was reused, the added one is known now.
  expect((await events(page.request, 'NBA')).filter((event) => event.home === game.home)).toEqual(known);
  const nfl = (await events(page.request, 'NFL')).filter((event) => event.home === added.home);
  expect(nfl).toHaveLength(1);
  expect(nfl[0]).toMatchObject({ away: added.away, startsAt: local.iso });

  // The edit page shows the legs; a changed leg seals version 2.
  await page.goto(`/edit-video/${video.id}`);
  const editForm = page.getByRole('form', { name: 'Edit video' });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(`${game.home} −3.5 (−110)`);
  await editForm.getByRole('button', { name: 'Edit leg 1' }).click();
  legForm = page.getByTestId('leg-form');
  await expect(legForm.getByLabel('League')).toBeFocused();
  // The leg's game is the known event, chosen in the list.
  await expect(legForm.getByRole('radio', { name: `${game.away} @ ${game.home}` })).toBeChecked();
  await legForm.getByLabel('Odds', { exact: true }).fill('-120');
  await legForm.getByRole('button', { name: 'Save leg' }).click();
  await expect(rows.first()).toContainText(`${game.home} −3.5 (−120)`);
  await expect(editForm.getByRole('button', { name: 'Edit leg 1' })).toBeFocused();
  await editForm.getByRole('button', { name: 'Save changes' }).click();
  await page.waitForURL((url) => url.pathname === `/video/${video.id}`);

  const revised = await pickOf(page.request, video.id);
  expect(revised.versions).toHaveLength(2);
  expect(revised.legCount).toBe(2);
  const legs = (await (await page.request.get(`/api/picks/${video.id}/legs`)).json()) as {
    version: number;
    legs: Array<{ odds: number; home: string }>;
  };
  expect(legs.version).toBe(2);
  expect(legs.legs.map((leg) => [leg.home, leg.odds])).toEqual([
    [game.home, -120],
    [added.home, 100],
  ]);
  expect((await events(page.request, 'NBA')).filter((event) => event.home === game.home)).toEqual(known);
});

test("a sold pick's legs are refused with the server's message; a leg left open is not sent", async ({
  page,
  newUser,
}) => {
  await registerAndLogin(page);
  const game = teams();
  const title = uniqueTitle('Sold legs');
  const video = await postPick(page.request, title, [
    {
      league: 'NHL',
      home: game.home,
      away: game.away,
      startsAt: startIn(5),
      market: 'moneyline',
      side: game.away,
      odds: 130,
      units: 1.5,
    },
  ]);
  const buyer = await newUser('bettor');
  await buyVideo(buyer.api, video.id);

  await page.goto(`/edit-video/${video.id}`);
  const editForm = page.getByRole('form', { name: 'Edit video' });
  const rows = page.getByTestId('leg-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(
    `NHL · ${game.away} @ ${game.home} · ${game.away} ML (+130) · 1.5u`,
  );

  // A leg still open in its form: the page says so instead of dropping it.
  await editForm.getByRole('button', { name: 'Add leg' }).click();
  await editForm.getByRole('button', { name: 'Save changes' }).click();
  await expect(editForm.getByText('Save or cancel the leg you are editing first.')).toBeVisible();
  await page.getByTestId('leg-form').getByRole('button', { name: 'Cancel' }).click();
  await expect(editForm.getByRole('button', { name: 'Add leg' })).toBeFocused();

  await editForm.getByRole('button', { name: 'Edit leg 1' }).click();
  await page.getByTestId('leg-form').getByLabel('Units', { exact: true }).fill('2');
  await page.getByTestId('leg-form').getByRole('button', { name: 'Save leg' }).click();
  await editForm.getByRole('button', { name: 'Save changes' }).click();
  // Sold: the server's 409, beside the legs.
  await expect(page.getByTestId('legs-editor').getByRole('alert')).toHaveText(
    /Selections and legs can no longer change: the pick has been sold/,
  );
  expect((await pickOf(page.request, video.id)).versions).toHaveLength(1);
});

test('an open pick cannot lose its last leg: the edit page says so beside the legs and sends nothing', async ({
  page,
}) => {
  await registerAndLogin(page);
  const game = teams();
  const video = await postPick(page.request, uniqueTitle('Last leg'), [
    {
      league: 'NBA',
      home: game.home,
      away: game.away,
      startsAt: startIn(6),
      market: 'moneyline',
      side: game.home,
      odds: -110,
      units: 1,
    },
  ]);
  await page.goto(`/edit-video/${video.id}`);
  const editForm = page.getByRole('form', { name: 'Edit video' });
  await expect(page.getByTestId('leg-row')).toHaveCount(1);
  await editForm.getByRole('button', { name: 'Remove leg 1' }).click();
  await expect(page.getByTestId('leg-row')).toHaveCount(0);
  const patches: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH') patches.push(request.url());
  });
  await editForm.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('legs-editor').getByRole('alert')).toHaveText(KEEP_LEGS_MESSAGE);
  expect(patches).toEqual([]);
  expect((await pickOf(page.request, video.id)).versions).toHaveLength(1);
});

test('once the first game has started, the edit page shows the legs locked, with the reason', async ({
  page,
}) => {
  await registerAndLogin(page);
  const game = teams();
  const video = await postPick(page.request, uniqueTitle('Started legs'), [
    {
      league: 'MLB',
      home: game.home,
      away: game.away,
      startsAt: startIn(3),
      market: 'moneyline',
      side: game.home,
      odds: -130,
      units: 1,
    },
  ]);
  // The clock cannot be moved on the server: the video answers as it will once the game has started.
  await page.route(`**/api/videos/${video.id}`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Video;
    await route.fulfill({ response, json: { ...body, pick: { ...body.pick!, status: 'started' } } });
  });
  await page.goto(`/edit-video/${video.id}`);
  const editor = page.getByTestId('legs-editor');
  await expect(editor.getByTestId('legs-locked')).toHaveText(/first game of this pick has started/);
  await expect(editor.getByTestId('leg-row')).toContainText(`${game.home} ML (−130)`);
  await expect(editor.getByRole('button', { name: /Edit leg|Remove leg|Add leg/ })).toHaveCount(0);
});

test('a file above 50 MB carries its legs in the tus metadata', async ({ page }) => {
  test.setTimeout(120_000);
  // The size upload.spec.ts uses: the fixture is made once.
  const file = largeMovFixture(60 * 1024 * 1024);
  const metadata: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/uploads')
      metadata.push(request.headers()['upload-metadata'] ?? '');
  });
  const tus = recordTusTraffic(page);
  await registerAndLogin(page);
  await page.goto('/upload');
  const form = page.getByRole('form', { name: 'Upload a video' });
  const title = uniqueTitle('Tus legs');
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('A long breakdown');
  await form.getByLabel('Price ($)').fill('9');
  // No winning selections, on purpose: an empty metadata value must not be refused over tus.
  await form.getByLabel('MOV file').setInputFiles(file);
  const game = teams();
  const local = await page.evaluate(() => {
    const date = new Date(Date.now() + 26 * 60 * 60 * 1000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  });
  const legForm = await openLegForm(page);
  await legForm.getByLabel('League').selectOption('MLB');
  await legForm.getByRole('radio', { name: 'Add a game' }).check();
  await legForm.getByLabel('Home team').fill(game.home);
  await legForm.getByLabel('Away team').fill(game.away);
  await legForm.getByLabel('Start').fill(local);
  await legForm.getByRole('radio', { name: `${game.away} (away)` }).check();
  await legForm.getByLabel('Odds', { exact: true }).fill('+145');
  await legForm.getByRole('button', { name: 'Save leg' }).click();
  await expect(page.getByTestId('leg-row')).toHaveCount(1);
  await form.getByRole('button', { name: 'Upload Video' }).click();
  // ~4 s on a quiet machine; CI at 7caf5ea saw no outcome within 45 s (cause unknown: a failure now lists
  // the tus answers).
  await expectUploadSuccessful(page, tus, 75_000);

  // tus metadata: comma-separated `key base64(value)` pairs.
  expect(metadata).toHaveLength(1);
  const fields = Object.fromEntries(
    metadata[0]!.split(',').map((pair) => {
      const [key, value = ''] = pair.trim().split(' ');
      return [key, Buffer.from(value, 'base64').toString('utf8')];
    }),
  );
  expect(fields.parlay).toBe('false');
  expect(JSON.parse(fields.legs!)).toMatchObject([
    { league: 'MLB', market: 'moneyline', side: game.away, odds: 145 },
  ]);
  const mine = (await (await page.request.get('/api/user/videos')).json()) as Video[];
  const video = mine.find((candidate) => candidate.title === title)!;
  expect(await pickOf(page.request, video.id)).toMatchObject({ legCount: 1, status: 'open' });
});

test('the leg form fits a 375 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await registerAndLogin(page);
  await page.goto('/upload');
  const legForm = await openLegForm(page);
  await legForm.getByLabel('League').selectOption('NBA');
  await legForm.getByRole('radio', { name: 'Add a game' }).check();
  await legForm.getByLabel('Market').selectOption('spread');
  await expect(legForm.getByLabel('Start')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // Big touch targets: the game choices and the buttons are at least 40 px tall.
  for (const target of [legForm.getByText('Add a game'), legForm.getByRole('button', { name: 'Save leg' })]) {
    const box = (await target
      .locator('xpath=ancestor-or-self::*[self::label or self::button][1]')
      .boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(40);
  }
});
