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
  // The rows of Home, the menu and refresh, polled as one reading: the bar may be rendered again meanwhile
  // (the page shell, then the app), and a box read from a replaced element is null.
  const rows = () =>
    Promise.all(
      [
        bar.getByRole('link', { name: 'Home', exact: true }),
        bar.getByRole('button', { name: 'Open menu', exact: true }),
        bar.getByRole('button', { name: 'Refresh page', exact: true }),
      ].map(async (item) => (await item.boundingBox())?.y ?? null),
    );
  const oneRow = async () => {
    const [home, ...others] = await rows();
    return home !== null && others.every((y) => y === home);
  };
  await expect.poll(oneRow).toBe(true);
  // On the narrowest phones too: Home shows its icon there, and keeps its name.
  await page.setViewportSize({ width: 320, height: 700 });
  await expect.poll(oneRow).toBe(true);
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
  // A link that navigates takes focus to the new page's heading, as a page load would; the drawer does not
  // hand it back to its button.
  await expect(page.getByRole('heading', { level: 1, name: 'Upload a New Video' })).toBeFocused();

  // Escape closes it too, and closing without navigating hands focus back to the button that opened it.
  await menuButton.click();
  await expect(drawer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(menuButton).toBeFocused();

  await menuButton.click();
  await drawer.getByRole('button', { name: 'Sign out' }).click();
  await expect(drawer).toBeHidden();
  await expect(toasts(page)).toContainText('Logged out');
  await expect(page).toHaveURL('/');
  await menuButton.click();
  await expect(drawer.getByRole('link', { name: 'Login Capper/Bettor' })).toBeVisible();
});
