import { test as base, expect } from '@playwright/test';

// Chromium itself logs every 4xx response as a console error ("Failed to load resource: ... 401"). The app
// expects some (a signed-out /api/user, a refused login), so those are not the app's own errors; 5xx are.
const EXPECTED_NETWORK_LOG = /^Failed to load resource: the server responded with a status of 4\d\d/;

/** A 1x1 JPEG. */
export const TINY_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
  'base64',
);

/** YouTube's image host, where link videos' thumbnails live. */
export const YOUTUBE_IMAGE_HOST = 'https://i.ytimg.com';

let clientCounter = 0;

/** A distinct client address per test, so the per-IP sign-in rate limit counts each test on its own. */
function nextClientIp(workerIndex: number): string {
  clientCounter += 1;
  return `10.${(workerIndex % 250) + 1}.${Math.floor(clientCounter / 250) % 250}.${(clientCounter % 250) + 1}`;
}

type Options = {
  /** Console errors a test provokes on purpose; anything else still fails it. */
  allowedConsoleErrors: RegExp | undefined;
};

export const test = base.extend<Options>({
  allowedConsoleErrors: [undefined, { option: true }],

  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': nextClientIp(testInfo.workerIndex) });
  },

  // conventions.md: a console.error in the page fails the test.
  page: async ({ page, allowedConsoleErrors }, use) => {
    const errors: string[] = [];
    const allowed = allowedConsoleErrors
      ? [EXPECTED_NETWORK_LOG, allowedConsoleErrors]
      : [EXPECTED_NETWORK_LOG];
    page.on('console', (message) => {
      const text = message.text();
      if (message.type() === 'error' && !allowed.some((pattern) => pattern.test(text))) errors.push(text);
    });
    page.on('pageerror', (error) => errors.push(`Uncaught ${error.name}: ${error.message}`));
    // The tests run offline: YouTube's image host is stood in for, as a browser online would load it.
    await page.route(`${YOUTUBE_IMAGE_HOST}/**`, (route) =>
      route.fulfill({ body: TINY_JPEG, contentType: 'image/jpeg' }),
    );
    await use(page);
    expect(errors, 'the page logged errors').toEqual([]);
  },
});

export { expect };
