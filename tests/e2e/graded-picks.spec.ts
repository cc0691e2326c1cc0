// The trust story on the surface: the hero says what "verified" means and links to how to check it; a graded
// pick's card shows its result (no Buy) and the capper's labelled record with its last results as dots; the
// pick page shows the final score, each leg's result, a correction and its titled log entries in order;
// /log shows the picks' titles and its dates in order. At desktop and phone widths, axe on the pick and /log.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { cardOf, uniqueTitle } from './catalog-helpers';
import { expect, finishMarketGame, marketGame, marketLeg, test, untilCatalogSays } from './market-helpers';
import { postPick } from './pick-helpers';

const require = createRequire(import.meta.url);
// Served from the page's own origin, as page-audits.spec.ts does: the CSP refuses inline scripts.
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const AXE_URL_PATH = '/__trust-story/axe.min.js';

async function expectAxeClean(page: Page, label: string): Promise<void> {
  await page.route(`**${AXE_URL_PATH}`, (route) =>
    route.fulfill({ path: AXE_PATH, contentType: 'text/javascript' }),
  );
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ url: new URL(AXE_URL_PATH, page.url()).href });
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        run: (
          context: Document,
          options: object,
        ) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  });
  expect(violations, `axe on ${label}`).toEqual([]);
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);

