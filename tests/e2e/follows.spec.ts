// Following cappers and in-app alerts (docs/decisions/035): the Follow button on the storefront and the pick
// page, the Following page, the header's bell kept live by the server's event stream, and the
// notifications page. Picks here are self-reported NHL legs, so no market game is needed; alerts come from
// the outbox, which a running server dispatches every few seconds.
import type { Page } from '@playwright/test';
import { expect, test, uniqueTitle } from './catalog-helpers';
import { accountMenuButton, fillLogin, registerAndLogin } from './helpers';
import { newLeg, postPick } from './pick-helpers';

const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);
/** The outbox's turn, the alert's job and the stream's event: seconds, not milliseconds. */
const ALERT_TIMEOUT = 30_000;
const PHONE = { width: 375, height: 740 };

const followButton = (page: Page, name: string) => page.getByRole('button', { name: `Follow ${name}` });
const followerCount = (page: Page) => page.getByTestId('follower-count');
/** The desktop header's bell: a menu button named with the unread count. */
const bell = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Notifications/ });

test('a bettor follows a capper from the storefront, finds their open pick on the Following page and unfollows', async ({
  page,
  newUser,
}) => {
  const capper = await newUser('capper');
  const pick = await postPick(capper.api, uniqueTitle('Followed pick'), [newLeg(inHours(48))]);
  await registerAndLogin(page);

  await page.goto(`/cappers/${capper.username}`);
  const follow = followButton(page, capper.username);
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await expect(followerCount(page)).toHaveText('0 followers');
  await follow.click();
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await expect(follow).toHaveText('Following');
  await expect(followerCount(page)).toHaveText('1 follower');
  // Kept by the server, not only on screen.
  await page.reload();
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await expect(followerCount(page)).toHaveText('1 follower');

  // The pick page shows the same state beside the capper's name.
  await page.goto(`/video/${pick.id}`);
  await expect(followButton(page, capper.username)).toHaveAttribute('aria-pressed', 'true');
  await expect(followerCount(page)).toHaveText('1 follower');

  await accountMenuButton(page).click();
  await page.getByRole('menuitem', { name: 'Following' }).click();
  await expect(page).toHaveURL('/following');
  await expect(page.getByRole('heading', { level: 1, name: 'Following' })).toBeVisible();
  const cappers = page.getByRole('region', { name: 'Cappers you follow (1)' });
  await expect(cappers.getByRole('link', { name: capper.username })).toHaveAttribute(
    'href',
    `/cappers/${capper.username}`,
  );
  const picks = page.getByRole('region', { name: 'Their open picks (1)' });
  await expect(picks.getByRole('heading', { level: 3, name: pick.title })).toBeVisible();

  await cappers.getByRole('button', { name: `Unfollow ${capper.username}` }).click();
  const empty = page.getByTestId('following-empty');
  await expect(empty).toHaveText("You don't follow anyone yet — find cappers on the leaderboard");
  await expect(empty.getByRole('link', { name: 'leaderboard' })).toHaveAttribute('href', '/leaderboard');

  await page.goto(`/cappers/${capper.username}`);
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await expect(followerCount(page)).toHaveText('0 followers');
});

test('the Follow button works from the keyboard and is absent on your own storefront and pick', async ({
  page,
  newUser,
}) => {
  const capper = await newUser('capper');
  const other = await newUser('bettor');
  const followed = await other.api.post(`/api/cappers/${capper.username}/follow`);
  expect(followed.status(), await followed.text()).toBe(200);
  const me = await registerAndLogin(page);
  const mine = await postPick(page.request, uniqueTitle('My pick'), [newLeg(inHours(48))]);

  await page.goto(`/cappers/${capper.username}`);
  const follow = followButton(page, capper.username);
  await expect(followerCount(page)).toHaveText('1 follower');
  await follow.focus();
  await page.keyboard.press('Space');
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await expect(followerCount(page)).toHaveText('2 followers');
  await page.keyboard.press('Enter');
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await expect(followerCount(page)).toHaveText('1 follower');
  await expect(follow).toBeFocused();

  await page.goto(`/cappers/${me.username}`);
  await expect(page.getByRole('heading', { level: 1, name: me.username })).toBeVisible();
  await expect(page.getByTestId('follow')).toHaveCount(0);
  await page.goto(`/video/${mine.id}`);
  await expect(page.getByRole('heading', { level: 1, name: mine.title })).toBeVisible();
  await expect(page.getByTestId('follow')).toHaveCount(0);
});

