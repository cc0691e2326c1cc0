// The API reference: /api/docs renders the OpenAPI document in Chromium, offline, within the
// site's Content-Security-Policy, with no console error (fixtures.ts) and no CSP violation.
import { expect, test } from './fixtures';

test('/api/docs renders the API document, within the CSP, from the server alone', async ({
  page,
  baseURL,
}) => {
  const violations: string[] = [];
  await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void })
        .__reportCspViolation;
      void report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'}`);
    });
  });
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== new URL(baseURL!).origin) elsewhere.push(request.url());
  });

  const response = await page.goto('/api/docs');
  expect(response?.status()).toBe(200);
  // The pages' policy applies here too: scripts from this site only.
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

  await expect(page.getByRole('heading', { name: /PickReel API/ })).toBeVisible();
  // A known operation, with its summary from the route's schema.
  const operation = page.locator('.opblock-summary', { hasText: '/api/videos/featured' });
  await expect(operation).toBeVisible();
  await expect(operation).toContainText('Popular picks on sale');
  // Opened, it shows the response the schema declares.
  await operation.click();
  await expect(page.locator('.opblock-body').first()).toContainText('Video');

  const apiDocument = await page.request.get('/api/openapi.json');
  expect(apiDocument.ok()).toBe(true);
  expect((await apiDocument.json()).openapi).toBe('3.1.0');

  expect(violations, 'CSP violations').toEqual([]);
  expect(elsewhere, 'requests to other sites').toEqual([]);
});

test('the app pages load nothing of the API reference', async ({ page }) => {
  const loaded: string[] = [];
  page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
  await page.goto('/');
  await expect(page.getByRole('main')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(loaded.filter((path) => path.startsWith('/api/docs') || path === '/api/openapi.json')).toEqual([]);
});
