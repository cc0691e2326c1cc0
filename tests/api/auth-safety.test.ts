// Accounts: proxy hops, brute-force limits that cannot be flushed nor used to lock an owner out,
// and look-alike usernames. Runs on both databases like every API test.
import { hash } from '@node-rs/argon2';
import { sql } from '#server/db/drizzle.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USERNAME_TAKEN, USERNAME_TOO_SIMILAR } from '#common/schemas/auth.js';
import { buildApp } from '#server/app.js';
import { ensureAdmin } from '#server/features/auth/auth-service.js';
import { AuthThrottle } from '#server/features/auth/throttle.js';
import {
  createTestApp,
  registerUser,
  sessionCookie,
  uniqueUsername,
  type TestApp,
} from '../setup/test-app.js';

const LOCKED_ACCOUNT =
  /^Too many failed sign-ins for this account\. Please wait \d+ (seconds|minutes) and try again, or sign in from a device you have signed in from before\.$/;

let ipCounter = 0;
/** Each test speaks from its own address so the per-IP limits of one do not spill into another. */
const nextIp = () => `10.2.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function rows<T>(t: TestApp, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await t.database.db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

function login(
  app: FastifyInstance,
  credentials: { username: string; password: string },
  options: { ip?: string; cookie?: string; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/login',
    payload: credentials,
    remoteAddress: options.ip ?? nextIp(),
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
  });
}

function register(
  app: FastifyInstance,
  username: string,
  options: { ip?: string; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { username, password: 'secret-pass' },
    remoteAddress: options.ip ?? nextIp(),
    headers: options.headers ?? {},
  });
}

/** The device cookie a response set, as `name=value` for a later request's Cookie header. */
function deviceCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'pickreel_device');
  if (!cookie) throw new Error(`no device cookie in response ${response.statusCode}`);
  return `${cookie.name}=${cookie.value}`;
}

/** Which client addresses the per-IP login limit has charged so far. */
async function chargedLoginAddresses(t: TestApp): Promise<string[]> {
  const found = await rows<{ key: string }>(
    t,
    sql`select key from auth_throttles where key like 'ip:login:%' order by key`,
  );
  return found.map((row) => row.key.slice('ip:login:'.length));
}

describe('TRUST_PROXY trusts exactly the configured hops', () => {
  it('with TRUST_PROXY=true (one hop), a client-written X-Forwarded-For does not escape the login and register limits', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      for (const route of ['login', 'register'] as const) {
        const statuses: number[] = [];
        for (let n = 1; n <= 31; n++) {
          const headers = { 'x-forwarded-for': `203.0.113.${n}, 127.0.0.1` };
          const response =
            route === 'login'
              ? await login(
                  t.app,
                  { username: uniqueUsername('xff'), password: 'whatever1' },
                  { ip: '127.0.0.1', headers },
                )
              : await register(t.app, 'ab', { ip: '127.0.0.1', headers });
          statuses.push(response.statusCode);
        }
        expect(statuses.slice(0, 30).every((s) => s === 401 || s === 400)).toBe(true);
        expect(statuses[30]).toBe(429);
      }
    } finally {
      await t.close();
    }
  });

  it('with one hop, the one X-Forwarded-For value a proxy on 127.0.0.1 sends is the client (browser tests, bench)', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      await login(
        t.app,
        { username: 'nobody', password: 'whatever1' },
        {
          ip: '127.0.0.1',
          headers: { 'x-forwarded-for': '10.9.8.7' },
        },
      );
      expect(await chargedLoginAddresses(t)).toEqual(['10.9.8.7']);
    } finally {
      await t.close();
    }
  });

  it('with TRUST_PROXY=2, the address the second proxy saw is the client, whatever the client prepended', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: '2' } });
    try {
      for (let n = 1; n <= 3; n++) {
        await login(
          t.app,
          { username: 'nobody', password: 'whatever1' },
          {
            ip: '127.0.0.1',
            headers: { 'x-forwarded-for': `198.51.100.${n}, 203.0.113.5, 10.0.0.2` },
          },
        );
      }
      expect(await chargedLoginAddresses(t)).toEqual(['203.0.113.5']);
    } finally {
      await t.close();
    }
  });

  it('with an address list, only listed proxies are believed, for the address and for HTTPS', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: 'loopback, 10.0.0.0/8' } });
    try {
      const anonymous = { username: 'nobody', password: 'whatever1' };
      // 127.0.0.1 and 10.0.0.2 are proxies: the client is the address before them.
      await login(t.app, anonymous, {
        ip: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.2' },
      });
      // 198.51.100.9 is not a proxy: it is the client, whatever it claims came before it.
      await login(t.app, anonymous, {
        ip: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.8, 198.51.100.9' },
      });
      // A direct client is not a proxy: its X-Forwarded-For is ignored.
      await login(t.app, anonymous, { ip: '192.0.2.44', headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(await chargedLoginAddresses(t)).toEqual(['192.0.2.44', '198.51.100.9', '203.0.113.7']);

      const viaProxy = await register(t.app, uniqueUsername('tls'), {
        ip: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(viaProxy.cookies.find((c) => c.name === 'pickreel_sid')?.secure).toBe(true);
      const direct = await register(t.app, uniqueUsername('tls'), {
        ip: '192.0.2.45',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(direct.statusCode).toBe(201);
      expect(direct.cookies.find((c) => c.name === 'pickreel_sid')?.secure).toBeFalsy();
    } finally {
      await t.close();
    }
  });
});

describe('account locks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("an attacker's wrong passwords lock the account for unknown devices only: the owner's known device still signs in", async () => {
    const owner = await registerUser(t.app, {}, nextIp());
    // The owner signs in once from their browser: it becomes a known device of the account.
    const ownerLogin = await login(t.app, owner);
    expect(ownerLogin.statusCode).toBe(200);
    const device = deviceCookie(ownerLogin);

    for (let i = 0; i < 10; i++) {
      expect((await login(t.app, { username: owner.username, password: `guess-${i}` })).statusCode).toBe(401);
    }
    const attacker = await login(t.app, { username: owner.username, password: 'guess-10' });
    expect(attacker.statusCode).toBe(429);

    // Without the device cookie even the right password waits, and is told for how long.
    const elsewhere = await login(t.app, owner);
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.json().message).toMatch(LOCKED_ACCOUNT);
    expect(Number(elsewhere.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(elsewhere.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);

    // From the known device the right password passes the lock.
    const known = await login(t.app, owner, { cookie: device });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toMatchObject({ id: owner.id });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: sessionCookie(known) } }))
        .statusCode,
    ).toBe(200);
  });

  it('a device cookie counts only for the account it was issued to, and only when it is ours', async () => {
    const owner = await registerUser(t.app, {}, nextIp());
    const other = await registerUser(t.app, {}, nextIp());
    const otherDevice = deviceCookie(await login(t.app, other));
    for (let i = 0; i < 10; i++) await login(t.app, { username: owner.username, password: `guess-${i}` });

    expect((await login(t.app, owner, { cookie: otherDevice })).statusCode).toBe(429);
    const forged = `pickreel_device=${owner.id}.AAAAAAAAAAAAAAAAAAAAAAAA`;
    expect((await login(t.app, owner, { cookie: forged })).statusCode).toBe(429);
  });

  it('a known device has its own limit: a stolen device cookie buys ten guesses, not more', async () => {
    const owner = await registerUser(t.app, {}, nextIp());
    const device = deviceCookie(await login(t.app, owner));
    for (let i = 0; i < 10; i++) {
      expect(
        (await login(t.app, { username: owner.username, password: `guess-${i}` }, { cookie: device }))
          .statusCode,
      ).toBe(401);
    }
    const locked = await login(t.app, owner, { cookie: device });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(
      /^Too many failed sign-ins from this device\. Please wait \d+ (seconds|minutes) and try again\.$/,
    );
    // Unknown devices keep their own count: the owner elsewhere is not locked by it.
    expect((await login(t.app, owner)).statusCode).toBe(200);
  });

  it('parallel guesses cannot slip past the account limit', async () => {
    const owner = await registerUser(t.app, {}, nextIp());
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        login(t.app, { username: owner.username, password: `guess-${i}` }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('the lock follows the account under any spelling of its name', async () => {
    const owner = await registerUser(t.app, { username: uniqueUsername('spell') }, nextIp());
    for (let i = 0; i < 10; i++) await login(t.app, { username: owner.username, password: `guess-${i}` });
    const fullWidth = owner.username.replace(/[a-z]/g, (c) => String.fromCodePoint(c.charCodeAt(0) + 0xfee0));
    expect(
      (await login(t.app, { username: owner.username.toUpperCase(), password: owner.password })).statusCode,
    ).toBe(429);
    expect((await login(t.app, { username: fullWidth, password: owner.password })).statusCode).toBe(429);
  });

  it('issues the device cookie HttpOnly, signed, long-lived and only for the sign-in endpoint', async () => {
    const response = await register(t.app, uniqueUsername('dev'));
    const cookie = response.cookies.find((c) => c.name === 'pickreel_device');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/login' });
    expect(cookie?.value).toMatch(/^\d+\.[\w-]+\.[\w+/=-]+$/);
    expect(new Date(cookie!.expires!).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
  });

  it('sweeps counters whose window has ended', async () => {
    await t.database.db.execute(
      sql`insert into auth_throttles (key, hits, reset_at) values ('ip:login:192.0.2.200', 31, now() - interval '1 minute')`,
    );
    await new AuthThrottle(t.database.db, { perIpPerMinute: 30, failedLoginsPerUsername: 10 }).sweep();
    expect(await rows(t, sql`select 1 from auth_throttles where key = 'ip:login:192.0.2.200'`)).toEqual([]);
  });
});

describe('a lock cannot be flushed', () => {
  it('5,200 failed logins on filler names, and a restart, do not reset an account lock', async () => {
    // Small limits keep the test short; the counters go through the real path (the database table).
    const limits = { perIpPerMinute: 100_000, failedLoginsPerUsername: 3 };
    const t = await createTestApp({ authRateLimits: limits });
    try {
      const owner = await registerUser(t.app, {}, nextIp());
      for (let i = 0; i < 3; i++) await login(t.app, { username: owner.username, password: `guess-${i}` });
      expect((await login(t.app, owner)).statusCode).toBe(429);

      // Existing filler accounts with a deliberately cheap hash, so 5,200 refusals take seconds, not minutes
      // (written with SQL: the restart below fills their username keys, as for any account from before).
      const cheap = await hash('filler-password', {
        algorithm: 2,
        memoryCost: 8,
        timeCost: 1,
        parallelism: 1,
      });
      await t.database.db.execute(
        sql`insert into users (username, password_hash)
            select 'filler' || g, ${cheap} from generate_series(1, 5200) as g`,
      );
      const restarted = await buildApp({
        config: t.config,
        database: t.database,
        clientDir: null,
        authRateLimits: limits,
      });
      try {
        await restarted.ready();
        expect((await login(restarted, owner)).statusCode).toBe(429);
        const attacker = '192.0.2.99';
        for (let start = 1; start <= 5200; start += 100) {
          const batch = await Promise.all(
            Array.from({ length: 100 }, (_, i) =>
              login(
                restarted,
                { username: `filler${start + i}`, password: 'wrong-password' },
                { ip: attacker },
              ),
            ),
          );
          expect(batch.every((r) => r.statusCode === 401)).toBe(true);
        }
        const after = await login(restarted, owner);
        expect(after.statusCode).toBe(429);
        expect(after.json().message).toMatch(LOCKED_ACCOUNT);
      } finally {
        await restarted.close();
      }
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe('look-alike usernames', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await registerUser(t.app, { username: 'capper' }, nextIp());
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['cаpper', 'Cyrillic а', USERNAME_TOO_SIMILAR],
    ['caρper', 'Greek ρ for p', USERNAME_TOO_SIMILAR],
    ['Cаpper', 'capital C and Cyrillic а', USERNAME_TOO_SIMILAR],
    ['cappеr', 'Cyrillic е', USERNAME_TOO_SIMILAR],
    ['ｃａｐｐｅｒ', 'full-width', USERNAME_TAKEN],
    ['CAPPER', 'upper case', USERNAME_TAKEN],
  ])('refuses %s (%s) next to capper', async (username, _what, message) => {
    const response = await register(t.app, username);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
  });

  it('registers an unrelated name', async () => {
    expect((await register(t.app, 'capybara')).statusCode).toBe(201);
  });

  it('signs capper in under any spelling that normalises to it', async () => {
    const capper = await rows<{ id: number }>(t, sql`select id from users where username = 'capper'`);
    for (const username of ['CAPPER', 'ｃａｐｐｅｒ']) {
      const response = await login(t.app, { username, password: 'correct-horse' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: capper[0]!.id, username: 'capper' });
    }
  });

  it('decides look-alikes registered at the same moment one after the other', async () => {
    const names = ['racer', 'rаcer', 'ｒａｃｅｒ', 'RACER', 'rαcer'];
    const responses = await Promise.all(names.map((name) => register(t.app, name)));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(4);
  });

  it('keeps accounts from before the rule working: each legacy look-alike signs in with its own name', async () => {
    const passwordHash = await hash('legacy-password', {
      algorithm: 2,
      memoryCost: 8,
      timeCost: 1,
      parallelism: 1,
    });
    // Older accounts, with no key nor skeleton: 'legacy', Cyrillic е 'lеgacy', full-width 'ｌｅｇａｃｙ'.
    const legacy = ['legacy', 'lеgacy', 'ｌｅｇａｃｙ'];
    for (const username of legacy) {
      await t.database.db.execute(
        sql`insert into users (username, password_hash) values (${username}, ${passwordHash})`,
      );
    }
    // Before any restart they are found the old way (a script such as seed:demo may run then).
    const early = await login(t.app, { username: 'lеgacy', password: 'legacy-password' });
    expect(early.json().username).toBe('lеgacy');
    // A restart fills their keys at start.
    const restarted = await buildApp({ config: t.config, database: t.database, clientDir: null });
    try {
      await restarted.ready();
      const filled = await rows<{
        username: string;
        username_key: string | null;
        username_skeleton: string | null;
      }>(
        t,
        sql`select username, username_key, username_skeleton from users where username in ('legacy', 'lеgacy', 'ｌｅｇａｃｙ')`,
      );
      expect(filled.every((row) => row.username_key !== null && row.username_skeleton === 'legacy')).toBe(
        true,
      );

      for (const username of legacy) {
        const response = await login(restarted, { username, password: 'legacy-password' });
        expect(response.statusCode).toBe(200);
        expect(response.json().username).toBe(username);
      }
      expect((await register(restarted, 'LEGACY')).json()).toEqual({ message: USERNAME_TAKEN });
      expect((await register(restarted, 'lеgаcy')).json()).toEqual({ message: USERNAME_TOO_SIMILAR });
    } finally {
      await restarted.close();
    }
  });

  it('ADMIN_USERNAME finds the existing account under another spelling instead of creating a look-alike', async () => {
    await registerUser(t.app, { username: 'boss' }, nextIp());
    const admin = await ensureAdmin(t.database.db, { username: 'ＢＯＳＳ', password: 'boss-password' });
    expect(admin).toMatchObject({ username: 'boss', isAdmin: true });
    await expect(ensureAdmin(t.database.db, { username: 'bοss', password: 'boss-password' })).rejects.toThrow(
      USERNAME_TOO_SIMILAR,
    );
  });
});
