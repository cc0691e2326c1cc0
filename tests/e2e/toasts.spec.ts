import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fillLogin, fillRegister, newCredentials, registerAndLogin, toasts } from './helpers';

/** Drags a settled toast to the right by `distance` px, in small steps as a finger would. */
async function swipeRight(page: Page, toast: Locator, distance: number): Promise<void> {
  // The toast slides in; measure it where it comes to rest.
  await toast.evaluate((element) =>
    Promise.all(element.getAnimations().map((animation) => animation.finished)),
  );
  const box = await toast.boundingBox();
  if (!box) throw new Error('toast has no box');
  const x = box.x + 40;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + distance, y, { steps: 8 });
  await page.mouse.up();
}

// spec 9: one toast at a time; swipe right past 50 px dismisses; F8 focuses the notifications.

test('a new toast replaces the one showing: only one is visible', async ({ page }) => {
  const taken = await registerAndLogin(page);
  await page.context().clearCookies();
  await page.goto('/auth?tab=register');
  await fillRegister(page, { username: taken.username, password: 'whatever-pass' });
  await expect(toasts(page)).toHaveCount(1);
  await expect(toasts(page)).toContainText('Registration failed');

  await page.getByRole('tab', { name: 'Login' }).click();
  await fillLogin(page, { username: taken.username, password: 'wrong-password' });
  await expect(toasts(page).filter({ hasText: 'Login failed' })).toBeVisible();
  await expect(toasts(page)).toHaveCount(1);
  await expect(toasts(page)).not.toContainText('Registration failed');
});

test('the close button dismisses a toast, and F8 moves focus to the notifications', async ({ page }) => {
  await page.goto('/auth');
  await fillLogin(page, newCredentials('nobody'));
  const toast = toasts(page);
  await expect(toast).toContainText('Login failed');

  await page.keyboard.press('F8');
  await expect(page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('list')).toBeFocused();

  await toast.getByRole('button', { name: 'Close notification' }).click();
  await expect(toast).toHaveCount(0);
});

test('swiping a toast right dismisses it', async ({ page }) => {
  await page.goto('/auth');
  await fillLogin(page, newCredentials('nobody'));
  const toast = toasts(page);
  await expect(toast).toContainText('Login failed');
  await swipeRight(page, toast, 120);
  await expect(toast).toHaveCount(0);
});

test('a short swipe does not dismiss a toast', async ({ page }) => {
  await page.goto('/auth');
  await fillLogin(page, newCredentials('nobody'));
  const toast = toasts(page);
  await expect(toast).toContainText('Login failed');
  await swipeRight(page, toast, 30);
  await expect(toast).toBeVisible();
  await expect(toast).toHaveAttribute('data-swipe', 'cancel');
});

test('a toast closes by itself', async ({ page }) => {
  await page.goto('/auth');
  await fillLogin(page, newCredentials('nobody'));
  await expect(toasts(page)).toContainText('Login failed');
  await page.mouse.move(0, 0); // a pointer resting on the toast would pause its timer
  await expect(toasts(page)).toHaveCount(0, { timeout: 15_000 });
});

test('the notifications load with the first toast, not with the page, and F8 before any toast still finds them', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/auth');
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => /toast-region/.test(url))).toEqual([]);
  await expect(page.getByRole('region', { name: 'Notifications (F8)' })).toHaveCount(0);

  await page.keyboard.press('F8');
  await expect(page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('list')).toBeFocused();
  expect(scripts.filter((url) => /toast-region/.test(url))).toHaveLength(1);

  await fillLogin(page, newCredentials('nobody'));
  await expect(toasts(page)).toContainText('Login failed');
});
