// Journeys that keep their place: signing in or registering brings people back to the checkout,
// upload or page they started from (same-site paths only); the navigation search box shows the URL's query;
// the checkout shows the amount it charges to the cent while cards keep whole dollars; the optional e-mail of
// registration appears in the account menu, and nothing appears where there is none.
import type { Page } from '@playwright/test';
import { cardOf, createLinkVideo, expect, test, uniqueTitle } from './catalog-helpers';
import { accountMenuButton, fillLogin, fillRegister, newCredentials, registerAndLogin } from './helpers';

function searchBox(page: Page) {
  return page.getByRole('searchbox', { name: 'Search videos' });
}

test.describe('signing in returns to where the user was', () => {
  test('Buy Winners on a video page: sign in, and the checkout opens (a reload keeps the way back)', async ({
    page,
    newUser,
  }) => {
    const capper = await newUser();
    const video = await createLinkVideo(capper.api, { title: uniqueTitle('Return to checkout') });
    const buyer = await registerAndLogin(page, newCredentials('buyer'));
    await page.context().clearCookies();

    await page.goto(`/video/${video.id}`);
    await page
      .getByRole('complementary', { name: 'Buy and share' })
      .getByRole('link', { name: 'Buy Winners' })
      .click();
    await expect(page).toHaveURL(`/auth?next=/checkout/${video.id}`);
    await page.reload();
    await expect(page).toHaveURL(`/auth?next=/checkout/${video.id}`);

    await fillLogin(page, buyer);
    await expect(page).toHaveURL(`/checkout/${video.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
    await expect(page.getByTestId('order-title')).toHaveText(video.title);
  });

  test('Buy Winners on a card, then registering instead: the new account lands on the checkout', async ({
    page,
    newUser,
  }) => {
    const capper = await newUser();
    const title = uniqueTitle('Register to buy');
    const video = await createLinkVideo(capper.api, { title });

    await page.goto(`/videos?q=${encodeURIComponent(title)}`);
    await cardOf(page, title).getByRole('link', { name: 'Buy Winners' }).click();
    await expect(page).toHaveURL(`/auth?next=/checkout/${video.id}`);
    // Switching tabs keeps the way back, in the URL.
    await page.getByRole('button', { name: 'Register here' }).click();
    await expect(page).toHaveURL(`/auth?tab=register&next=/checkout/${video.id}`);

    await fillRegister(page, newCredentials('newbuyer'));
    await expect(page).toHaveURL(`/checkout/${video.id}`);
    await expect(page.getByTestId('order-title')).toHaveText(title);
  });

  test("'Sell your picks' while signed out: sign in, and the upload page opens", async ({ page }) => {
    const capper = await registerAndLogin(page, newCredentials('seller'));
    await page.context().clearCookies();

    await page.goto('/');
    await page.getByRole('link', { name: 'Sell your picks' }).click();
    await expect(page).toHaveURL('/auth?next=/upload');
    await fillLogin(page, capper);
    await expect(page).toHaveURL('/upload');
    await expect(page.getByRole('heading', { level: 1, name: 'Upload a New Video' })).toBeVisible();
  });

  test('a protected page with its query: sign in, and the same page and query open', async ({ page }) => {
    const user = await registerAndLogin(page);
    await page.context().clearCookies();

    await page.goto('/dashboard?tab=uploads');
    await expect(page).toHaveURL('/auth?next=/dashboard%3Ftab%3Duploads');
    await fillLogin(page, user);
    await expect(page).toHaveURL('/dashboard?tab=uploads');
    await expect(page.getByRole('tab', { name: 'Your Uploads' })).toHaveAttribute('aria-selected', 'true');
  });

  test("the navigation bar's sign-in links come back to the page they were used on", async ({
    page,
    newUser,
  }) => {
    const capper = await newUser();
    const video = await createLinkVideo(capper.api, { title: uniqueTitle('Back to the pick') });
    const reader = await registerAndLogin(page, newCredentials('reader'));
    await page.context().clearCookies();

    await page.goto(`/video/${video.id}`);
    const main = page.getByRole('navigation', { name: 'Main' });
    await expect(main.getByRole('link', { name: 'Open Account Capper/Bettor' })).toHaveAttribute(
      'href',
      `/auth?tab=register&next=/video/${video.id}`,
    );
    await main.getByRole('link', { name: 'Login Capper/Bettor' }).click();
    await expect(page).toHaveURL(`/auth?next=/video/${video.id}`);
    await fillLogin(page, reader);
    await expect(page).toHaveURL(`/video/${video.id}`);
    await expect(page.getByRole('heading', { level: 1, name: video.title })).toBeVisible();
  });

  test('only paths of this site are followed: anything else goes home', async ({ page }) => {
    test.slow(); // a dozen sign-in redirects, each a full page load: over 30 s on a slow machine
    const user = await registerAndLogin(page);
    await page.context().clearCookies();
    // Through the form once: a foreign address in next is ignored and the user lands home.
    await page.goto('/auth?next=https://evil.example/checkout/1');
    await fillLogin(page, user);
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: "Today's Picks" })).toBeVisible();

    // Signed in, /auth sends the user straight to next: the same check, for every trick in the book.
    const refused = [
      '//evil.example',
      '/\\evil.example',
      '/%5Cevil.example',
      '%2F%2Fevil.example',
      '/%2F%2Fevil.example',
      '/%09/evil.example',
      '/..//evil.example',
      'https:evil.example',
      'javascript:alert(document.domain)',
      '/auth',
    ];
    for (const next of refused) {
      await page.goto(`/auth?next=${encodeURIComponent(next)}`);
      await expect(page, next).toHaveURL('/');
    }
    await page.goto('/auth?next=/dashboard');
    await expect(page).toHaveURL('/dashboard');
  });
});

test.describe('the navigation search box shows the search in the URL', () => {
  test('opened directly, searched again, and through back and forward', async ({ page }) => {
    await page.goto('/videos?q=Lakers');
    await expect(searchBox(page)).toHaveValue('Lakers');

    await searchBox(page).fill('Celtics');
    await searchBox(page).press('Enter');
    await expect(page).toHaveURL('/videos?q=Celtics');
    await expect(searchBox(page)).toHaveValue('Celtics');

    await page.goBack();
    await expect(page).toHaveURL('/videos?q=Lakers');
    await expect(searchBox(page)).toHaveValue('Lakers');
    await page.goForward();
    await expect(searchBox(page)).toHaveValue('Celtics');

    // Away from the results, the box is empty again; back on them, it shows their query.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL('/');
    await expect(searchBox(page)).toHaveValue('');
    await page.goBack();
    await expect(searchBox(page)).toHaveValue('Celtics');
  });

  test('a query with spaces, symbols and a percent sign reads as typed', async ({ page }) => {
    await page.goto('/videos?q=NBA%20parlay%20%26%20100%25%20props');
    await expect(searchBox(page)).toHaveValue('NBA parlay & 100% props');
  });
});

test('cards, the video page and the checkout all show the amount charged, to the cent', async ({
  page,
  newUser,
}) => {
  const capper = await newUser();
  const title = uniqueTitle('Cents at checkout');
  const video = await createLinkVideo(capper.api, { title, price: 9.99 });
  await registerAndLogin(page);

  await page.goto(`/videos?q=${encodeURIComponent(title)}`);
  const card = cardOf(page, title);
  await expect(card).toContainText('$9.99');
  await expect(card).not.toContainText(/\$9(?!\.99)/);
  await page.goto(`/video/${video.id}`);
  await expect(page.getByTestId('video-price')).toHaveText('$9.99');

  await page.goto(`/checkout/${video.id}`);
  await expect(page.getByTestId('order-price')).toHaveText('$9.99');
  await expect(page.getByTestId('order-total')).toHaveText('$9.99');
  // No other figure on the page names a different amount (a '$9' Price above a '$9.99' charge, say).
  const amounts = (await page.getByRole('main').innerText()).match(/\$\d[\d,]*(\.\d+)?/g) ?? [];
  // Price, Total and the Pay button.
  expect(amounts.filter((amount) => amount !== '$0.00').sort()).toEqual(['$9.99', '$9.99', '$9.99']);
});

test.describe('the e-mail of registration in the account menu', () => {
  test('an e-mail given at registration is sent, checked and shown in the menu and the phone drawer', async ({
    page,
  }) => {
    const credentials = newCredentials('mailer');
    const email = `${credentials.username}@example.com`;
    await page.goto('/auth?tab=register');
    const form = page.getByRole('form', { name: 'Register' });

    // A malformed address is refused in the form, with a message, and nothing is sent.
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/register')) sent += 1;
    });
    await form.getByLabel('Email').fill('not-an-address');
    await fillRegister(page, credentials);
    await expect(form.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toBe(0);

    await form.getByLabel('Email').fill(email);
    const request = page.waitForRequest(
      (req) => req.url().endsWith('/api/register') && req.method() === 'POST',
    );
    await form.getByRole('button', { name: 'Create Account Capper/Bettor' }).click();
    expect((await request).postDataJSON()).toMatchObject({ username: credentials.username, email });
    await expect(page).toHaveURL('/');

    await page.reload(); // from the server's session, not only the register answer
    await accountMenuButton(page).click();
    const menu = page.getByRole('menu');
    await expect(menu).toContainText(credentials.username);
    await expect(menu.getByTestId('menu-email')).toHaveText(email);

    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: 'PickReel' })).toContainText(email);
  });

  test('without an e-mail the menu and the drawer show the username and no e-mail line', async ({ page }) => {
    const { username } = await registerAndLogin(page);
    await page.goto('/');
    await accountMenuButton(page).click();
    const menu = page.getByRole('menu');
    await expect(menu).toContainText(username);
    await expect(menu.getByTestId('menu-email')).toHaveCount(0);
    await expect(menu).not.toContainText(/e-?mail/i);

    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'PickReel' });
    await expect(drawer).toContainText(username);
    await expect(drawer).not.toContainText(/e-?mail/i);
  });
});