test('a failed follow goes back and says why', async ({ page, newUser }) => {
  const capper = await newUser('capper');
  await registerAndLogin(page);
  await page.route(`**/api/cappers/${capper.username}/follow`, (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 429, json: { message: 'Try again in a moment.' } })
      : route.fallback(),
  );
  await page.goto(`/cappers/${capper.username}`);
  const follow = followButton(page, capper.username);
  await expect(followerCount(page)).toHaveText('0 followers');
  await follow.click();
  await expect(page.getByRole('region', { name: 'Notifications (F8)' })).toContainText('Could not follow');
  await expect(page.getByRole('region', { name: 'Notifications (F8)' })).toContainText(
    'Try again in a moment.',
  );
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await expect(followerCount(page)).toHaveText('0 followers');
});

test('Follow on a card: a visitor is sent to sign in; signed in, one press follows and the storefront agrees', async ({
  page,
  newUser,
}) => {
  const capper = await newUser('capper');
  const title = uniqueTitle('Card follow pick');
  await postPick(capper.api, title, [newLeg(inHours(48))]);
  const card = page.getByRole('article', { name: title });
  const onCard = card.getByRole('button', { name: `Follow ${capper.username}` });

  await page.goto(`/videos?q=${encodeURIComponent(title)}`);
  const visitorFollow = card.getByRole('link', { name: `Follow ${capper.username}` });
  await expect(visitorFollow).toHaveAttribute('href', /^\/auth\?next=/);

  await registerAndLogin(page);
  await page.goto(`/videos?q=${encodeURIComponent(title)}`);
  await expect(onCard).toHaveAttribute('aria-pressed', 'false');
  // The button changes at once; the next page load must wait for the server's answer, or it cuts it off.
  const answered = (method: string) =>
    page.waitForResponse(
      (response) =>
        response.url().endsWith(`/api/cappers/${capper.username}/follow`) &&
        response.request().method() === method,
    );
  const followed = answered('POST');
  await onCard.click();
  await expect(onCard).toHaveAttribute('aria-pressed', 'true');
  expect((await followed).status()).toBe(200);
  await expect(onCard).toHaveText('Following');
  // The press did not open the pick: the card's stretched title link lies under the button.
  await expect(page).toHaveURL(`/videos?q=${encodeURIComponent(title)}`);

  await page.goto(`/cappers/${capper.username}`);
  await expect(followButton(page, capper.username)).toHaveAttribute('aria-pressed', 'true');
  await expect(followerCount(page)).toHaveText('1 follower');

  // And back: pressed again from the keyboard, the card unfollows, and a reload agrees.
  await page.goto(`/videos?q=${encodeURIComponent(title)}`);
  await onCard.focus();
  const unfollowed = answered('DELETE');
  await page.keyboard.press('Enter');
  await expect(onCard).toHaveAttribute('aria-pressed', 'false');
  expect((await unfollowed).status()).toBe(200);
  await page.reload();
  await expect(onCard).toHaveAttribute('aria-pressed', 'false');
  await expect(onCard).toHaveText('Follow');
});

test('a visitor pressing Follow signs in and comes back to the storefront', async ({ page, newUser }) => {
  const capper = await newUser('capper');
  const bettor = await newUser('bettor');
  await page.goto(`/cappers/${capper.username}`);
  await expect(followerCount(page)).toHaveText('0 followers');
  await page.getByRole('link', { name: `Follow ${capper.username}` }).click();
  await expect(page).toHaveURL(`/auth?next=/cappers/${capper.username}`);
  await fillLogin(page, bettor);
  await expect(page).toHaveURL(`/cappers/${capper.username}`);
  const follow = followButton(page, capper.username);
  await follow.click();
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await expect(followerCount(page)).toHaveText('1 follower');
});

