import { sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '#server/db/rows.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { createPurchase, createVideo } from '../setup/fixtures.js';
import { storedKeys, storeObject } from '../setup/stored-media.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

let t: TestApp;
let admin: { cookie: string; id: number };
let user: { cookie: string; id: number };
let ip = 0;
const nextIp = () => `10.4.0.${++ip}`;

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerUser(t.app, {}, nextIp());
  await setAdmin(t.database.db, admin.id, true);
  user = await registerUser(t.app, {}, nextIp());
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'DELETE' | 'PATCH', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

async function count(query: ReturnType<typeof sql>): Promise<number> {
  return rowsOf<{ n: number }>(await t.database.db.execute(query))[0]!.n;
}

describe('access', () => {
  const endpoints = (): ['GET' | 'DELETE' | 'PATCH', string, object?][] => [
    ['GET', '/api/admin/users'],
    ['GET', '/api/admin/videos'],
    ['DELETE', '/api/admin/videos/1'],
    ['DELETE', `/api/admin/users/${user.id}`],
    ['PATCH', `/api/admin/users/${user.id}/earnings`, { manualEarnings: 5 }],
  ];

  it('answers 401 to a visitor and 403 to a signed-in non-admin on every admin endpoint', async () => {
    for (const [method, url, payload] of endpoints()) {
      const visitor = await call(method, url, undefined, payload);
      expect(visitor.statusCode, `${method} ${url} visitor`).toBe(401);
      const nonAdmin = await call(method, url, user.cookie, payload);
      expect(nonAdmin.statusCode, `${method} ${url} non-admin`).toBe(403);
      expect(nonAdmin.json()).toEqual({ message: 'Admin access required.' });
    }
    // Nothing happened.
    expect(await count(sql`select count(*)::int as n from users where id = ${user.id}`)).toBe(1);
  });
});

describe('users', () => {
  it('lists users with the password column hidden', async () => {
    const response = await call('GET', '/api/admin/users', admin.cookie);
    expect(response.statusCode).toBe(200);
    const users = response.json() as { id: number; password: string; isAdmin: boolean }[];
    expect(users.length).toBeGreaterThanOrEqual(2);
    expect(users.every((u) => u.password === 'hidden')).toBe(true);
    expect(response.body).not.toContain('argon2');
    expect(users.find((u) => u.id === admin.id)?.isAdmin).toBe(true);
  });

  it('validates manual earnings and records the change', async () => {
    const url = `/api/admin/users/${user.id}/earnings`;
    for (const [payload, message] of [
      [{ manualEarnings: -1 }, 'Manual earnings cannot be negative'],
      [{ manualEarnings: 'abc' }, 'Please enter a valid number for earnings'],
      [{ manualEarnings: 1.234 }, 'Manual earnings can have at most two decimals'],
      [{}, 'Please enter a valid number for earnings'],
    ] as const) {
      const response = await call('PATCH', url, admin.cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ message });
    }
    const ok = await call('PATCH', url, admin.cookie, { manualEarnings: 125.5 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: user.id, manualEarnings: 125.5 });
    // The user's own view changes at once (their cached session is dropped).
    expect((await call('GET', '/api/user', user.cookie)).json().manualEarnings).toBe(125.5);
    expect(
      (await call('PATCH', '/api/admin/users/999999/earnings', admin.cookie, { manualEarnings: 1 }))
        .statusCode,
    ).toBe(404);
    const audit = rowsOf(
      await t.database.db.execute(
        sql`select actor_id, action, before, after from audit_log where target_id = ${user.id} and action = 'user.manual_earnings'`,
      ),
    );
    expect(audit).toEqual([
      {
        actor_id: admin.id,
        action: 'user.manual_earnings',
        before: { manualEarningsCents: 0 },
        after: { manualEarningsCents: 12550 },
      },
    ]);
  });

  it('refuses to delete an admin', async () => {
    const response = await call('DELETE', `/api/admin/users/${admin.id}`, admin.cookie);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'Admin accounts cannot be deleted.' });
  });

  it('deletes a user with their videos, purchases, sessions and files, leaving no orphans', async () => {
    const capper = await registerUser(t.app, {}, nextIp());
    const buyer = await registerUser(t.app, {}, nextIp());
    const theirVideo = await createVideo(t, capper.id);
    const otherVideo = await createVideo(t, buyer.id);
    await createPurchase(t, buyer.id, theirVideo); // a sale of the capper's
    await createPurchase(t, capper.id, otherVideo); // the capper's own purchase
    await storeObject(t, `videos/${theirVideo.id}/video.mp4`, 'bytes');
    await storeObject(t, `videos/${otherVideo.id}/video.mp4`, 'the buyer keeps theirs');
    expect((await call('GET', '/api/user', capper.cookie)).statusCode).toBe(200);

    const response = await call('DELETE', `/api/admin/users/${capper.id}`, admin.cookie);
    expect(response.statusCode).toBe(200);

    expect((await call('GET', '/api/user', capper.cookie)).statusCode).toBe(401);
    expect(await storedKeys(t, `videos/${theirVideo.id}/`)).toEqual([]);
    expect(await storedKeys(t, `videos/${otherVideo.id}/`)).toEqual([`videos/${otherVideo.id}/video.mp4`]);
    for (const table of ['videos', 'purchases', 'sessions', 'payout_requests']) {
      expect(
        await count(sql.raw(`select count(*)::int as n from ${table} where user_id = ${capper.id}`)),
        table,
      ).toBe(0);
    }
    expect(await count(sql`select count(*)::int as n from sales where seller_id = ${capper.id}`)).toBe(0);
    // The buyer keeps their purchase record (title and selections), no longer pointing at a video.
    expect(
      await count(
        sql`select count(*)::int as n from purchases where user_id = ${buyer.id} and video_id is null`,
      ),
    ).toBe(1);
    expect((await call('GET', `/api/videos/${theirVideo.id}`)).statusCode).toBe(404);
    expect(
      await count(
        sql`select count(*)::int as n from audit_log where action = 'user.delete' and target_id = ${capper.id}`,
      ),
    ).toBe(1);
    expect((await call('DELETE', `/api/admin/users/${capper.id}`, admin.cookie)).statusCode).toBe(404);
  });
});

describe('videos', () => {
  it('lists every video, in any state, with selections, and deletes one', async () => {
    const pending = await createVideo(t, user.id, { transcodingStatus: 'processing' });
    const list = (await call('GET', '/api/admin/videos', admin.cookie)).json() as {
      id: number;
      emailInformation?: string;
    }[];
    const entry = list.find((v) => v.id === pending.id);
    expect(entry?.emailInformation).toBe(pending.emailInformation);

    const response = await call('DELETE', `/api/admin/videos/${pending.id}`, admin.cookie);
    expect(response.statusCode).toBe(200);
    expect((await call('GET', `/api/videos/${pending.id}`, admin.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/admin/videos/${pending.id}`, admin.cookie)).statusCode).toBe(404);
    expect(
      await count(
        sql`select count(*)::int as n from audit_log where action = 'video.delete' and target_id = ${pending.id}`,
      ),
    ).toBe(1);
  });
});
