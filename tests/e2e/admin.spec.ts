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
