// Layout shift: what loads late takes the room it was given, so nothing on screen jumps (the
// footer least of all). The budget is Lighthouse's cumulative layout shift target, CLS ≤ 0.02, summed here
// over every shift without recent input from the first paint until the page has loaded everything.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { loginViaApi } from './helpers';
import { buyViaApi, createLinkVideo, newAccount, uniqueTitle } from './money-helpers';

const CLS_BUDGET = 0.02;

type Shift = { value: number; sources: string[] };
type ShiftWindow = Window & { __layoutShifts?: Shift[] };

/** Installed before the page's own scripts: records each layout shift and what moved. */
function recordLayoutShifts() {
  const shifts: Shift[] = [];
  (window as ShiftWindow).__layoutShifts = shifts;
  type LayoutShift = PerformanceEntry & {
    value: number;
    hadRecentInput: boolean;
    sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as LayoutShift[]) {
      if (entry.hadRecentInput) continue;
      shifts.push({
        value: entry.value,
        sources: entry.sources.map(({ node, previousRect, currentRect }) => {
          const name =
            node instanceof Element ? `<${node.tagName.toLowerCase()} class="${node.className}">` : 'text';
          return `${name} y ${Math.round(previousRect.y)}→${Math.round(currentRect.y)}, height ${Math.round(previousRect.height)}→${Math.round(currentRect.height)}`;
        }),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** Once the page has shown everything it loads: the shifts so far, after the observer has had its turn. */
async function layoutShifts(page: Page): Promise<Shift[]> {
  await page.waitForLoadState('networkidle');
  await expect(page.getByTestId('page-spinner')).toHaveCount(0);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  return page.evaluate(
    () =>
      new Promise<Shift[]>((resolve) => {
        // Two frames, then a task: any shift of the last frame has been delivered to the observer.
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            setTimeout(() => resolve((window as ShiftWindow).__layoutShifts ?? [])),
          ),
        );
      }),
  );
}

function expectWithinBudget(shifts: Shift[], what: string) {
  const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
  const detail = shifts.map((shift) => `${shift.value.toFixed(4)}: ${shift.sources.join('; ')}`).join('\n');
  test.info().annotations.push({ type: 'CLS', description: `${what}: ${total.toFixed(4)}\n${detail}` });
  // Soft: every page is measured and reported, not only the first over budget.
  expect.soft(total, `${what}: CLS ${total.toFixed(4)}\n${detail}`).toBeLessThanOrEqual(CLS_BUDGET);
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} × ${viewport.height}`, () => {
    test.use({ viewport });

    test('the catalog, a video and the sign-in page load without layout shift', async ({
      page,
      playwright,
      baseURL,
      extraHTTPHeaders,
    }) => {
      const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
      const video = await createLinkVideo(capper, {
        title: uniqueTitle('Lakers at Celtics: the full card and the number we like'),
        price: 25,
        selections: 'Lakers +4.5',
      });
      // Another pick, so the video page has its 'Popular picks' to load below.
      await createLinkVideo(capper, { title: uniqueTitle('Sunday slate'), price: 9, selections: 'x' });
      await page.addInitScript(recordLayoutShifts);

      const pages: [string, () => Promise<void>][] = [
        ['/', () => expect(page.getByTestId('video-card').first()).toBeVisible()],
        ['/videos', () => expect(page.getByTestId('video-card').first()).toBeVisible()],
        [
          `/video/${video.id}`,
          () => expect(page.getByRole('heading', { level: 2, name: 'Popular picks' })).toBeVisible(),
        ],
        ['/auth', () => expect(page.getByRole('form', { name: 'Login' })).toBeVisible()],
      ];
      for (const [path, loaded] of pages) {
        await page.goto(path);
        await loaded();
        expectWithinBudget(await layoutShifts(page), path);
      }
      await capper.api.dispose();
    });

    test('the dashboard loads without layout shift, for a capper with a sale and for a buyer', async ({
      page,
      playwright,
      baseURL,
      extraHTTPHeaders,
    }) => {
      const capper = await newAccount(playwright, { baseURL, extraHTTPHeaders });
      const buyer = await newAccount(playwright, { baseURL, extraHTTPHeaders }, 'buyer');
      const video = await createLinkVideo(capper, {
        title: uniqueTitle('Bought pick'),
        price: 12,
        selections: 'x',
      });
      await buyViaApi(buyer, video.id);
      await page.addInitScript(recordLayoutShifts);

      // A capper's dashboard opens on their uploads, a bettor's on their purchases and results.
      for (const [who, content, last] of [
        [capper, page.getByTestId('upload-sales'), page.getByTestId('earnings-total')],
        [buyer, page.getByTestId('purchase-card'), page.getByTestId('purchase-results')],
      ] as const) {
        await loginViaApi(page, who.credentials);
        await page.goto('/dashboard');
        await expect(content.first()).toBeVisible();
        await expect(last).toBeVisible();
        expectWithinBudget(await layoutShifts(page), `/dashboard as ${who.credentials.username}`);
      }
      await Promise.all([capper.api.dispose(), buyer.api.dispose()]);
    });
  });
}
