import type { Page, Request } from '@playwright/test';
import { E2E_ADMIN } from '../setup/e2e-env';
import { expect, test } from './admin-fixtures';
import { toasts } from './helpers';

/**
 * The toast, while a modal dialog is open: Radix hides everything outside the dialog (the notifications
 * region too) from the accessibility tree, though the toast is on screen.
 */
function toastBehindDialog(page: Page) {
  return page
    .getByRole('region', { name: 'Notifications (F8)', includeHidden: true })
    .getByRole('listitem', { includeHidden: true });
}

function usersTable(page: Page) {
  return page.getByRole('table', { name: 'Users' });
}

function userRow(page: Page, username: string) {
  return usersTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: username, exact: true }) });
}

test('the Users tab lists accounts with the spec columns, passwords hidden, and no Delete for admins', async ({
  adminPage: page,
  createUser,
}) => {
  const capper = await createUser();
  await page.goto('/admin');
  await expect(page.getByRole('tab', { name: 'Users', selected: true })).toBeVisible();
  await expect(page.getByText('Manage all users in the system. View details about each user.')).toBeVisible();

  const headers = usersTable(page).getByRole('columnheader');
  await expect(headers).toHaveText([
    'ID',
    'Username',
    'Email',
    'Phone',
    'Password',
    'Admin',
    'Manual Earnings',
    'Created',
    'Actions',
  ]);

  const row = userRow(page, capper.username);
  await expect(row.getByRole('cell')).toHaveText([
    String(capper.id),
    /None/,
    /None/,
    'hidden',
    'No',
    '$0.00',
    new Date().toLocaleDateString('en-US'),
    /Earnings\s*Delete/,
  ]);
  await expect(page.getByRole('button', { name: `Delete user ${capper.username}` })).toBeVisible();

  const admin = userRow(page, E2E_ADMIN.username);
  await expect(admin.getByRole('cell').nth(4)).toHaveText('Yes');
  await expect(page.getByRole('button', { name: `Earnings for ${E2E_ADMIN.username}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Delete user ${E2E_ADMIN.username}` })).toHaveCount(0);
});

test('an admin deletes a user after confirming; Cancel deletes nothing', async ({
  adminPage: page,
  createUser,
}) => {
  const victim = await createUser('victim');
  const deletes: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'DELETE') deletes.push(request);
  });
  await page.goto('/admin');
  const deleteButton = page.getByRole('button', { name: `Delete user ${victim.username}` });

  await deleteButton.click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Deletion' });
  await expect(dialog).toContainText(
    'Are you sure you want to delete this user? This will also delete all their videos and purchases. This action cannot be undone.',
  );
  await expect(dialog).toContainText(victim.username);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(deleteButton).toBeFocused();
  expect(deletes).toHaveLength(0);

  await deleteButton.click();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toasts(page)).toContainText('User deleted');
  await expect(toasts(page)).toContainText(
    'The user has been successfully deleted along with their videos and purchases.',
  );
  await expect(dialog).toBeHidden();
  await expect(userRow(page, victim.username)).toHaveCount(0);
  expect(deletes.map((request) => new URL(request.url()).pathname)).toEqual([
    `/api/admin/users/${victim.id}`,
  ]);
  // The deleted user is signed out everywhere.
  expect((await victim.api.get('/api/user')).status()).toBe(401);

  await page.reload();
  await expect(userRow(page, E2E_ADMIN.username)).toBeVisible();
  await expect(userRow(page, victim.username)).toHaveCount(0);
});

