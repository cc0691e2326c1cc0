// The browser's own checks: every page of the client router (src/client/app/routes.tsx) and every
// dialog, signed out, signed in and as admin, at desktop and phone widths, with no console error (4xx
// responses included: a browser logs them as errors), no uncaught error, no Content-Security-Policy
// violation, no unused preload, and no axe-core violation.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { E2E_ADMIN } from '../setup/e2e-env';
import { expect, test } from './fixtures';
import { accountMenuButton, loginViaApi } from './helpers';
import {
  adminApi,
  buyViaApi,
  createFileVideo,
  createLinkVideo,
  newAccount,
  uniqueTitle,
  waitUntilPlayable,
  type Account,
} from './money-helpers';

const require = createRequire(import.meta.url);
// axe-core from npm, served to the page from its own origin: an inline script (what addScriptTag does with
// `path`) is refused by our CSP, and bypassing the CSP would hide the very violations this test looks for.
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const AXE_URL_PATH = '/__browser-checks/axe.min.js';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

type Problem = string;

/** Collects what the browser itself reports as wrong with a page, for the whole test. */
async function watch(page: Page): Promise<Problem[]> {
  const problems: Problem[] = [];
  const where = () => new URL(page.url()).pathname + new URL(page.url()).search;
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error on ${where()}: ${message.text()}`);
    // A preload the page never used (or could not use: another URL or credentials mode) is wasted bytes.
    if (message.type() === 'warning' && /preload/i.test(message.text()))
      problems.push(`preload warning on ${where()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught on ${where()}: ${error.name}: ${error.message}`));
  await page.exposeFunction('__reportCspViolation', (text: string) =>
    problems.push(`CSP violation on ${where()}: ${text}`),
  );
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void })
        .__reportCspViolation;
      void report(
        `${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  await page.route(`**${AXE_URL_PATH}`, (route) =>
    route.fulfill({ path: AXE_PATH, contentType: 'text/javascript' }),
  );
  return problems;
}

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

/** axe-core on the page as it is now (an open dialog included); every violation is a problem. */
async function axe(page: Page, label: string, problems: Problem[]): Promise<void> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.addScriptTag({ url: new URL(AXE_URL_PATH, page.url()).href });
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  for (const v of violations) {
    const targets = v.nodes.map((n) => n.target.join(' ')).slice(0, 3);
    problems.push(`axe on ${label}: ${v.id} (${v.impact}) ${v.help}: ${targets.join(' | ')}`);
  }
}

/** Opens a page and waits until it has drawn what it loads (no request left, its h1 shown). */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

async function checkPages(page: Page, paths: string[], problems: Problem[], width = 'desktop') {
  for (const path of paths) {
    await visit(page, path);
    await axe(page, `${path} (${width})`, problems);
  }
}

/** Opens a dialog (or menu) with `open`, runs axe while it is open, and closes it with Escape. */
async function checkDialog(
  page: Page,
  label: string,
  open: () => Promise<void>,
  problems: Problem[],
  role: 'dialog' | 'alertdialog' | 'menu' = 'dialog',
) {
  await open();
  const dialog = page.getByRole(role);
  await expect(dialog).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Radix animates a dialog in; axe reads colours, so it waits for the end of the animation.
  await dialog.evaluate((element) => Promise.all(element.getAnimations().map((a) => a.finished)));
  await axe(page, label, problems);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

type Catalog = {
  capper: Account;
  other: Account;
  /** The capper's own uploaded video (ready: thumbnail, MP4, HLS). */
  own: { id: number; title: string };
  /** Another capper's video the capper bought, and one they did not. */
  bought: { id: number; title: string };
  notBought: { id: number; title: string };
  link: { id: number; title: string };
};

/** A small catalog made as users make it: uploads, links, a purchase each way (earnings, purchases). */
async function makeCatalog(
  playwright: Parameters<typeof newAccount>[0],
  options: Parameters<typeof newAccount>[1],
): Promise<Catalog> {
  const capper = await newAccount(playwright, options, 'checks');
  const other = await newAccount(playwright, options, 'checks_other');
  const video = async (owner: Account, what: string, file: boolean) => {
    const title = uniqueTitle(what);
    const input = { title, price: 12, selections: 'Lakers -3.5 (2 units)' };
    const { id } = file ? await createFileVideo(owner, input) : await createLinkVideo(owner, input);
    if (file) await waitUntilPlayable(owner, id);
    return { id, title };
  };
  const [own, bought, notBought, link] = [
    await video(capper, 'Own upload', true),
    await video(other, 'Bought pick', true),
    await video(other, 'Not bought pick', false),
    await video(other, 'Link pick', false),
  ];
  await buyViaApi(capper, bought.id);
  await buyViaApi(other, own.id);
  return { capper, other, own, bought, notBought, link };
}

test.describe('the browser finds nothing wrong', () => {
  test.describe.configure({ timeout: 240_000 });

  test('signed out: every page and the phone menu', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const problems = await watch(page);
    const catalog = await makeCatalog(playwright, { baseURL, extraHTTPHeaders });
    const pages = [
      '/',
      '/videos',
      `/videos?q=${encodeURIComponent(catalog.own.title)}`,
      `/video/${catalog.own.id}`,
      `/video/${catalog.link.id}`,
      '/auth',
      '/auth?tab=register',
      // Where mailed links land: an unsubscribe link without its token, a confirmation that failed.
      '/unsubscribe',
      '/email-confirmation?problem=expired',
      '/no-such-page',
      // Pages behind sign-in send a visitor to the sign-in form.
      '/dashboard',
      `/checkout/${catalog.notBought.id}`,
      '/admin',
    ];
    await checkPages(page, pages, problems);
    await page.setViewportSize(PHONE);
    await checkPages(
      page,
      ['/', '/videos', `/video/${catalog.own.id}`, '/auth', '/unsubscribe'],
      problems,
      'phone',
    );
    await checkDialog(
      page,
      'phone menu, signed out',
      () => page.getByRole('button', { name: 'Open menu' }).click(),
      problems,
    );
    expect(problems).toEqual([]);
  });

  test('a page takes its preloaded code and data: each is requested once', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const problems = await watch(page);
    const catalog = await makeCatalog(playwright, { baseURL, extraHTTPHeaders });
    for (const [path, data] of [
      [`/video/${catalog.own.id}`, `/api/videos/${catalog.own.id}`],
      ['/videos', '/api/videos'],
    ] as const) {
      const requests: string[] = [];
      const onRequest = (request: { url: () => string }) => requests.push(new URL(request.url()).pathname);
      page.on('request', onRequest);
      await visit(page, path);
      page.off('request', onRequest);
      // Preloaded from the Link header and then asked for by the page: one request each when they match.
      expect(
        requests.filter((url) => url === '/api/session'),
        path,
      ).toHaveLength(1);
      expect(
        requests.filter((url) => url === data),
        path,
      ).toHaveLength(1);
      const chunks = requests.filter((url) => /\/assets\/video-?s?-page-/.test(url));
      expect(new Set(chunks).size, path).toBe(chunks.length);
    }
    expect(problems).toEqual([]);
  });

  test("a video page's picture is preloaded and taken: one request", async ({
    browser,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const catalog = await makeCatalog(playwright, { baseURL, extraHTTPHeaders });
    const own = (await (await catalog.capper.api.get(`/api/videos/${catalog.own.id}`)).json()) as {
      thumbnailUrl: string;
    };
    const picture = new URL(own.thumbnailUrl, baseURL).href;
    // A page of its own: Playwright's request routing (the fixture's stand-in for YouTube's pictures)
    // keeps Chromium from taking a preloaded picture, so that page would ask twice whatever the server did.
    const context = await browser.newContext({ baseURL, extraHTTPHeaders });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const response = await page.goto(`/video/${catalog.own.id}`);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Offered with the page (its request leaves before the page has rendered), and taken by the page.
    expect(response?.headers().link).toContain(`<${own.thumbnailUrl}>; rel=preload; as=image`);
    expect(requests.filter((url) => url === picture)).toHaveLength(1);
    await expect(page.locator(`img[src="${own.thumbnailUrl}"]`)).toBeVisible();
    await context.close();
  });

  test('signed in: every page, the account menu, the owner, payout and selections dialogs', async ({
    page,
    playwright,
    baseURL,
    extraHTTPHeaders,
  }) => {
    const problems = await watch(page);
    const catalog = await makeCatalog(playwright, { baseURL, extraHTTPHeaders });
    await loginViaApi(page, catalog.capper.credentials);
    // A plan on the other capper's storefront, and its checkout (docs/decisions/037).
    const other = catalog.other.credentials.username;
    const planned = await catalog.other.api.post(`/api/cappers/${other}/plans`, {
      data: { name: 'Audit plan', priceCents: 999, interval: 'month', leagues: ['NBA'], trialDays: 7 },
    });
    expect(planned.status(), await planned.text()).toBe(201);
    const planId = ((await planned.json()) as { id: number }).id;
    const pages = [
      '/',
      '/videos',
      `/videos?q=${encodeURIComponent(catalog.bought.title)}`,
      `/video/${catalog.own.id}`,
      `/video/${catalog.bought.id}`,
      `/video/${catalog.notBought.id}`,
      '/dashboard',
      '/dashboard/analytics',
      '/upload',
      `/checkout/${catalog.notBought.id}`,
      `/edit-video/${catalog.own.id}`,
      `/cappers/${catalog.other.credentials.username}`,
      '/following',
      '/notifications',
      '/subscriptions',
      `/subscribe/${other}/${planId}`,
      '/settings/profile',
      '/settings/notifications',
      '/no-such-page',
    ];
    await checkPages(page, pages, problems);

    await visit(page, '/');
    await checkDialog(page, 'account menu', () => accountMenuButton(page).click(), problems, 'menu');
    await visit(page, '/');
    await checkDialog(
      page,
      'notifications menu',
      () => page.getByRole('button', { name: /^Notifications/ }).click(),
      problems,
      'menu',
    );

    await visit(page, '/dashboard');
    await checkDialog(
      page,
      'Request Payout',
      () => page.getByRole('button', { name: 'Request Payout' }).click(),
      problems,
    );
    await page.getByRole('tab', { name: 'Your Purchases' }).click();
    await checkDialog(
      page,
      'purchase: Cappers Selections',
      () => page.getByRole('button', { name: 'View Cappers Selections' }).click(),
      problems,
    );
    await page.getByRole('tab', { name: 'Your Uploads' }).click();
    const ownCard = page.getByRole('article', { name: catalog.own.title });
    await checkDialog(
      page,
      'owner: Winning Selections',
      () => ownCard.getByRole('button', { name: 'Winning Selections' }).click(),
      problems,
    );
    await checkDialog(
      page,
      'owner: Delete video',
      () => ownCard.getByRole('button', { name: 'Delete' }).click(),
      problems,
      'alertdialog',
    );

    await page.setViewportSize(PHONE);
    await checkPages(
      page,
      [
        '/',
        `/video/${catalog.bought.id}`,
        '/dashboard',
        '/following',
        '/notifications',
        '/settings/notifications',
      ],
      problems,
      'phone',
    );
    await checkDialog(
      page,
      'phone menu, signed in',
      () => page.getByRole('button', { name: 'Open menu' }).click(),
      problems,
    );
    await page.setViewportSize(DESKTOP);
    expect(problems).toEqual([]);
  });

  test('admin: every tab and dialog', async ({ page, playwright, baseURL, extraHTTPHeaders }) => {
    const problems = await watch(page);
    const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'checks_payee');
    const admin = await adminApi(playwright, { baseURL, extraHTTPHeaders });
    const bonus = await admin.patch(`/api/admin/users/${capper.id}/earnings`, {
      data: { manualEarnings: 50 },
    });
    expect(bonus.status(), await bonus.text()).toBe(200);
    await admin.dispose();
    const payout = await capper.api.post('/api/payout-request', {
      data: { amount: 20, paymentMethod: 'paypal', accountDetails: 'payee@example.com' },
    });
    expect(payout.status(), await payout.text()).toBe(201);
    const videoTitle = uniqueTitle('Admin checks');
    await createLinkVideo(capper, { title: videoTitle, price: 9, selections: 'Over 210.5' });
    await loginViaApi(page, E2E_ADMIN);

    await checkPages(
      page,
      ['/admin', '/admin?tab=videos', '/admin?tab=payouts', '/admin?tab=audit', '/dashboard'],
      problems,
    );
    const username = capper.credentials.username;
    await visit(page, '/admin');
    await checkDialog(
      page,
      'admin: earnings',
      () => page.getByRole('button', { name: `Earnings for ${username}` }).click(),
      problems,
    );
    await checkDialog(
      page,
      'admin: delete user',
      () => page.getByRole('button', { name: `Delete user ${username}` }).click(),
      problems,
    );
    await visit(page, '/admin?tab=videos');
    await checkDialog(
      page,
      'admin: delete video',
      () => page.getByRole('button', { name: `Delete video ${videoTitle}` }).click(),
      problems,
    );
    await visit(page, '/admin?tab=payouts');
    await checkDialog(
      page,
      'admin: reject payout',
      () => page.getByRole('button', { name: `Reject: $20.00 payout to ${username}` }).click(),
      problems,
    );
    await page.setViewportSize(PHONE);
    await checkPages(page, ['/admin', '/admin?tab=payouts'], problems, 'phone');
    expect(problems).toEqual([]);
  });
});
