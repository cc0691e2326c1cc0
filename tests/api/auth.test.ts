import { sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  registerUser,
  sessionCookie,
  uniqueUsername,
  type TestApp,
} from '../setup/test-app.js';

let t: TestApp;
let ipCounter = 0;
/** Each test speaks from its own address so the per-IP limits of one do not spill into another. */
const nextIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function post(
  url: string,
  payload: unknown,
  options: { cookie?: string; ip?: string; headers?: Record<string, string> } = {},
) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    remoteAddress: options.ip ?? nextIp(),
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
  });
}

function getUser(cookie?: string) {
  return t.app.inject({ method: 'GET', url: '/api/user', headers: cookie ? { cookie } : {} });
}

describe('GET /api/user', () => {
  it('answers 401 with a JSON message when signed out', async () => {
    const response = await getUser();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: expect.any(String) });
  });

  it('treats a forged or garbled cookie as signed out', async () => {
    expect((await getUser('pickreel_sid=forged.value')).statusCode).toBe(401);
    expect((await getUser('pickreel_sid=')).statusCode).toBe(401);
  });
});

describe('POST /api/register', () => {
  it('creates the user, signs them in and never returns a password', async () => {
    const username = uniqueUsername('reg');
    const response = await post('/api/register', {
      username,
      password: 'secret-pass',
      phoneNumber: '5550100199',
      bio: '',
      avatarUrl: '',
    });
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toMatchObject({
      username,
      phoneNumber: '5550100199',
      isAdmin: false,
      manualEarnings: 0,
      bio: null,
    });
    expect(JSON.stringify(user)).not.toMatch(/secret-pass|password|argon2/i);

    const cookie = response.cookies.find((c) => c.name === 'pickreel_sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    const me = await getUser(sessionCookie(response));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: user.id, username });
  });

  it('refuses a username that exists, whatever its case', async () => {
    const { username } = await registerUser(t.app, {}, nextIp());
    for (const taken of [username, username.toUpperCase()]) {
      const response = await post('/api/register', { username: taken, password: 'another-pass' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'Username already exists' });
    }
  });

  it.each([
    [{ username: 'ab', password: 'secret-pass' }, 'Username must be at least 3 characters.'],
    [{ username: 'valid_name', password: '12345' }, 'Password must be at least 6 characters.'],
    [
      { username: 'valid_name', password: 'secret-pass', phoneNumber: '555123' },
      'Phone number must be at least 10 digits.',
    ],
  ])('refuses %j with the spec message', async (payload, message) => {
    const response = await post('/api/register', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
  });

  it('accepts an empty phone number as not given', async () => {
    const response = await post('/api/register', {
      username: uniqueUsername(),
      password: 'secret-pass',
      phoneNumber: '',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().phoneNumber).toBeNull();
  });

  it('keeps an optional e-mail, trimmed, and the session user carries it', async () => {
    const username = uniqueUsername('mail');
    const response = await post('/api/register', {
      username,
      password: 'secret-pass',
      phoneNumber: '',
      bio: '',
      avatarUrl: '',
      email: '  capper@example.com ',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ username, email: 'capper@example.com' });
    const me = await getUser(sessionCookie(response));
    expect(me.json()).toMatchObject({ username, email: 'capper@example.com' });
  });

  it.each([{}, { email: '' }, { email: '   ' }, { email: null }])(
    'stores no e-mail for %j',
    async (extra) => {
      const response = await post('/api/register', {
        username: uniqueUsername('nomail'),
        password: 'secret-pass',
        ...extra,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().email).toBeNull();
    },
  );

  it.each(['not-an-address', 'capper@', '@example.com', 'two words@example.com'])(
    'refuses the e-mail %j with a clear message',
    async (email) => {
      const response = await post('/api/register', {
        username: uniqueUsername('badmail'),
        password: 'secret-pass',
        email,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'Please enter a valid email address.' });
    },
  );

  it('stores the password only as an argon2id hash', async () => {
    const { id, password } = await registerUser(t.app, { password: 'plain-text-never-stored' }, nextIp());
    const result = await t.database.db.execute(sql`select * from users where id = ${id}`);
    const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0]!;
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(row)).not.toContain(password);
    expect(Object.keys(row)).not.toContain('original_password');
  });
});

describe('POST /api/login', () => {
  it('signs in with the right password', async () => {
    const { username, password } = await registerUser(t.app, {}, nextIp());
    const response = await post('/api/login', { username, password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ username });
    expect((await getUser(sessionCookie(response))).statusCode).toBe(200);
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const { username } = await registerUser(t.app, {}, nextIp());
    const wrong = await post('/api/login', { username, password: 'not-the-password' });
    const unknown = await post('/api/login', { username: uniqueUsername('ghost'), password: 'whatever1' });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Invalid username or password' });
      expect(response.cookies.find((c) => c.name === 'pickreel_sid')).toBeUndefined();
    }
  });

  it('validates with the spec messages', async () => {
    const short = await post('/api/login', { username: 'ab', password: 'secret-pass' });
    expect(short.json()).toEqual({ message: 'Username must be at least 3 characters.' });
    const shortPassword = await post('/api/login', { username: 'abc', password: '123' });
    expect(shortPassword.json()).toEqual({ message: 'Password must be at least 6 characters.' });
  });

  it('issues a new session id on login and the old one dies (fixation)', async () => {
    const { username, password, cookie: before } = await registerUser(t.app, {}, nextIp());
    const response = await post('/api/login', { username, password }, { cookie: before });
    const after = sessionCookie(response);
    expect(after).not.toBe(before);
    expect((await getUser(after)).statusCode).toBe(200);
    expect((await getUser(before)).statusCode).toBe(401);
  });
});

describe('POST /api/logout', () => {
  it('ends the session: the old cookie gets 401 afterwards', async () => {
    const { cookie } = await registerUser(t.app, {}, nextIp());
    expect((await getUser(cookie)).statusCode).toBe(200);
    const response = await post('/api/logout', undefined, { cookie });
    expect(response.statusCode).toBe(200);
    const cleared = response.cookies.find((c) => c.name === 'pickreel_sid');
    expect(cleared?.value).toBe('');
    expect((await getUser(cookie)).statusCode).toBe(401);
  });

  it('is harmless when signed out', async () => {
    expect((await post('/api/logout', undefined)).statusCode).toBe(200);
  });
});

describe('rate limiting', () => {
  it('limits login attempts per IP with a clear 429', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push(
        (await post('/api/login', { username: uniqueUsername('rl'), password: 'whatever1' }, { ip }))
          .statusCode,
      );
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    const limited = await post('/api/login', { username: 'someone', password: 'whatever1' }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits failed logins per account across IPs, without counting successes', async () => {
    const { username, password } = await registerUser(t.app, {}, nextIp());
    for (let i = 0; i < 5; i++)
      expect((await post('/api/login', { username, password })).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect((await post('/api/login', { username, password: 'wrong-password' })).statusCode).toBe(401);
    }
    const limited = await post('/api/login', { username: username.toUpperCase(), password });
    expect(limited.statusCode).toBe(429);
  });

  it('limits registrations per IP', async () => {
    const ip = nextIp();
    for (let i = 0; i < 30; i++) {
      expect((await post('/api/register', { username: 'ab', password: 'x' }, { ip })).statusCode).toBe(400);
    }
    expect(
      (await post('/api/register', { username: uniqueUsername(), password: 'secret-pass' }, { ip }))
        .statusCode,
    ).toBe(429);
  });
});

describe('cross-site request forgery', () => {
  const credentials = () => ({ username: uniqueUsername('csrf'), password: 'secret-pass' });

  it.each([
    [{ 'sec-fetch-site': 'cross-site' }],
    [{ 'sec-fetch-site': 'same-site' }],
    [{ origin: 'https://evil.example' }],
    [{ origin: 'null' }],
    [{ referer: 'https://evil.example/page' }],
  ])('refuses a state-changing request with %j', async (headers) => {
    const response = await post('/api/register', credentials(), { headers });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'Cross-site request refused.' });
  });

  it.each([
    [{ 'sec-fetch-site': 'same-origin' }],
    [{ 'sec-fetch-site': 'none' }],
    [{ origin: 'http://localhost:80' }],
    [{}],
  ])('accepts %j', async (headers) => {
    const response = await post('/api/register', credentials(), { headers });
    expect(response.statusCode).toBe(201);
  });
});

