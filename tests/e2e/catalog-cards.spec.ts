// The video card of spec 2 in each viewer's eyes (visitor, signed-in stranger, owner, buyer) on the home
// page, with videos made through the API as cappers and buyers make them.
import { buyVideo, cardOf, createLinkVideo, expect, test, uniqueTitle } from './catalog-helpers';
import { loginViaApi, registerAndLogin } from './helpers';

test('a visitor sees the card with its price to the cent and a Buy Winners link to sign in', async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const title = uniqueTitle('Visitor view');
  const video = await createLinkVideo(capper.api, {
    title,
    description: 'Two-leg NBA parlay, explained.',
    price: 19.99,
    category: 'NBA',
  });

  await page.goto('/');
  const card = cardOf(page, title);
  await expect(card).toContainText('$19.99');
  await expect(card).toContainText('Two-leg NBA parlay, explained.');
  await expect(card).toContainText(`by ${capper.username}`);
  await expect(card).toContainText('NBA');
  // spec 2: the duration as minutes:seconds over the thumbnail; a YouTube link's is YouTube's.
  await expect(card).toContainText('1:35');
  await expect(card.locator('img')).toHaveAttribute(
    'src',
    'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
  );
  await expect(card.getByRole('button', { name: `Play ${title}` })).toBeVisible();
  await expect(card.getByText('Your Video')).toHaveCount(0);
  await expect(card.getByText('Purchased')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Winning Selections' })).toHaveCount(0);

  const buy = card.getByRole('link', { name: 'Buy Winners' });
  // Signing in then opens the checkout this link was for.
  await expect(buy).toHaveAttribute('href', `/auth?next=/checkout/${video.id}`);
  await buy.click();
  await expect(page).toHaveURL(`/auth?next=/checkout/${video.id}`);

  // Clicking the description (anywhere on the card but its controls) opens the video's page (spec 2). The
  // card's link covers it, so the click goes where a person's would: to that point on the screen.
  await page.goto('/');
  const description = cardOf(page, title).getByText('Two-leg NBA parlay, explained.');
  await description.scrollIntoViewIfNeeded();
  const box = await description.boundingBox();
  await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
  await expect(page).toHaveURL(`/video/${video.id}`);
});

test('a signed-in stranger is sent to checkout by Buy Winners', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Stranger view');
  const video = await createLinkVideo(capper.api, { title });
  await registerAndLogin(page);

  await page.goto('/');
  const buy = cardOf(page, title).getByRole('link', { name: 'Buy Winners' });
  await expect(buy).toHaveAttribute('href', `/checkout/${video.id}`);
  await buy.click();
  await expect(page).toHaveURL(`/checkout/${video.id}`);
});

test('the owner sees Your Video, the winning selections, edit, delete and Watch, and no buy button', async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const title = uniqueTitle('Owner view');
  const video = await createLinkVideo(capper.api, {
    title,
    price: 25.5,
    category: 'Parlays',
    emailInformation: 'Celtics -3.5\nOver 221.5',
  });
  await loginViaApi(page, capper);

  await page.goto('/');
  const card = cardOf(page, title);
  await expect(card.getByText('Your Video')).toBeVisible();
  await expect(card.getByRole('link', { name: 'Buy Winners' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Watch', exact: true })).toBeVisible();
  await expect(card.getByRole('link', { name: 'Edit', exact: true })).toHaveAttribute(
    'href',
    `/edit-video/${video.id}`,
  );
  await expect(card.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();

  // The selections dialog: selections, the price with two decimals, the category (spec 2, 9).
  const opener = card.getByRole('button', { name: 'Winning Selections' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Winning Selections' });
  await expect(dialog).toContainText('Celtics -3.5');
  await expect(dialog).toContainText('Over 221.5');
  await expect(dialog).toContainText('$25.50');
  await expect(dialog).toContainText('Parlays');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // Focus goes back to the button that opened it.
  await expect(opener).toBeFocused();
});

test('a buyer sees Purchased and no buy button', async ({ page, newUser }) => {
  const capper = await newUser();
  const title = uniqueTitle('Buyer view');
  const video = await createLinkVideo(capper.api, { title, emailInformation: 'Yankees ML' });
  await registerAndLogin(page);
  await buyVideo(page.request, video.id);

  await page.goto('/');
  const card = cardOf(page, title);
  await expect(card.getByText('Purchased')).toBeVisible();
  await expect(card.getByRole('link', { name: 'Buy Winners' })).toHaveCount(0);
  await expect(card.getByText('Your Video')).toHaveCount(0);
  await card.getByRole('link', { name: 'View Selections' }).click();
  await expect(page).toHaveURL(`/video/${video.id}`);
  await expect(page.getByRole('region', { name: 'Winning Selections' })).toContainText('Yankees ML');
});
