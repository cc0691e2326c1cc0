// Following cappers (docs/decisions/035): the follow button's state, idempotent follows and unfollows, the
// counts, who may follow whom, and the "Following" page's cappers and open picks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FollowState, Following } from '#common/schemas/follows.js';
import { FOLLOW_SELF_MESSAGE } from '#common/schemas/follows.js';
import type { Video } from '#common/schemas/videos.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { FOLLOWS_PER_MINUTE } from '#server/features/follows/routes.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { inHours, postLinkPick, postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let capper: User;
let fan: User;
let other: User;
let ip = 0;
const nextIp = () => `10.31.0.${++ip}`;
let game = 0;

function leg() {
  game += 1;
  return {
    league: 'NBA',
    home: `Home ${game}`,
    away: `Away ${game}`,
    startsAt: inHours(24),
    market: 'spread',
    side: `Home ${game}`,
    line: -3.5,
    odds: -110,
    units: 1,
  };
}

async function postPick(user: User, fields: Record<string, string> = {}) {
  const response = await postLinkPick(t.app, user.cookie, [leg()], fields);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}

const followUrl = (username: string) => `/api/cappers/${encodeURIComponent(username)}/follow`;
const state = (username: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url: followUrl(username), headers: cookie ? { cookie } : {} });
const follow = (username: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: followUrl(username),
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
const unfollow = (username: string, cookie?: string) =>
  t.app.inject({ method: 'DELETE', url: followUrl(username), headers: cookie ? { cookie } : {} });

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, nextIp());
  fan = await registerUser(t.app, {}, nextIp());
  other = await registerUser(t.app, {}, nextIp());
});
afterAll(async () => {
  await t?.close();
});