test('an admin updates manual earnings; empty does nothing, a non-number is refused before sending', async ({
  adminPage: page,
  createUser,
}) => {
  const capper = await createUser();
  const patches: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH') patches.push(request);
  });
  await page.goto('/admin');
  const row = userRow(page, capper.username);
  const earningsButton = page.getByRole('button', { name: `Earnings for ${capper.username}` });

  await earningsButton.click();
  const dialog = page.getByRole('dialog', { name: 'Update Manual Earnings' });
  await expect(dialog).toContainText(
    'Set the manual earnings amount for this user. This will be added to their total available balance for payouts.',
  );
  const amount = dialog.getByLabel('Earnings Amount ($)');
  await expect(amount).toHaveValue('0.00');
  await expect(amount).toHaveAttribute('step', '0.01');
  await expect(amount).toHaveAttribute('min', '0');
  await expect(amount).toHaveAttribute('placeholder', '0.00');
  const submit = dialog.getByRole('button', { name: 'Update Earnings' });

  // Empty: nothing happens at all.
  await amount.fill('');
  await submit.click();
  await expect(dialog).toBeVisible();
  await expect(toastBehindDialog(page)).toHaveCount(0);

  // Not a number (a number field reports "1-2" as empty, with badInput): a message, nothing sent.
  await amount.pressSequentially('1-2');
  await submit.click();
  await expect(toastBehindDialog(page)).toBeVisible();
  await expect(toastBehindDialog(page)).toContainText('Invalid amount');
  await expect(toastBehindDialog(page)).toContainText('Please enter a valid number for earnings');
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(amount).toHaveAccessibleDescription(/Please enter a valid number for earnings/);
  await expect(amount).toBeFocused();
  await expect(dialog).toBeVisible();
  expect(patches).toHaveLength(0);

  // The form leaves the minimum to the server, whose message is shown; the dialog stays open to correct it.
  await amount.fill('-5');
  await expect(amount).not.toHaveAttribute('aria-invalid');
  await submit.click();
  await expect(toastBehindDialog(page)).toContainText('Error');
  await expect(toastBehindDialog(page)).toContainText(
    'Failed to update earnings: Manual earnings cannot be negative',
  );
  await expect(amount).toHaveAccessibleDescription(/Manual earnings cannot be negative/);
  await expect(dialog).toBeVisible();
  expect(patches).toHaveLength(1);

  await amount.fill('125.5');
  await submit.click();
  await expect(toasts(page)).toContainText('Earnings updated');
  await expect(toasts(page)).toContainText("The user's manual earnings have been updated successfully.");
  await expect(dialog).toBeHidden();
  await expect(earningsButton).toBeFocused();
  await expect(row.getByRole('cell').nth(5)).toHaveText('$125.50');
  expect(patches.map((request) => request.postDataJSON())).toEqual([
    { manualEarnings: -5 },
    { manualEarnings: 125.5 },
  ]);

  // It counts towards the capper's balance, and the dialog opens with the current value.
  const earnings = (await (await capper.api.get('/api/user/earnings')).json()) as { bonus: number };
  expect(earnings.bonus).toBe(125.5);
  await earningsButton.click();
  await expect(amount).toHaveValue('125.50');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(patches).toHaveLength(2);
});

test('tabs live in the URL', async ({ adminPage: page }) => {
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Videos' }).click();
  await expect(page).toHaveURL('/admin?tab=videos');
  await expect(
    page.getByText('Manage all videos on the platform. You can delete inappropriate or spam content.'),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Videos', selected: true })).toBeVisible();

  await page.getByRole('tab', { name: 'Payouts' }).click();
  await expect(page).toHaveURL('/admin?tab=payouts');
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page).toHaveURL('/admin');

  await page.goto('/admin?tab=nonsense');
  await expect(page.getByRole('tab', { name: 'Users', selected: true })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the users are cards, each value and button in view without sideways scrolling', async ({
    adminPage: page,
    createUser,
  }) => {
    const capper = await createUser();
    await page.goto('/admin');
    const card = page
      .getByRole('list', { name: 'Users' })
      .getByRole('listitem')
      .filter({ hasText: capper.username });
    await expect(card).toContainText('Manual Earnings$0.00');
    const deleteButton = card.getByRole('button', { name: `Delete user ${capper.username}` });
    await expect(deleteButton).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await deleteButton.boundingBox();
    if (!box) throw new Error('not laid out');
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await deleteButton.click();
    await expect(page.getByRole('dialog', { name: 'Confirm Deletion' })).toBeVisible();
  });
});

test.describe('when a list fails to load', () => {
  test.use({ allowedConsoleErrors: /status of 503/ });

  test('says why and loads on retry', async ({ adminPage: page }) => {
    await page.route('**/api/admin/users', (route) =>
      route.fulfill({ status: 503, json: { message: 'Database is restarting' } }),
    );
    await page.goto('/admin');
    await expect(page.getByRole('alert')).toContainText('Failed to load users: Database is restarting');
    await page.unroute('**/api/admin/users');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(usersTable(page)).toBeVisible();

    await page.route('**/api/admin/videos', (route) =>
      route.fulfill({ status: 503, json: { message: 'Database is restarting' } }),
    );
    await page.getByRole('tab', { name: 'Videos' }).click();
    await expect(page.getByRole('alert')).toContainText('Failed to load videos: Database is restarting');
  });
});