test("a follower's bell counts a new pick live, and the alert is read from the menu and the notifications page", async ({
  page,
  newUser,
}) => {
  test.slow();
  const capper = await newUser('capper');
  await registerAndLogin(page);
  const followed = await page.request.post(`/api/cappers/${capper.username}/follow`);
  expect(followed.status(), await followed.text()).toBe(200);

  await page.goto('/');
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  const first = await postPick(capper.api, uniqueTitle('Alerted pick'), [newLeg(inHours(48))]);
  // No reload: the server's event stream brings the count.
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread', { timeout: ALERT_TIMEOUT });
  await expect(bell(page).getByTestId('unread-badge')).toHaveText('1');
  // Said aloud too: the bell's new name alone is not announced.
  await expect(page.getByRole('status').filter({ hasText: '1 unread notification' })).toHaveCount(1);

  await bell(page).click();
  const menu = page.getByRole('menu', { name: 'Notifications' });
  const alert = menu.getByRole('menuitem', { name: new RegExp(`New pick from ${capper.username}`) });
  await expect(alert).toContainText(first.title);
  await expect(alert).toHaveAttribute('href', `/video/${first.id}`);
  await expect(alert).toHaveAttribute('data-unread', 'true');
  await menu.getByRole('menuitem', { name: 'Mark all read' }).click();
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await expect(alert).toHaveAttribute('data-unread', 'false');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  const second = await postPick(capper.api, uniqueTitle('Second alerted pick'), [newLeg(inHours(48))]);
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread', { timeout: ALERT_TIMEOUT });
  await bell(page).click();
  await page
    .getByRole('menu', { name: 'Notifications' })
    .getByRole('menuitem', { name: 'See all notifications' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Notifications, newest first' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  // Newest first, the unread one marked for every reader.
  await expect(list.getByRole('listitem').first()).toContainText(second.title);
  await expect(list.getByRole('link', { name: /^Unread: New pick from/ })).toHaveCount(1);
  await expect(page.getByTestId('unread-summary')).toHaveText('1 unread');

  await list.getByRole('link', { name: new RegExp(second.title) }).click();
  await expect(page).toHaveURL(`/video/${second.id}`);
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await page.goBack();
  await expect(page.getByTestId('unread-summary')).toHaveText('You are all caught up.');
  await expect(list.getByRole('link', { name: /^Unread:/ })).toHaveCount(0);
});

test("the bell's menu opens from the keyboard, says when there is nothing yet, and gives focus back", async ({
  page,
}) => {
  await registerAndLogin(page);
  await page.goto('/');
  await bell(page).focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Notifications' });
  await expect(menu).toContainText('No notifications yet.');
  // Nothing to mark: the arrow key passes over Mark all read to the page's link.
  await expect(menu.getByRole('menuitem', { name: 'Mark all read' })).toBeDisabled();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'See all notifications' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(bell(page)).toBeFocused();
});

test('signing out closes the live stream and takes the bell away', async ({ page }) => {
  await registerAndLogin(page);
  const opened = page.waitForRequest((request) => request.url().endsWith('/api/notifications/stream'));
  await page.goto('/');
  const stream = await opened;
  await expect(bell(page)).toBeVisible();
  const closed = page.waitForEvent('requestfailed', (request) => request === stream);
  await accountMenuButton(page).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await closed;
  await expect(bell(page)).toHaveCount(0);
});

test('the notifications page pages back with Load more', async ({ page, newUser }) => {
  test.slow();
  const capper = await newUser('capper');
  await registerAndLogin(page);
  const followed = await page.request.post(`/api/cappers/${capper.username}/follow`);
  expect(followed.status(), await followed.text()).toBe(200);
  const titles: string[] = [];
  for (let index = 0; index < 21; index += 1) {
    const posted = await postPick(capper.api, uniqueTitle(`Pick ${index}`), [newLeg(inHours(48))]);
    titles.push(posted.title);
  }
  await page.goto('/');
  await expect(bell(page)).toHaveAccessibleName('Notifications, 21 unread', { timeout: ALERT_TIMEOUT });
  await page.goto('/notifications');
  const list = page.getByRole('list', { name: 'Notifications, newest first' });
  await expect(list.getByRole('listitem')).toHaveCount(20);
  await expect(list.getByRole('listitem').first()).toContainText(titles[20]!);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(21);
  await expect(list.getByRole('listitem').last()).toContainText(titles[0]!);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByTestId('unread-summary')).toHaveText('You are all caught up.');
  await expect(bell(page)).toHaveAccessibleName('Notifications');
});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE });

  test('the bell links to the notifications page, and the new pages fit the screen', async ({
    page,
    newUser,
  }) => {
    const capper = await newUser('capper');
    await registerAndLogin(page);
    await page.goto('/');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const phoneBell = page.getByRole('link', { name: /^Notifications/ });
    await expect(phoneBell).toHaveAccessibleName('Notifications');
    await phoneBell.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    await expect(page.getByTestId('notifications-empty')).toContainText('No notifications yet');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // Following is in the phone menu.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Following' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Following' })).toBeVisible();
    await expect(page.getByTestId('following-empty')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.goto(`/cappers/${capper.username}`);
    await followButton(page, capper.username).click();
    await expect(followerCount(page)).toHaveText('1 follower');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});