describe('following a capper', () => {
  it('is idempotent both ways, and the count follows', async () => {
    expect((await state(capper.username, fan.cookie)).json<FollowState>()).toEqual({
      following: false,
      followers: 0,
    });
    for (let i = 0; i < 2; i += 1) {
      const response = await follow(capper.username, fan.cookie);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<FollowState>()).toEqual({ following: true, followers: 1 });
    }
    // Any case of the name, as the capper's page finds them.
    const second = await follow(capper.username.toUpperCase(), other.cookie);
    expect(second.json<FollowState>()).toEqual({ following: true, followers: 2 });
    expect((await state(capper.username, fan.cookie)).json<FollowState>()).toEqual({
      following: true,
      followers: 2,
    });
    // Public: signed out, not following, and the count.
    const anonymous = await state(capper.username);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json<FollowState>()).toEqual({ following: false, followers: 2 });

    for (let i = 0; i < 2; i += 1) {
      const response = await unfollow(capper.username, other.cookie);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<FollowState>()).toEqual({ following: false, followers: 1 });
    }
    expect((await state(capper.username, other.cookie)).json<FollowState>().following).toBe(false);
  });

  it('refuses yourself (400), an unknown capper (404) and a signed-out caller (401)', async () => {
    const self = await follow(capper.username, capper.cookie);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ message: FOLLOW_SELF_MESSAGE });

    for (const response of [
      await follow('nobody-by-this-name', fan.cookie),
      await unfollow('nobody-by-this-name', fan.cookie),
      await state('nobody-by-this-name'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Capper not found' });
    }

    for (const response of [await follow(capper.username), await unfollow(capper.username)]) {
      expect(response.statusCode).toBe(401);
      expect(response.json<{ message: string }>().message).toMatch(/signed in/);
    }
    const page = await t.app.inject({ method: 'GET', url: '/api/following' });
    expect(page.statusCode).toBe(401);
  });

  it("refuses another site's request (CSRF), and changes nothing", async () => {
    const before = (await state(capper.username)).json<FollowState>().followers;
    const outsider = await registerUser(t.app, {}, nextIp());
    const response = await follow(capper.username, outsider.cookie, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'Cross-site request refused.' });
    const refusedUnfollow = await t.app.inject({
      method: 'DELETE',
      url: followUrl(capper.username),
      headers: { cookie: fan.cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(refusedUnfollow.statusCode).toBe(403);
    expect((await state(capper.username)).json<FollowState>().followers).toBe(before);
    expect((await state(capper.username, fan.cookie)).json<FollowState>().following).toBe(true);
  });

  it("a deleted capper's page and follow button are gone (404), and their follows with them", async () => {
    const leaving = await registerUser(t.app, {}, nextIp());
    await follow(leaving.username, fan.cookie);
    const admin = await registerUser(t.app, {}, nextIp());
    await setAdmin(t.database.db, admin.id, true);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${leaving.id}`,
      headers: { cookie: admin.cookie },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await state(leaving.username)).statusCode).toBe(404);
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/following',
      headers: { cookie: fan.cookie },
    });
    expect(page.json<Following>().cappers.map((c) => c.username)).not.toContain(leaving.username);
  });
});

describe('the rate limit', () => {
  it(`answers 429 with Retry-After past ${FOLLOWS_PER_MINUTE} follows and unfollows a minute`, async () => {
    const busy = await registerUser(t.app, {}, nextIp());
    const statuses: number[] = [];
    for (let i = 0; i < FOLLOWS_PER_MINUTE; i += 1)
      statuses.push((await (i % 2 ? unfollow : follow)(capper.username, busy.cookie)).statusCode);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await follow(capper.username, busy.cookie);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.json<{ message: string }>().message).toMatch(/Too many follows/);
    // Another user is not held back.
    expect((await follow(capper.username, other.cookie)).statusCode).toBe(200);
  });
});

describe('GET /api/following', () => {
  it("lists the followed cappers and their open picks, newest first, as the catalog's items", async () => {
    const second = await registerUser(t.app, {}, nextIp());
    const reader = await registerUser(t.app, {}, nextIp());
    const older = await postPick(capper, { title: 'Older open pick' });
    const newer = await postPick(second, { title: 'Newer open pick' });
    const unverified = await postVideo(t.app, capper.cookie, {
      ...VALID_FIELDS,
      isExternalVideo: 'true',
      externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      duration: '',
    });
    expect(unverified.statusCode).toBe(201);
    const stranger = await registerUser(t.app, {}, nextIp());
    await postPick(stranger, { title: 'Not followed' });

    await follow(capper.username, reader.cookie);
    await follow(second.username, reader.cookie);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/following',
      headers: { cookie: reader.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Following>();
    expect(body.cappers.map((c) => c.username)).toEqual([second.username, capper.username]);
    expect(body.cappers[0]).toEqual({
      username: second.username,
      displayName: null,
      avatarUrl: null,
      followedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(body.videos.map((v) => v.id)).toEqual([newer.id, older.id]);
    // The same item as GET /api/videos gives this viewer, selections left out.
    const catalog = await t.app.inject({
      method: 'GET',
      url: '/api/videos?status=open&verified=true',
      headers: { cookie: reader.cookie },
    });
    const item = catalog.json<Video[]>().find((v) => v.id === newer.id)!;
    expect(body.videos[0]).toEqual({ ...item, views: body.videos[0]!.views });
    expect(body.videos[0]!.emailInformation).toBeUndefined();
  });

  it('is empty for someone who follows nobody', async () => {
    const loner = await registerUser(t.app, {}, nextIp());
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/following',
      headers: { cookie: loner.cookie },
    });
    expect(response.json<Following>()).toEqual({ cappers: [], videos: [] });
  });
});

describe('GET /api/following/cappers', () => {
  it("lists the followed usernames, most recent first, and only the caller's", async () => {
    const first = await registerUser(t.app, {}, nextIp());
    const second = await registerUser(t.app, {}, nextIp());
    const reader = await registerUser(t.app, {}, nextIp());
    const list = (cookie?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/following/cappers',
        headers: cookie ? { cookie } : {},
      });
    expect((await list(reader.cookie)).json()).toEqual({ usernames: [] });
    await follow(first.username, reader.cookie);
    await follow(second.username, reader.cookie);
    await follow(first.username, other.cookie);
    expect((await list(reader.cookie)).json()).toEqual({ usernames: [second.username, first.username] });
    await unfollow(second.username, reader.cookie);
    expect((await list(reader.cookie)).json()).toEqual({ usernames: [first.username] });
    expect((await list()).statusCode).toBe(401);
  });
});
