// Alert preferences (docs/decisions/040): every switch on until turned off, only the given switches change,
// bad bodies get a clear 400, cappers muted per channel, and the set-based predicate a fan-out filters with
// agrees with what the API says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAPPER_ALERTS_BODY_MESSAGE,
  DEFAULT_ALERT_PREFERENCES,
  PREFERENCES_BODY_MESSAGE,
  type AlertPreferences,
  type CapperAlerts,
} from '#common/schemas/alert-preferences.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { wantsAlert } from '#server/features/notifications/index.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let bettor: User;
let capper: User;
let other: User;
let ip = 0;
const nextIp = () => `10.37.0.${++ip}`;

const getPrefs = (cookie?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/api/notifications/preferences',
    ...(cookie && { headers: { cookie } }),
  });
const putPrefs = (cookie: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/notifications/preferences',
    headers: { cookie, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
const putCapper = (cookie: string, username: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/cappers/${username}/alerts`,
    headers: { cookie, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

/** Of these users, those the fan-out's predicate lets through. */
async function wanting(
  users: number[],
  channel: 'in_app' | 'email',
  kind: 'new_pick' | 'graded',
  capperId: number,
) {
  const rows = rowsOf<{ id: number }>(
    await t.database.db.execute(sql`
      select u.id from users u
      where u.id in (${sql.join(
        users.map((id) => sql`${id}`),
        sql`, `,
      )}) and ${wantsAlert(sql`u.id`, channel, kind, capperId)}
      order by u.id`),
  );
  return rows.map((row) => Number(row.id));
}

beforeAll(async () => {
  t = await createTestApp();
  bettor = await registerUser(t.app, {}, nextIp());
  capper = await registerUser(t.app, {}, nextIp());
  other = await registerUser(t.app, {}, nextIp());
  await t.database.db.execute(sql`update users set display_name = 'Sharp Sam' where id = ${capper.id}`);
  const followed = await t.app.inject({
    method: 'POST',
    url: `/api/cappers/${capper.username}/follow`,
    headers: { cookie: bettor.cookie },
  });
  expect(followed.statusCode, followed.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/notifications/preferences', () => {
  it('needs a session', async () => {
    expect((await getPrefs()).statusCode).toBe(401);
  });

  it('has every switch on by default, the unconfirmed address, and the followed capper unmuted', async () => {
    const response = await getPrefs(bettor.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AlertPreferences>()).toEqual({
      channels: DEFAULT_ALERT_PREFERENCES,
      email: { address: null, confirmed: false },
      cappers: [
        {
          username: capper.username,
          displayName: 'Sharp Sam',
          following: true,
          channels: { in_app: true, email: true, push: true },
        },
      ],
    });
  });
});

describe('PUT /api/notifications/preferences', () => {
  it('changes only the switches given, and answers them all', async () => {
    const response = await putPrefs(bettor.cookie, {
      channels: { email: { new_pick: false }, push: { graded: false } },
    });
    expect(response.statusCode, response.body).toBe(200);
    const prefs = response.json<AlertPreferences>();
    expect(prefs.channels.email).toEqual({ new_pick: false, graded: true, subscription: true });
    expect(prefs.channels.push).toEqual({ new_pick: true, graded: false, subscription: true });
    expect(prefs.channels.in_app).toEqual(DEFAULT_ALERT_PREFERENCES.in_app);
    expect((await getPrefs(bettor.cookie)).json<AlertPreferences>().channels).toEqual(prefs.channels);
    // Someone else's are untouched.
    expect((await getPrefs(other.cookie)).json<AlertPreferences>().channels).toEqual(
      DEFAULT_ALERT_PREFERENCES,
    );

    const back = await putPrefs(bettor.cookie, { channels: { email: { new_pick: true } } });
    expect(back.json<AlertPreferences>().channels.email.new_pick).toBe(true);
  });

  it('refuses an unknown channel or kind, a non-boolean and a missing body with a clear 400', async () => {
    for (const payload of [
      {},
      { channels: { sms: { new_pick: false } } },
      { channels: { email: { sale: false } } },
      { channels: { email: { new_pick: 'no' } } },
      { channels: { email: false } },
      { channels: {}, extra: 1 },
      [],
      null,
    ]) {
      const response = await putPrefs(bettor.cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message, JSON.stringify(payload)).toContain(
        PREFERENCES_BODY_MESSAGE,
      );
    }
  });

  it('needs a session and a same-site request', async () => {
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications/preferences',
      payload: { channels: {} },
    });
    expect(anonymous.statusCode).toBe(401);
    const crossSite = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications/preferences',
      headers: { cookie: bettor.cookie, origin: 'https://evil.example' },
      payload: { channels: { email: { graded: false } } },
    });
    expect(crossSite.statusCode).toBe(403);
  });
});

describe('PUT /api/cappers/{username}/alerts', () => {
  it('mutes a capper on one channel and keeps the others', async () => {
    const response = await putCapper(bettor.cookie, capper.username.toUpperCase(), { email: false });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<CapperAlerts>()).toEqual({
      username: capper.username,
      displayName: 'Sharp Sam',
      following: true,
      channels: { in_app: true, email: false, push: true },
    });
    const prefs = (await getPrefs(bettor.cookie)).json<AlertPreferences>();
    expect(prefs.cappers[0]!.channels).toEqual({ in_app: true, email: false, push: true });
  });

  it('keeps a muted capper listed after an unfollow, and unmutes', async () => {
    await t.app.inject({
      method: 'PUT',
      url: `/api/cappers/${other.username}/alerts`,
      headers: { cookie: bettor.cookie },
      payload: { push: false },
    });
    const listed = (await getPrefs(bettor.cookie)).json<AlertPreferences>().cappers;
    expect(listed.map((c) => [c.username, c.following])).toEqual(
      [
        [capper.username, true],
        [other.username, false],
      ].sort((a, b) => String(a[0]).toLowerCase().localeCompare(String(b[0]).toLowerCase())),
    );
    const unmuted = await putCapper(bettor.cookie, other.username, { push: true });
    expect(unmuted.json<CapperAlerts>().channels.push).toBe(true);
    expect((await getPrefs(bettor.cookie)).json<AlertPreferences>().cappers.map((c) => c.username)).toEqual([
      capper.username,
    ]);
  });

  it('404s an unknown capper, 400s a bad body, 401s without a session', async () => {
    expect((await putCapper(bettor.cookie, 'nobody-here-at-all', { email: false })).statusCode).toBe(404);
    for (const payload of [{}, { email: 'off' }, { sms: false }]) {
      const response = await putCapper(bettor.cookie, capper.username, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message).toContain(CAPPER_ALERTS_BODY_MESSAGE);
    }
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: `/api/cappers/${capper.username}/alerts`,
      payload: { email: false },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the fan-out predicate', () => {
  it('lets through those who want the channel and kind from the capper, in one query', async () => {
    const everyone = [bettor.id, other.id];
    // bettor muted the capper on e-mail (above): in the app still, not by e-mail.
    expect(await wanting(everyone, 'in_app', 'new_pick', capper.id)).toEqual(everyone);
    expect(await wanting(everyone, 'email', 'new_pick', capper.id)).toEqual([other.id]);
    // The mute is the capper's alone: another capper's e-mail still reaches bettor.
    expect(await wanting(everyone, 'email', 'new_pick', other.id)).toEqual(everyone);
    // A kind turned off on a channel reaches no one who turned it off, from any capper.
    await putPrefs(other.cookie, { channels: { in_app: { graded: false } } });
    expect(await wanting(everyone, 'in_app', 'graded', capper.id)).toEqual([bettor.id]);
  });
});
