import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '#server/features/auth/auth-service.js';
import { findUserByUsername } from '#server/features/auth/users-repository.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('ADMIN_USERNAME / ADMIN_PASSWORD', () => {
  it('creates the admin once and keeps it an admin with that password', async () => {
    const admin = { username: 'boss', password: 'boss-password' };
    const first = await ensureAdmin(t.database.db, admin);
    const second = await ensureAdmin(t.database.db, admin);
    expect(second.id).toBe(first.id);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: admin });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ username: 'boss', isAdmin: true });
  });

  it('promotes an existing user and resets the password to the setting', async () => {
    const user = await registerUser(t.app, {}, '10.9.0.1');
    await ensureAdmin(t.database.db, { username: user.username, password: 'new-admin-pass' });
    const row = await findUserByUsername(t.database.db, user.username);
    expect(row?.isAdmin).toBe(true);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.username, password: 'new-admin-pass' },
      remoteAddress: '10.9.0.2',
    });
    expect(login.statusCode).toBe(200);
  });
});
