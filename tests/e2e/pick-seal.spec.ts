// The sealed pick where a buyer decides: the card's badge, the video page's Sealed pick panel
// (commitment, versions, no legs before the reveal), the owner's delete confirm once the pick has started,
// and, once an admin has entered the final score, the revealed pick and the Verify button.
import type { Page } from '@playwright/test';
import { E2E_ADMIN } from '../setup/e2e-env';
import { cardOf, createLinkVideo, expect, test, uniqueTitle } from './catalog-helpers';
import { loginViaApi } from './helpers';
import { newLeg, pickOf, postPick, startedEventId } from './pick-helpers';

const SELECTIONS = 'Sealed secret: take the home side';
const KEPT_ON_RECORD =
  'This pick has been sold or has started: deleting takes it off sale, but it stays graded and listed on your record.';

function sealedPanel(page: Page) {
  return page.getByRole('region', { name: 'Sealed pick' });
}

test('signed out: the card and the page show the commitment and its versions, never the legs', async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const title = uniqueTitle('Sealed card');
  const tomorrow = new Date(Date.now() + 24 * 3600_000);
  const first = newLeg(tomorrow);
  const second = newLeg(tomorrow, { market: 'total', side: 'over', line: 5.5, odds: 120 });
  const video = await postPick(capper.api, title, [first, second], { selections: SELECTIONS });
  const v1 = await pickOf(capper.api, video.id);
  // A revision before any sale or start seals version 2; version 1 stays listed.
  const revised = await capper.api.patch(`/api/videos/${video.id}`, {
    data: { legs: [first, { ...second, odds: 130 }] },
  });
  expect(revised.status(), await revised.text()).toBe(200);
  const pick = await pickOf(capper.api, video.id);
  expect(pick.versions).toHaveLength(2);
  expect(pick.commitment).not.toBe(v1.commitment);

  // Its card found by its title: other tests post meanwhile (pick-log.spec posts 51), and can push it off the
  // home page's first cards.
  await page.goto(`/videos?q=${encodeURIComponent(title)}`);
  const card = cardOf(page, title);
  const badge = card.getByTestId('pick-badge');
  await expect(badge).toContainText(`Sealed ${pick.commitment.slice(0, 8)}`);
  await expect(badge).toHaveAttribute(
    'title',
    new RegExp(`^Sealed pick: commitment ${pick.commitment.slice(0, 8)}…, posted [A-Z][a-z]{2} \\d{1,2}, `),
  );
  await expect(card.getByRole('link', { name: capper.username, exact: true })).toHaveAttribute(
    'href',
    `/cappers/${capper.username}`,
  );

  await page.goto(`/video/${video.id}`);
  const panel = sealedPanel(page);
  await expect(panel.getByTestId('commitment')).toHaveText(pick.commitment);
  await expect(panel.getByTestId('pick-status')).toHaveText('Open');
  await expect(panel).toContainText('2 legs · parlay');
  const versions = panel.getByTestId('pick-versions').getByRole('listitem');
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toContainText('v1');
  await expect(versions.nth(0)).toContainText('Superseded');
  await expect(versions.nth(0)).toContainText(v1.commitment);
  await expect(versions.nth(1)).toContainText('v2');
  await expect(versions.nth(1)).toContainText('Current');
  await expect(versions.nth(1)).toContainText(pick.commitment);
  // The legs and selections stay secret until the reveal.
  await expect(panel.getByTestId('pick-legs')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Verify' })).toHaveCount(0);
  const main = page.getByRole('main');
  await expect(main).not.toContainText(first.home);
  await expect(main).not.toContainText(SELECTIONS);
  expect((await page.request.get(`/api/picks/${video.id}/reveal`)).status()).toBe(403);

  // On a phone the 64 hex characters wrap: nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(panel.getByTestId('commitment')).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBe(0);
});

test('a video without legs is unverified on its card and its page', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Unverified card');
  const video = await createLinkVideo(capper.api, { title });
  expect(video.pick).toBeNull();

  await page.goto(`/videos?q=${encodeURIComponent(title)}`);
  await expect(cardOf(page, title).getByTestId('pick-badge')).toHaveText('Unverified');
  await page.goto(`/video/${video.id}`);
  const panel = page.getByRole('region', { name: 'Unverified pick' });
  await expect(panel).toContainText('Unverified pick: not sealed, not counted in any record.');
  await expect(page.getByTestId('commitment')).toHaveCount(0);
});

test('once started the owner is told the pick stays on the record; once graded anyone can verify it', async ({
  page,
  newUser,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.slow();
  const capper = await newUser();
  const title = uniqueTitle('Sealed start');
  // Starts a few seconds after posting: the only way to reach 'started' without touching the clock.
  const leg = newLeg(new Date(Date.now() + 6_000));
  const video = await postPick(capper.api, title, [leg], { selections: SELECTIONS });
  const pick = await pickOf(capper.api, video.id);

  await loginViaApi(page, capper);
  await page.goto(`/video/${video.id}`);
  const actions = page.getByRole('complementary', { name: 'Buy and share' });
  // Before the start, an open pick: the sentence for a sale only.
  await actions.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('If anyone has bought this pick');
  await expect(dialog).not.toContainText(KEPT_ON_RECORD);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // The owner sees the current legs before the reveal.
  await expect(sealedPanel(page).getByTestId('pick-legs')).toContainText(`${leg.home} -1.5`);

  await expect
    .poll(async () => (await pickOf(capper.api, video.id)).status, { timeout: 15_000 })
    .toBe('started');
  await page.reload();
  await expect(sealedPanel(page).getByTestId('pick-status')).toHaveText('Started');
  await actions.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(
    page.getByRole('alertdialog', { name: 'Are you sure you want to delete this video?' }),
  ).toHaveAccessibleDescription(new RegExp(KEPT_ON_RECORD.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  // An admin enters the final score: home wins by 3, so home -1.5 wins.
  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders });
  try {
    const login = await admin.post('/api/login', { data: E2E_ADMIN });
    expect(login.status(), await login.text()).toBe(200);
    const settled = await admin.post(`/api/admin/events/${await startedEventId(admin, leg)}/result`, {
      data: { status: 'final', homeScore: 4, awayScore: 1 },
    });
    expect(settled.status(), await settled.text()).toBe(200);
  } finally {
    await admin.dispose();
  }

  // Signed out, as any bettor checking the record.
  await page.context().clearCookies();
  await page.goto(`/video/${video.id}`);
  const panel = sealedPanel(page);
  await expect(panel.getByTestId('pick-status')).toHaveText('Graded');
  await expect(panel.getByTestId('pick-result')).toHaveText('Won +0.9u');
  await expect(panel.getByTestId('commitment')).toHaveText(pick.commitment);
  await expect(panel.getByRole('list', { name: 'Revealed legs' })).toContainText(`${leg.home} -1.5`);
  await expect(panel.getByRole('list', { name: 'Revealed legs' })).toContainText('-110');
  await expect(panel).toContainText(SELECTIONS);
  const reveal = (await (await page.request.get(`/api/picks/${video.id}/reveal`)).json()) as {
    commitment: string;
  };
  expect(reveal.commitment).toBe(pick.commitment);

  await panel.getByRole('button', { name: 'Verify' }).click();
  const result = panel.getByTestId('verify-result');
  await expect(result).toContainText('Matches: this is the pick that was sealed when it was posted.');
  await expect(result).toContainText(pick.commitment);
});
