import { expect, test } from './fixtures';
import {
  accountMenuButton,
  fillLogin,
  fillRegister,
  loginLink,
  newCredentials,
  registerAndLogin,
  toasts,
} from './helpers';

test('register, see the account menu, sign out and sign back in', async ({ page }) => {
  const credentials = newCredentials('flow');
  await page.goto('/');
  await page.getByRole('link', { name: 'Open Account Capper/Bettor' }).click();
  await expect(page).toHaveURL('/auth?tab=register');

  await fillRegister(page, credentials, '5551234567');
  await expect(page).toHaveURL('/');
  await expect(toasts(page)).toContainText('Registration successful');
  await expect(toasts(page)).toContainText(credentials.username);

  // spec 2: the avatar shows the username's first letter; the menu shows the username and its items.
  const avatar = accountMenuButton(page);
  await expect(avatar).toHaveText(credentials.username.charAt(0).toUpperCase());
  await expect(page.getByRole('link', { name: 'Upload Video' })).toHaveAttribute('href', '/upload');
  await avatar.click();
  const menu = page.getByRole('menu');
  await expect(menu).toContainText(credentials.username);
  await expect(menu.getByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  // The public page others see; its settings are a separate item.
  await expect(menu.getByRole('menuitem', { name: 'Your Profile' })).toHaveAttribute(
    'href',
    `/cappers/${credentials.username}`,
  );
  await expect(menu.getByRole('menuitem', { name: 'Profile settings' })).toHaveAttribute(
    'href',
    '/settings/profile',
  );
  await expect(menu.getByRole('menuitem', { name: 'Admin Dashboard' })).toHaveCount(0);

  await menu.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(toasts(page)).toContainText('Logged out');
  await expect(toasts(page)).toContainText('You have been logged out successfully');
  await expect(loginLink(page)).toBeVisible();
  await expect(accountMenuButton(page)).toHaveCount(0);
  // The session really ended on the server, not only in the page.
  expect((await page.request.get('/api/user')).status()).toBe(401);

  await loginLink(page).click();
  await expect(page).toHaveURL('/auth');
  await fillLogin(page, credentials);
  await expect(page).toHaveURL('/');
  await expect(toasts(page)).toContainText('Login successful');
  await expect(toasts(page)).toContainText(`Welcome back, ${credentials.username}!`);
  await expect(accountMenuButton(page)).toBeVisible();
});

test('the account menu items navigate', async ({ page }) => {
  const { username } = await registerAndLogin(page);
  await page.goto('/');
  await accountMenuButton(page).click();
  await page.getByRole('menuitem', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('menu')).toHaveCount(0);

  // Keyboard: Enter opens the menu, arrows move, Enter follows the link.
  await accountMenuButton(page).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  await page.getByRole('menuitem', { name: 'Your Profile' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(page).toHaveURL(`/cappers/${username}`);
  await expect(page.getByRole('heading', { level: 1, name: username })).toBeVisible();
});

test('the account menu opens from the keyboard on a fresh page and gives focus back', async ({ page }) => {
  const { username } = await registerAndLogin(page);
  await page.goto('/');
  const trigger = accountMenuButton(page);
  await trigger.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu).toContainText(username);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Dashboard' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(accountMenuButton(page)).toBeFocused();
});

test('the register form sends username, phone number, password, bio and avatar URL', async ({ page }) => {
  const credentials = newCredentials('payload');
  await page.goto('/auth?tab=register');
  const request = page.waitForRequest(
    (req) => req.url().endsWith('/api/register') && req.method() === 'POST',
  );
  await fillRegister(page, credentials, '5550001111');
  expect((await request).postDataJSON()).toEqual({
    username: credentials.username,
    phoneNumber: '5550001111',
    password: credentials.password,
    bio: '',
    avatarUrl: '',
  });
  await expect(page).toHaveURL('/');
});

test('a taken username shows "Registration failed" with the server message', async ({ page }) => {
  const taken = await registerAndLogin(page);
  await page.context().clearCookies();
  await page.goto('/auth?tab=register');
  await fillRegister(page, { username: taken.username, password: 'another-password' });
  await expect(toasts(page)).toContainText('Registration failed');
  await expect(toasts(page)).toContainText('Username already exists');
  await expect(page).toHaveURL('/auth?tab=register');
});

test('a look-alike of a taken username shows the server message', async ({ page }) => {
  const taken = await registerAndLogin(page, newCredentials('capper'));
  await page.context().clearCookies();
  await page.goto('/auth?tab=register');
  // The same name with a Cyrillic 'а' (U+0430) in place of the Latin 'a'.
  const lookAlike = taken.username.replace('a', '\u0430');
  await fillRegister(page, { username: lookAlike, password: 'another-password' });
  await expect(toasts(page)).toContainText('Registration failed');
  await expect(toasts(page)).toContainText(
    'This username is too similar to an existing one. Please choose another.',
  );
  await expect(page).toHaveURL('/auth?tab=register');
});

test('a wrong password shows "Login failed" with the server message', async ({ page }) => {
  const credentials = await registerAndLogin(page);
  await page.context().clearCookies();
  await page.goto('/auth');
  await fillLogin(page, { username: credentials.username, password: 'wrong-password' });
  await expect(toasts(page)).toContainText('Login failed');
  await expect(toasts(page)).toContainText('Invalid username or password');
  await expect(page).toHaveURL('/auth');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeEnabled();
});

test('buttons say "Logging in..." and "Creating account..." while the request is pending', async ({
  page,
}) => {
  const credentials = await registerAndLogin(page);
  await page.context().clearCookies();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/(login|register)$/, async (route) => {
    await held;
    await route.continue();
  });

  await page.goto('/auth');
  await fillLogin(page, credentials);
  const pendingLogin = page.getByRole('button', { name: 'Logging in...' });
  await expect(pendingLogin).toBeDisabled();
  release();
  await expect(page).toHaveURL('/');

  await page.request.post('/api/logout');
  await page.context().clearCookies();
  let releaseRegister: () => void = () => {};
  const heldRegister = new Promise<void>((resolve) => (releaseRegister = resolve));
  await page.unroute(/\/api\/(login|register)$/);
  await page.route(/\/api\/register$/, async (route) => {
    await heldRegister;
    await route.continue();
  });
  await page.goto('/auth?tab=register');
  await fillRegister(page, newCredentials('pending'));
  await expect(page.getByRole('button', { name: 'Creating account...' })).toBeDisabled();
  releaseRegister();
  await expect(page).toHaveURL('/');
});

test('a signed-in visitor of /auth is sent home', async ({ page }) => {
  await registerAndLogin(page);
  await page.goto('/auth');
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: "Today's Picks" })).toBeVisible();
});

test('?tab=register opens the Register tab, and the links switch between the tabs', async ({ page }) => {
  await page.goto('/auth?tab=register');
  await expect(page.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Create Account Capper/Bettor' })).toBeVisible();

  await page.getByRole('button', { name: 'Sign in here' }).click();
  await expect(page).toHaveURL('/auth');
  await expect(page.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();

  await page.getByRole('button', { name: 'Register here' }).click();
  await expect(page).toHaveURL('/auth?tab=register');
  await page.getByRole('tab', { name: 'Login' }).click();
  await expect(page).toHaveURL('/auth');
});

test('the auth page shows the marketing panel with the 10% cut', async ({ page }) => {
  await page.goto('/auth');
  const panel = page.getByRole('region', { name: 'PickReel' });
  await expect(panel).toContainText('upload preview videos and sell their daily winners');
  await expect(panel).toContainText('10% cut');
  await expect(panel).toContainText('buy daily winners');
});
