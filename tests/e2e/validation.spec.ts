import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// spec 5: these messages come from the shared zod schemas; nothing reaches the server until they pass.
function countAuthRequests(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (/\/api\/(login|register)$/.test(request.url())) seen.count += 1;
  });
  return seen;
}

test('login: empty and too-short fields show the spec messages on the fields', async ({ page }) => {
  const requests = countAuthRequests(page);
  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByRole('button', { name: 'Sign In' }).click();
  await expect(form).toContainText('Username must be at least 3 characters.');
  await expect(form).toContainText('Password must be at least 6 characters.');

  await form.getByLabel('Username').fill('ab');
  await form.getByLabel('Password').fill('12345');
  await form.getByRole('button', { name: 'Sign In' }).click();
  const username = form.getByLabel('Username');
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  await expect(username).toHaveAccessibleDescription('Username must be at least 3 characters.');
  await expect(form.getByLabel('Password')).toHaveAccessibleDescription(
    'Password must be at least 6 characters.',
  );

  // Fixing a field clears its message as the user types.
  await username.fill('abc');
  await expect(form).not.toContainText('Username must be at least 3 characters.');
  await expect(username).not.toHaveAttribute('aria-invalid', 'true');
  expect(requests.count).toBe(0);
});

test('register: short username, phone and password show the spec messages', async ({ page }) => {
  const requests = countAuthRequests(page);
  await page.goto('/auth?tab=register');
  const form = page.getByRole('form', { name: 'Register' });
  await form.getByLabel('Username').fill('ab');
  await form.getByLabel('Phone number').fill('12345');
  await form.getByLabel('Password').fill('123');
  await form.getByRole('button', { name: 'Create Account Capper/Bettor' }).click();

  await expect(form.getByLabel('Username')).toHaveAccessibleDescription(
    'Username must be at least 3 characters.',
  );
  await expect(form.getByLabel('Phone number')).toHaveAccessibleDescription(
    /Phone number must be at least 10 digits\./,
  );
  await expect(form.getByLabel('Password')).toHaveAccessibleDescription(
    /Password must be at least 6 characters\./,
  );
  for (const label of ['Username', 'Phone number', 'Password']) {
    await expect(form.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
  }
  expect(requests.count).toBe(0);
});

test('register: the phone number is optional', async ({ page }) => {
  await page.goto('/auth?tab=register');
  const form = page.getByRole('form', { name: 'Register' });
  await form.getByLabel('Username').fill('ab');
  await form.getByLabel('Password').fill('123456');
  await form.getByRole('button', { name: 'Create Account Capper/Bettor' }).click();
  await expect(form).toContainText('Username must be at least 3 characters.');
  await expect(form).not.toContainText('Phone number must be at least 10 digits.');
  await expect(form).not.toContainText('Password must be at least 6 characters.');
});
