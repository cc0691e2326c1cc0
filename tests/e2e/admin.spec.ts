import { E2E_ADMIN } from '../setup/e2e-env';
import { expect, test } from './fixtures';
import { accountMenuButton, loginViaApi, registerAndLogin, toasts } from './helpers';

test('a signed-in non-admin is turned away from /admin', async ({ page }) => {
  await registerAndLogin(page);
  await page.goto('/admin');
  await expect(page).toHaveURL('/');
  await expect(toasts(page)).toHaveCount(1);
  await expect(toasts(page)).toContainText('Access Denied');
  await expect(toasts(page)).toContainText('You do not have permission to access the admin dashboard.');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
});

test('an admin finds Admin Dashboard in the account menu and opens it', async ({ page }) => {
  await loginViaApi(page, E2E_ADMIN);
  await page.goto('/');
  await accountMenuButton(page).click();
  await page.getByRole('menuitem', { name: 'Admin Dashboard' }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
});

test('an admin finds Admin Dashboard in the drawer on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginViaApi(page, E2E_ADMIN);
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog', { name: 'PickReel' }).getByRole('link', { name: 'Admin Dashboard' }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
});

test('an address set on the profile is confirmed through the link an admin reads in the Mail tab (no SMTP server)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const user = await registerAndLogin(page);
  const address = `${user.username.toLowerCase()}@example.com`;
  await page.goto('/settings/profile');
  await expect(page.getByTestId('email-state')).toHaveText('No e-mail address yet.');
  const field = page.getByRole('textbox', { name: 'E-mail address' });
  await field.fill('not an address');
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill(address);
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByTestId('email-state')).toContainText(`Confirmation sent to ${address}`);

  // The embedded default has no SMTP server: the mail waits in the outbox, where an admin reads it.
  await loginViaApi(page, E2E_ADMIN);
  await page.goto('/admin?tab=mail');
  await expect(page.getByRole('heading', { level: 2, name: 'Mail' })).toBeVisible();
  const row = page.getByTestId('admin-mail').filter({ hasText: address });
  await expect(row).toHaveCount(1);
  await row.getByText('Confirm your e-mail for PickReel').click();
  const text = await row.locator('pre').textContent();
  const link = /\/api\/profile\/email\/confirm\?token=[\w.-]+/.exec(text ?? '')?.[0];
  expect(link, text ?? '').toBeTruthy();
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);

  // Followed (in any browser), the link confirms the address; its owner's settings say so.
  await loginViaApi(page, user);
  await page.goto(link!);
  await expect(page).toHaveURL('/settings/profile?email=confirmed');
  await expect(page.getByTestId('email-state')).toHaveText(`Confirmed: ${address}`);
});
