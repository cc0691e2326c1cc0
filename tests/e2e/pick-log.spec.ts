// The public pick log in the browser: the video page's entries and Verify (signature, inclusion
// proofs, the reveal's commitment once graded), the /log page, the capper profile's link to it, a phone.
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN } from '../setup/e2e-env';
import { expect, test, uniqueTitle } from './catalog-helpers';
import { newLeg, pickOf, postPick, startedEventId } from './pick-helpers';

/** The latest signed checkpoint's tree size (its second line). */
async function signedSize(api: APIRequestContext): Promise<number> {
  const res = await api.get('/api/log/checkpoint');
  expect(res.status()).toBe(200);
  return Number((await res.text()).split('\n')[1]);
}

/** The log's key name and key id, from its verifier key string `<name>+<id>+<key>`. */
async function logKey(api: APIRequestContext): Promise<{ text: string; name: string; id: string }> {
  const text = (await (await api.get('/api/log/key')).text()).trim();
  const [name, id] = text.split('+');
  return { text, name: name!, id: id! };
}

const entryLabel = (index: number) => `#${index.toLocaleString('en-US')}`;

function logPanel(page: Page) {
  return page.getByRole('region', { name: 'Public pick log' });
}

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBe(0);
}

test('the video page lists the entries and Verify checks each; once graded it recomputes the commitment and the grade', async ({
  page,
  newUser,
  playwright,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.slow();
  const capper = await newUser();
  // Starts a few seconds after posting: the only way to grade without touching the server's clock.
  const leg = newLeg(new Date(Date.now() + 6_000));
  const video = await postPick(capper.api, uniqueTitle('Logged pick'), [leg]);
  const posted = await pickOf(capper.api, video.id);
  expect(posted.log).toEqual([expect.objectContaining({ type: 'posted' })]);
  const postedIndex = posted.log[0]!.index;
  const key = await logKey(capper.api);

  // Signed out, as any bettor checking before buying.
  await page.goto(`/video/${video.id}`);
  const panel = logPanel(page);
  const entries = panel.getByRole('list', { name: 'Log entries' }).getByRole('listitem');
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText(entryLabel(postedIndex));
  await expect(entries.first()).toContainText('Sealed — version 1');
  await expect(entries.first().locator('time')).toHaveAttribute('datetime', posted.log[0]!.at);

  await panel.getByRole('button', { name: 'Verify log' }).click();
  const outcome = panel.getByTestId('pick-log-outcome');
  await expect(outcome).toContainText('Verified');
  await expect(panel.getByTestId('pick-log-summary')).toHaveText(
    /^The entry is in the log's signed checkpoint of [\d,]+ entries and says what this page says\.$/,
  );
  await expect(entries.first().getByTestId('entry-check')).toHaveText('✓ Verified');
  const checkpoint = panel.getByTestId('pick-log-checkpoint');
  await expect(checkpoint).toContainText(key.name);
  await expect(checkpoint).toContainText(key.id);
  // The outcome is announced: it sits in a live region.
  await expect(panel.getByTestId('pick-log-result')).toHaveAttribute('aria-live', 'polite');

  await expect
    .poll(async () => (await pickOf(capper.api, video.id)).status, { timeout: 15_000 })
    .toBe('started');
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
  const graded = await pickOf(capper.api, video.id);
  expect(graded.status).toBe('graded');
  const gradedRef = graded.log.find((ref) => ref.type === 'graded');
  expect(gradedRef, 'grading appended an entry').toBeDefined();

  // The game's result is logged before the grade that rests on it, and listed with the pick's entries.
  expect(graded.log.map((ref) => ref.type)).toEqual(['posted', 'settled', 'graded']);
  await page.reload();
  await expect(entries).toHaveCount(3);
  await expect(entries.nth(0)).toContainText('Sealed — version 1');
  await expect(entries.nth(1)).toContainText(/Settled: .+ 1 – .+ 4/);
  await expect(entries.nth(2)).toContainText(entryLabel(gradedRef!.index));
  await expect(entries.nth(2)).toContainText('Graded');

  // By keyboard this time: the button is reachable and pressing Enter runs the check.
  await panel.getByRole('button', { name: 'Verify log' }).focus();
  await page.keyboard.press('Enter');
  await expect(outcome).toContainText('Verified');
  await expect(panel.getByTestId('pick-log-summary')).toHaveText(
    /^All 3 entries are in the log's signed checkpoint of [\d,]+ entries and say what this page says, and the revealed pick hashes to the logged commitment; the logged scores give its grade\.$/,
  );
  await expect(entries.getByTestId('entry-check')).toHaveText(['✓ Verified', '✓ Verified', '✓ Verified']);
  // Regraded in the browser from the logged final score (4-1).
  await expect(panel.getByTestId('pick-log-grade')).toContainText(/^✓ The grade \((win|loss|push)/);
  await expect(panel.getByTestId('pick-log-grade')).toContainText('4 (final) (entry #');
  await expect(panel.getByTestId('pick-log-reveal')).toContainText(
    'The revealed pick hashes to the logged commitment.',
  );
  await expect(panel.getByTestId('pick-log-reveal')).toContainText(graded.commitment);
});

test('a revision is logged and verified; on a phone the panel and its outcome fit the width', async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const first = newLeg(new Date(Date.now() + 24 * 3600_000));
  const video = await postPick(capper.api, uniqueTitle('Revised pick'), [first]);
  const revised = await capper.api.patch(`/api/videos/${video.id}`, {
    data: { legs: [{ ...first, odds: -120 }] },
  });
  expect(revised.status(), await revised.text()).toBe(200);
  const pick = await pickOf(capper.api, video.id);
  expect(pick.log.map((ref) => ref.type)).toEqual(['posted', 'revised']);

  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/video/${video.id}`);
  const panel = logPanel(page);
  const entries = panel.getByRole('list', { name: 'Log entries' }).getByRole('listitem');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(1)).toContainText(entryLabel(pick.log[1]!.index));
  await expect(entries.nth(1)).toContainText('Revised — version 2');
  await panel.getByRole('button', { name: 'Verify log' }).click();
  await expect(panel.getByTestId('pick-log-outcome')).toContainText('Verified');
  await expect(entries.getByTestId('entry-check')).toHaveText(['✓ Verified', '✓ Verified']);
  await expect(panel.getByTestId('pick-log-summary')).toContainText('All 2 entries');
  await panel.getByTestId('pick-log-checkpoint').scrollIntoViewIfNeeded();
  await noSidewaysScroll(page);
});

test('the profile links to /log, which shows the checkpoint, the key, the command and the entries', async ({
  page,
  newUser,
  baseURL,
}) => {
  test.slow();
  const capper = await newUser();
  const video = await postPick(capper.api, uniqueTitle('Listed pick'), [
    newLeg(new Date(Date.now() + 24 * 3600_000)),
  ]);
  const { index } = (await pickOf(capper.api, video.id)).log[0]!;
  // Enough entries for a second page of 50, whatever ran before; then wait for them to be signed. One filler
  // pick revised again and again: each revision is an entry, and the catalog gains one card, not 51 (the
  // cards other tests look for on the home page stay there).
  const filler = await newUser();
  const missing = Math.max(0, 51 - (index + 1));
  if (missing > 0) {
    const leg = newLeg(new Date(Date.now() + 24 * 3600_000));
    const fillerPick = await postPick(filler.api, uniqueTitle('Filler pick'), [leg]);
    for (let i = 1; i < missing; i++) {
      const revised = await filler.api.patch(`/api/videos/${fillerPick.id}`, {
        data: { legs: [{ ...leg, odds: 100 + i }] },
      });
      expect(revised.status(), await revised.text()).toBe(200);
    }
  }
  await expect.poll(() => signedSize(capper.api), { timeout: 10_000 }).toBeGreaterThan(index + missing);
  const key = await logKey(capper.api);

  await page.goto(`/cappers/${capper.username}`);
  await page.getByRole('link', { name: 'Verify this record in the public pick log' }).click();
  await expect(page).toHaveURL(`/log?capper=${capper.username}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Public pick log' })).toBeVisible();

  // The checkpoint as served (the page's own fetch: others may append meanwhile), and its parts.
  await expect(page.getByTestId('checkpoint-note')).toContainText(`— ${key.name} `);
  const note = (await page.getByTestId('checkpoint-note').textContent())!.split('\n');
  expect(note[0]).toBe(key.name);
  const size = Number(note[1]);
  expect(size).toBeGreaterThan(index + missing);
  await expect(page.getByTestId('checkpoint-origin')).toHaveText(key.name);
  await expect(page.getByTestId('checkpoint-size')).toHaveText(`${size.toLocaleString('en-US')} entries`);
  await expect(page.getByTestId('checkpoint-root')).toHaveText(note[2]!);
  await expect(page.getByTestId('verifier-key')).toHaveText(key.text);
  await expect(page.getByRole('button', { name: 'Copy the verifier key' })).toBeVisible();
  await expect(page.getByTestId('verify-command')).toHaveText(
    `npm run verify -- ${baseURL} --capper ${capper.username}`,
  );

  // The latest 50 entries, then 50 more, newest first by their times (graded-picks.spec.ts checks the order).
  const rows = page.getByRole('list', { name: 'Log entries, newest first' }).getByRole('listitem');
  await expect(rows).toHaveCount(50);
  await expect(rows.filter({ hasText: new RegExp(`^${entryLabel(size - 1)}\\D`) })).toHaveCount(1);
  await page.getByRole('button', { name: 'Older entries' }).click();
  await expect(rows).toHaveCount(Math.min(100, size));
  // A row reads '#1,234Title…': the label then a non-digit, so #5 does not find #50.
  const ours = rows.filter({ hasText: new RegExp(`^${entryLabel(index)}\\D`) });
  await expect(ours).toHaveCount(1);
  await expect(ours).toContainText('Sealed — version 1');
  await expect(ours.getByRole('link', { name: capper.username })).toHaveAttribute(
    'href',
    `/cappers/${capper.username}`,
  );
  await expect(ours.getByRole('link', { name: video.title })).toHaveAttribute('href', `/video/${video.id}`);

  // Without a capper the command names none; a name no username could be is left out of it.
  await page.goto('/log?capper=x%3B%20rm%20-rf%20~');
  await expect(page.getByTestId('verify-command')).toHaveText(`npm run verify -- ${baseURL}`);
  // The tiles' prefix, and a tile there: the first entry bundle is what the log's first entry is.
  await expect(page.getByTestId('log-tiles')).toContainText(`${baseURL}/api/log`);
  const bundle = await page.request.get(`${baseURL}/api/log/tile/entries/000.p/1`);
  expect(bundle.status()).toBe(200);
  const [first] = (
    (await (await page.request.get('/api/log/entries?start=0&end=1')).json()) as {
      entries: string[];
    }
  ).entries;
  expect(
    Buffer.from(await bundle.body())
      .subarray(2)
      .toString('base64'),
  ).toBe(first);

  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/log');
  await expect(rows).toHaveCount(50);
  await noSidewaysScroll(page);
});
