import { test as base, expect } from '@playwright/test';

// Chromium itself logs every 4xx response as a console error ("Failed to load resource: ... 401"). The app
// expects some (a signed-out /api/user, a refused login), so those are not the app's own errors; 5xx are.
const EXPECTED_NETWORK_LOG = /^Failed to load resource: the server responded with a status of 4\d\d/;

let clientCounter = 0;

/** A distinct client address per test, so the per-IP sign-in rate limit counts each test on its own. */
function nextClientIp(workerIndex: number): string {
  clientCounter += 1;
  return `10.${(workerIndex % 250) + 1}.${Math.floor(clientCounter / 250) % 250}.${(clientCounter % 250) + 1}`;
}

export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': nextClientIp(testInfo.workerIndex) });
  },

  // conventions.md: a console.error in the page fails the test.
  page: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !EXPECTED_NETWORK_LOG.test(message.text()))
        errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`Uncaught ${error.name}: ${error.message}`));
    await use(page);
    expect(errors, 'the page logged errors').toEqual([]);
  },
});

export { expect };
