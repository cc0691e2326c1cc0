// The owner's edit and delete round trips (spec 2, 8; docs/product-decisions.md 'Screens the spec does not show',
// /edit-video/{id}), and refusals.
import { cardOf, createLinkVideo, expect, test, uniqueTitle } from './catalog-helpers';
import { loginViaApi, registerAndLogin, toasts } from './helpers';

test('the owner edits a video from its card and sees the change', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Before edit');
  const video = await createLinkVideo(capper.api, {
    title,
    description: 'Old description',
    emailInformation: 'Old selections',
    price: 12,
    category: 'General',
  });
  await loginViaApi(page, capper);
  await page.goto('/');
  await cardOf(page, title).getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page).toHaveURL(`/edit-video/${video.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Video' })).toBeVisible();

  const form = page.getByRole('form', { name: 'Edit video' });
  await expect(form.getByLabel('Title')).toHaveValue(title);
  await expect(form.getByLabel('Winning selections')).toHaveValue('Old selections');
  await expect(form.getByLabel('Price ($)')).toHaveValue('12');
  await expect(form.getByText('minimum $1')).toBeVisible();

  // The upload rules, with their messages.
  await form.getByLabel('Title').fill('   ');
  await form.getByLabel('Price ($)').fill('0.5');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByText('Title is required')).toBeVisible();
  await expect(form.getByText('Price must be at least $0.99')).toBeVisible();
  await expect(form.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Title')).toBeFocused();
  await form.getByLabel('Price ($)').fill('12.5');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByText('Enter the price in whole dollars')).toBeVisible();

  const newTitle = uniqueTitle('After edit');
  await form.getByLabel('Title').fill(newTitle);
  await form.getByLabel('Description').fill('New description');
  await form.getByLabel('Winning selections').fill('New selections: Bucks ML');
  await form.getByLabel('Price ($)').fill('30');
  await form.getByLabel('Category').selectOption('NHL');
  await form.getByRole('button', { name: 'Save changes' }).click();

  await expect(toasts(page).filter({ hasText: 'Video updated' })).toBeVisible();
  await expect(page).toHaveURL(`/video/${video.id}`);
  await expect(page.getByRole('heading', { level: 1, name: newTitle })).toBeVisible();
  await expect(page.getByTestId('video-price')).toHaveText('$30');
  await expect(page.getByRole('main')).toContainText('NHL');
  await expect(page.getByRole('region', { name: 'Description' })).toContainText('New description');
  await expect(page.getByRole('region', { name: 'Winning Selections' })).toContainText('Bucks ML');

  // The lists were refreshed: the home page shows the new title, not the old one.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(cardOf(page, newTitle)).toBeVisible();
  await expect(cardOf(page, title)).toHaveCount(0);
});

test('anyone else is refused the edit page, and the server refuses them too', async ({ page, newUser }) => {
  const capper = await newUser();
  const video = await createLinkVideo(capper.api, { title: uniqueTitle('Not yours') });
  await registerAndLogin(page);
  await page.goto(`/edit-video/${video.id}`);
  await expect(page.getByRole('alert')).toHaveText('You can only edit your own videos.');
  await expect(page.getByRole('form', { name: 'Edit video' })).toHaveCount(0);
  const res = await page.request.patch(`/api/videos/${video.id}`, { data: { title: 'Hijacked' } });
  expect(res.status()).toBe(403);

  await page.goto('/edit-video/999999999');
  await expect(page.getByRole('heading', { level: 1, name: 'Video not found' })).toBeVisible();
});

test('the owner deletes a video after confirming, with the spec toasts', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Delete me');
  const video = await createLinkVideo(capper.api, { title });
  await loginViaApi(page, capper);
  await page.goto('/');
  const card = cardOf(page, title);

  // Cancel keeps it.
  await card.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Are you sure you want to delete this video?');
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Delete', exact: true })).toBeFocused();
  await expect(card).toBeVisible();

  await card.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  const toast = toasts(page).filter({ hasText: 'Video deleted' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Your video has been deleted successfully');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  // The lists were refreshed.
  await expect(card).toHaveCount(0);
  expect((await page.request.get(`/api/videos/${video.id}`)).status()).toBe(404);
  await page.goto(`/video/${video.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Video not found' })).toBeVisible();
});

test('deleting from the video page goes home', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Delete from page');
  const video = await createLinkVideo(capper.api, { title });
  await loginViaApi(page, capper);
  await page.goto(`/video/${video.id}`);
  await page
    .getByRole('complementary', { name: 'Buy and share' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toasts(page).filter({ hasText: 'Video deleted' })).toBeVisible();
  await expect(page).toHaveURL('/');
  await expect(cardOf(page, title)).toHaveCount(0);
});

test.describe('when the server refuses a deletion', () => {
  test.use({ allowedConsoleErrors: /status of 500/ });

  test('the toast says Error with the server message, and the video stays', async ({ page, newUser }) => {
    const capper = await newUser();
    const title = uniqueTitle('Undeletable');
    await createLinkVideo(capper.api, { title });
    await loginViaApi(page, capper);
    await page.route('**/api/videos/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, json: { message: 'The database is busy. Try again.' } })
        : route.continue(),
    );
    await page.goto('/');
    const card = cardOf(page, title);
    await card.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    const toast = toasts(page).filter({ hasText: 'Error' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('The database is busy. Try again.');
    await expect(card).toBeVisible();
    // The dialog closed so the toast is heard; focus is back on the button that opened it.
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(card.getByRole('button', { name: 'Delete', exact: true })).toBeFocused();
  });

  test('without a message from the server, the toast says Failed to delete video', async ({
    page,
    newUser,
  }) => {
    const capper = await newUser();
    const title = uniqueTitle('Proxy error');
    await createLinkVideo(capper.api, { title });
    await loginViaApi(page, capper);
    await page.route('**/api/videos/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Bad gateway</h1>' })
        : route.continue(),
    );
    await page.goto('/');
    await cardOf(page, title).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    const toast = toasts(page).filter({ hasText: 'Error' });
    await expect(toast).toContainText('Failed to delete video');
    await expect(toast).not.toContainText('Bad gateway');
  });
});
