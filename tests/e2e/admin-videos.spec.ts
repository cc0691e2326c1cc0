import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test, type ApiUser } from './admin-fixtures';
import { accountMenuButton, toasts } from './helpers';

/**
 * A MOV by its signature (QuickTime `ftyp qt  `) whose body is noise: the server takes it, but it never
 * transcodes, so the video never turns public. Other browser tests expect an empty home page; a video that
 * only the admin list shows keeps out of their way.
 */
function unplayableMov(): Buffer {
  const ftyp = Buffer.alloc(20);
  ftyp.writeUInt32BE(20, 0);
  ftyp.write('ftypqt  ', 4, 'latin1');
  ftyp.write('qt  ', 16, 'latin1');
  return Buffer.concat([ftyp, randomBytes(2048)]);
}

async function createVideo(capper: ApiUser, title: string): Promise<number> {
  const res = await capper.api.post('/api/videos', {
    multipart: {
      title,
      description: "Preview of tonight's card",
      emailInformation: 'Lakers -3.5',
      price: '12.5',
      category: 'General',
      duration: '0',
      isPremium: 'true',
      userId: String(capper.id),
      isExternalVideo: 'false',
      video: { name: 'preview.mov', mimeType: 'video/quicktime', buffer: unplayableMov() },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

function videoRow(page: Page, title: string) {
  return page
    .getByRole('table', { name: 'Videos' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${title}`) }) });
}

test('an admin deletes a video; the admin list drops it and the public list is fetched again', async ({
  adminPage: page,
  createUser,
}) => {
  const capper = await createUser();
  const tag = randomBytes(3).toString('hex');
  const doomed = `Admin e2e doomed ${tag}`;
  const kept = `Admin e2e kept ${tag}`;
  await createVideo(capper, kept);
  const doomedId = await createVideo(capper, doomed);

  // The home page caches its list (never stale, spec 7): only an invalidation makes it ask again.
  const publicListLoads: string[] = [];
  page.on('request', (request) => {
    // The newest page itself (the home page also asks for its verified picks on sale, with a query).
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname === '/api/videos' && url.search === '') {
      publicListLoads.push(request.url());
    }
  });
  await page.goto('/');
  await expect.poll(() => publicListLoads.length).toBe(1);
  await accountMenuButton(page).click();
  await page.getByRole('menuitem', { name: 'Admin Dashboard' }).click();
  await page.getByRole('tab', { name: 'Videos' }).click();
  await expect(page).toHaveURL('/admin?tab=videos');
  await expect(
    page.getByText('Manage all videos on the platform. You can delete inappropriate or spam content.'),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Videos' }).getByRole('columnheader')).toHaveText([
    'ID',
    'Title',
    'User ID',
    'Price',
    'Views',
    'Actions',
  ]);
  // Not public yet (or ever): the admin list shows it all the same, with its state.
  await expect(videoRow(page, doomed).getByRole('rowheader')).toHaveText(
    new RegExp(`^${doomed}(Pending|Processing|Processing failed)$`),
  );
  await expect(videoRow(page, doomed).getByRole('cell')).toHaveText([
    String(doomedId),
    new RegExp(`^${capper.id}\\s*${capper.username}$`),
    '$12.50',
    '0',
    'Delete',
  ]);

  const deleteButton = page.getByRole('button', { name: `Delete video ${doomed}` });
  await deleteButton.click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Deletion' });
  await expect(dialog).toContainText(
    'Are you sure you want to delete this video? This action cannot be undone.',
  );
  await expect(dialog).toContainText(doomed);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(deleteButton).toBeFocused();
  await expect(videoRow(page, doomed)).toHaveCount(1);

  await deleteButton.click();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toasts(page)).toContainText('Video deleted');
  await expect(toasts(page)).toContainText('The video has been successfully deleted.');
  await expect(dialog).toBeHidden();
  await expect(videoRow(page, doomed)).toHaveCount(0);
  await expect(videoRow(page, kept)).toHaveCount(1);
  // The admin's own video list says it is gone; so does the owner's.
  const own = (await (await capper.api.get('/api/user/videos')).json()) as { title: string }[];
  expect(own.map((video) => video.title)).toEqual([kept]);

  expect(publicListLoads).toHaveLength(1);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL('/');
  await expect.poll(() => publicListLoads.length).toBe(2);
});