describe('API errors and headers', () => {
  it('answers malformed JSON with a 400 message, never a stack', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: '{"username":',
      headers: { 'content-type': 'application/json' },
      remoteAddress: nextIp(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Request body is not valid JSON.' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: expect.stringContaining('/api/nope') });
  });

  it('sends API responses the headers that matter for JSON (pages get the CSP: client-serving.test.ts)', async () => {
    const response = await getUser();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['content-security-policy']).toBeUndefined();
  });

  it('never logs a password or a session token', async () => {
    const { cookie, username, password } = await registerUser(
      t.app,
      { password: 'log-canary-password' },
      nextIp(),
    );
    await post('/api/login', { username, password });
    await getUser(cookie);
    const logs = t.logs();
    expect(logs).toContain('request completed');
    expect(logs).not.toContain(password);
    expect(logs).not.toContain(cookie.split('=')[1]!.split('.')[0]);
  });
});

describe('Secure cookies behind HTTPS', () => {
  it('marks the cookie Secure when the request came over HTTPS', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const response = await proxied.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: uniqueUsername('tls'), password: 'secret-pass' },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.cookies.find((c) => c.name === 'pickreel_sid')?.secure).toBe(true);
      // The known-device cookie follows the same rule.
      expect(response.cookies.find((c) => c.name === 'pickreel_device')?.secure).toBe(true);
    } finally {
      await proxied.close();
    }
  });
});
