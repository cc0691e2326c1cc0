import { expect, test } from './fixtures';
import { registerAndLogin, toasts } from './helpers';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

test('signed out: the drawer holds the account links and closes on navigation', async ({ page }) => {
  await page.goto('/');
  // The desktop links are gone (the leaderboard's too: it is in the drawer); the bar's first row holds
  // the brand, Home, refresh and the menu; the short placeholder fits a phone.
  const bar = page.getByRole('navigation', { name: 'Main' });
  await expect(bar.getByRole('link', { name: 'Login Capper/Bettor' })).toBeHidden();
  await expect(bar.getByRole('link', { name: 'Leaderboard' })).toBeHidden();
  const top = async (name: string, role: 'link' | 'button' = 'link') => {
    const item = bar.getByRole(role, { name, exact: true });
    await expect(item).toBeVisible();
    return (await item.boundingBox())!.y;
  };
  expect(await top('Open menu', 'button')).toBe(await top('Home'));
  // On the narrowest phones too: Home shows its icon there, and keeps its name.
  await page.setViewportSize({ width: 320, height: 700 });
  expect(await top('Open menu', 'button')).toBe(await top('Home'));
  expect(await top('Refresh page', 'button')).toBe(await top('Home'));
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('searchbox', { name: 'Search videos' })).toHaveAttribute(
    'placeholder',
    'Search videos...',
  );

  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'PickReel' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Leaderboard' })).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Login Capper/Bettor' })).toBeVisible();
  await drawer.getByRole('link', { name: 'Open Account Capper/Bettor' }).click();

  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL('/auth?tab=register');
  await expect(page.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
});

test('signed in: the drawer shows the account, navigates and signs out', async ({ page }) => {
  const { username } = await registerAndLogin(page);
  await page.goto('/');
  const menuButton = page.getByRole('button', { name: 'Open menu' });
  await menuButton.click();
  const drawer = page.getByRole('dialog', { name: 'PickReel' });
  await expect(drawer).toContainText(username);
  for (const name of ['Home', 'Upload Video', 'Dashboard', 'Your Profile']) {
    await expect(drawer.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(drawer.getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0);

  await drawer.getByRole('link', { name: 'Upload Video' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL('/upload');
  await expect(page.getByRole('heading', { level: 1, name: 'Upload a New Video' })).toBeVisible();
  // Focus goes back to the button that opened the drawer.
  await expect(menuButton).toBeFocused();

  // Escape closes it too.
  await menuButton.click();
  await expect(drawer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  await menuButton.click();
  await drawer.getByRole('button', { name: 'Sign out' }).click();
  await expect(drawer).toBeHidden();
  await expect(toasts(page)).toContainText('Logged out');
  await expect(page).toHaveURL('/');
  await menuButton.click();
  await expect(drawer.getByRole('link', { name: 'Login Capper/Bettor' })).toBeVisible();
});