for (const size of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test.describe(`at ${size.name} width`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('the hero says what verified means and links to how to check it', async ({ page }) => {
      await page.goto('/');
      const line = page.getByTestId('hero-verified');
      await expect(line).toContainText(
        'Verified means sealed before the game, graded from the final scores, and every grade in a public log anyone can check.',
      );
      const hero = page.getByRole('region', { name: 'Sports picks you can check.' });
      await expect(hero).not.toContainText('Winning picks');
      await expect(hero).not.toContainText('10% cut');
      await line.getByRole('link', { name: 'How to check it' }).click();
      await expect(page).toHaveURL('/log#how-to-check');
      await expect(page.getByRole('heading', { level: 2, name: /What .verified. means/ })).toBeInViewport();
      await noSidewaysScroll(page);
    });

    test('a graded, corrected pick: its card, its page and /log tell the trust story', async ({
      page,
      newUser,
      adminApi,
    }) => {
      test.slow();
      const capper = await newUser();
      const game = await marketGame(adminApi, inHours(2));
      const title = uniqueTitle('Trust story pick');
      const video = await postPick(capper.api, title, [marketLeg(game)]);
      await finishMarketGame(adminApi, game, { home: 24, away: 17 });
      // The feed missed a late score: an admin corrects it, with a reason (the result stands).
      const reason = 'Late touchdown missed by the feed';
      const corrected = await adminApi.put(`/api/admin/events/${game.eventId}/result`, {
        data: { status: 'final', homeScore: 31, awayScore: 17, reason },
      });
      expect(corrected.status(), await corrected.text()).toBe(200);
      await untilCatalogSays(page.request, video.id, 'graded');

      // The card: the result in words (not colour alone), free to read, no Buy; the capper's labelled record.
      const card = cardOf(page, title);
      await expect(async () => {
        await page.goto(`/videos?q=${encodeURIComponent(title)}`);
        await expect(card.getByTestId('pick-result-chip')).toHaveText(/^Result: Won \+\d(\.\d)?u$/, {
          timeout: 5_000,
        });
      }).toPass({ timeout: 30_000 });
      await expect(card.getByRole('link', { name: 'Free to read' })).toBeVisible();
      await expect(card.getByRole('link', { name: 'Buy Winners' })).toHaveCount(0);
      await expect(card.getByText('This pick')).toBeVisible();
      await expect(card.getByText("Capper's record")).toBeVisible();
      await expect(card.getByTestId('record-badge')).toHaveText(
        /^Verified 1-0-0 · \+\d(\.\d)?u · ROI \+\d+%/,
      );
      await expect(card.getByRole('img', { name: 'Last 1: W' })).toBeVisible();
      await expect(card.getByTestId('pick-badge')).not.toHaveText('Unverified');
      await noSidewaysScroll(page);

      // The pick page: the final score (as corrected), the leg's result, the correction, the titled entries.
      await page.goto(`/video/${video.id}`);
      const panel = page.getByTestId('pick-seal-panel');
      await expect(panel.getByTestId('pick-result')).toHaveText(/^Won \+\d(\.\d)?u$/);
      const leg = panel.getByRole('list', { name: 'Revealed legs' }).getByTestId('pick-leg');
      await expect(leg.getByTestId('leg-status')).toHaveText('Status: Won');
      await expect(leg.getByTestId('leg-outcome')).toContainText(`Final: ${game.away} 17, ${game.home} 31`);
      const correction = panel.getByTestId('pick-corrections').getByRole('listitem');
      await expect(correction).toContainText('Before: final 24-17');
      await expect(correction).toContainText('After: final 31-17');
      await expect(correction).toContainText(`Reason: ${reason}`);

      const entries = page.getByRole('list', { name: 'Log entries, oldest first' }).getByRole('listitem');
      await expect(entries.getByTestId('pick-log-entry-title').first()).toHaveText('Sealed — version 1');
      await expect(entries.filter({ hasText: 'Corrected score:' })).toHaveCount(1);
      const titles = await entries.getByTestId('pick-log-entry-title').allTextContents();
      const at = (text: string | RegExp) =>
        titles.findIndex((t) => (typeof text === 'string' ? t === text : text.test(t)));
      expect(at(`Settled: ${game.away} 17 – ${game.home} 24`), titles.join('\n')).toBeGreaterThan(0);
      expect(at(/^Graded: Won \+/)).toBeGreaterThan(at(`Settled: ${game.away} 17 – ${game.home} 24`));
      expect(
        at(`Corrected score: ${game.away} 17 – ${game.home} 24 → ${game.away} 17 – ${game.home} 31`),
      ).toBeGreaterThan(at(/^Graded: Won \+/));
      const times = await entries
        .locator('time')
        .evaluateAll((nodes) => nodes.map((node) => Date.parse(node.getAttribute('datetime') ?? '')));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      await noSidewaysScroll(page);
      await expectAxeClean(page, 'the pick page');

      // /log: the pick's title and capper beside its entries, and the dates newest first.
      await page.goto('/log');
      await expect(page.getByTestId('log-order')).toContainText('Newest first');
      const rows = page.getByRole('list', { name: 'Log entries, newest first' }).getByRole('listitem');
      const ours = rows.filter({ has: page.getByRole('link', { name: title }) });
      // The titles load a page at a time, after the entries: wait for them before looking further back.
      const found = async () =>
        expect
          .poll(() => ours.count(), { timeout: 5_000 })
          .toBeGreaterThan(0)
          .then(() => true)
          .catch(() => false);
      for (let i = 0; i < 5 && !(await found()); i++) {
        await page.getByRole('button', { name: 'Older entries' }).click();
        await expect(page.getByRole('button', { name: 'Loading…' })).toHaveCount(0);
      }
      await expect(ours.first()).toBeVisible();
      await expect(ours.filter({ hasText: 'Sealed — version 1' })).toHaveCount(1);
      await expect(ours.first().getByRole('link', { name: capper.username })).toBeVisible();
      await expect(rows.filter({ hasText: /^#[\d,]+Video \d/ })).toHaveCount(0);
      const logTimes = await rows
        .locator('time')
        .evaluateAll((nodes) => nodes.map((node) => Date.parse(node.getAttribute('datetime') ?? '')));
      expect(logTimes.length).toBeGreaterThan(0);
      expect(logTimes).toEqual([...logTimes].sort((a, b) => b - a));
      await noSidewaysScroll(page);
      await expectAxeClean(page, '/log');
    });
  });
}
