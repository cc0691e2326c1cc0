// Bad input: text PostgreSQL cannot store, ids that are not decimal, the cross-site check's
// origin, HSTS over plain HTTP, and what a failed query leaves in the log. On both databases.
import { sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUL_CHARACTER_MESSAGE } from '#common/schemas/text.js';
import type { Video } from '#common/schemas/videos.js';
import { loadConfig } from '#server/config.js';
import { rowsOf } from '#server/db/rows.js';
import { createVideo } from '../setup/fixtures.js';
import { postVideo, tusCreate, VALID_FIELDS } from '../setup/upload-requests.js';
import { createTestApp, registerUser, uniqueUsername, type TestApp } from '../setup/test-app.js';

let t: TestApp;
let capper: { cookie: string; id: number };
let video: Video;

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, '10.11.0.1');
  // Enough earnings for a payout request to reach its insert.
  await t.database.db.execute(sql`update users set manual_earnings_cents = 100000 where id = ${capper.id}`);
  const row = await createVideo(t, capper.id, { id: 1000, title: 'Video one thousand' });
  await createVideo(t, capper.id, { id: 1001, title: 'Video one thousand and one' });
  video = (await t.app.inject({ method: 'GET', url: `/api/videos/${row.id}` })).json<Video>();
  expect(video.id).toBe(1000);
});
afterAll(async () => {
  await t?.close();
});

const NUL = '\u0000';

function expectNulRefused(response: { statusCode: number; body: string }) {
  expect(response.statusCode, response.body).toBe(400);
  expect(JSON.parse(response.body)).toEqual({ message: NUL_CHARACTER_MESSAGE });
}

describe('a NUL character is a 400 with one message, never a 500', () => {
  it('in a registration bio, a display name and a username', async () => {
    for (const field of ['bio', 'displayName'] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: uniqueUsername(), password: 'correct-horse', [field]: `Sharp${NUL}capper` },
        remoteAddress: '10.11.1.1',
      });
      expectNulRefused(response);
    }
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: `bob${NUL}`, password: 'correct-horse' },
      remoteAddress: '10.11.1.2',
    });
    expectNulRefused(response);
  });

  it('in a video edit: title, description, winning selections', async () => {
    for (const field of ['title', 'description', 'emailInformation'] as const) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/api/videos/${video.id}`,
        headers: { cookie: capper.cookie },
        payload: { [field]: `Lakers ${NUL} -3.5` },
      });
      expectNulRefused(response);
    }
    const unchanged = await t.app.inject({
      method: 'GET',
      url: `/api/videos/${video.id}`,
      headers: { cookie: capper.cookie },
    });
    expect(unchanged.json<Video>().title).toBe('Video one thousand');
  });

  it('in payout account details', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payout-request',
      headers: { cookie: capper.cookie },
      payload: { amount: 10, paymentMethod: 'paypal', accountDetails: `capper${NUL}@example.com` },
    });
    expectNulRefused(response);
  });

  it('in a search, a category and a route parameter', async () => {
    expectNulRefused(await t.app.inject({ method: 'GET', url: '/api/videos?q=lakers%00' }));
    expectNulRefused(await t.app.inject({ method: 'GET', url: '/api/videos?q=%00' }));
    expectNulRefused(await t.app.inject({ method: 'GET', url: `/api/videos/${video.id}%00` }));
    expectNulRefused(await t.app.inject({ method: 'GET', url: '/media/videos/1000/thumb%00.jpg' }));
    // Deep inside a JSON body, and in a key.
    const nested = await t.app.inject({
      method: 'PATCH',
      url: `/api/videos/${video.id}`,
      headers: { cookie: capper.cookie },
      payload: { title: 'Fine', extra: [{ deep: [`x${NUL}`] }] },
    });
    expectNulRefused(nested);
    const key = await t.app.inject({
      method: 'PATCH',
      url: `/api/videos/${video.id}`,
      headers: { cookie: capper.cookie, 'content-type': 'application/json' },
      payload: '{"title":"Fine","a\\u0000b":1}',
    });
    expectNulRefused(key);
  });

  it("in a pick's legs, JSON text inside a field: the multipart form, the tus metadata and an edit", async () => {
    // `\u0000` is six plain characters in the field; it is a NUL once the legs' JSON is read.
    const legs = (away: string) =>
      JSON.stringify([
        {
          league: 'NBA',
          home: 'Lakers',
          away,
          startsAt: new Date(Date.now() + 86_400_000).toISOString(),
          market: 'moneyline',
          side: 'Lakers',
          line: null,
          odds: -110,
          units: 1,
        },
      ]).replace('NUL_HERE', '\\u0000');
    for (const away of ['Celtics NUL_HERE', 'NUL_HERE']) {
      const fields = {
        ...VALID_FIELDS,
        isExternalVideo: 'true',
        externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        legs: legs(away),
        parlay: 'false',
      };
      expect(fields.legs).toContain('\\u0000');
      expectNulRefused(await postVideo(t.app, capper.cookie, fields));
      expectNulRefused(
        await tusCreate(t.app, capper.cookie, 1000, {
          ...fields,
          isExternalVideo: 'false',
          filename: 'a.mov',
        }),
      );
      expectNulRefused(
        await t.app.inject({
          method: 'PATCH',
          url: `/api/videos/${video.id}`,
          headers: { cookie: capper.cookie },
          payload: { legs: JSON.parse(legs(away)) as unknown },
        }),
      );
    }
    const [row] = rowsOf<{ count: number }>(
      await t.database.db.execute(sql`select count(*)::int as count from events where home = 'Lakers'`),
    );
    expect(row!.count).toBe(0);
  });

  it('a deeply nested body does not overflow the check', async () => {
    const depth = 50_000;
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/videos/${video.id}`,
      headers: { cookie: capper.cookie, 'content-type': 'application/json' },
      payload: `{"title":"Fine","deep":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    });
    expect(response.statusCode).toBeLessThan(500);
  });
});

describe('ids are decimal digits', () => {
  it.each([
    '0x3e8',
    '1e3',
    '%201000',
    '+1000',
    '1000.0',
    '1000%20',
    '0b1111101000',
    '1_000',
    '-1000',
    '0',
    '2147483648',
  ])('/api/videos/%s is a 400, never video 1000', async (written) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/videos/${written}` });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ message: 'Video id must be a whole number' });
  });

  it('the same id in decimal digits is the video', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/videos/1000' });
    expect(response.statusCode).toBe(200);
    expect(response.json<Video>().id).toBe(1000);
  });

  it('applies to every route with an id, and to limit and offset', async () => {
    const admin = await registerUser(t.app, {}, '10.11.2.1');
    await t.database.db.execute(sql`update users set is_admin = true where id = ${admin.id}`);
    const cases: Array<[string, string, string | undefined]> = [
      ['POST', '/api/videos/1e3/retry', capper.cookie],
      ['POST', '/api/videos/0x3e8/view', undefined],
      ['GET', '/api/videos/1e3/purchased', capper.cookie],
      ['DELETE', '/api/videos/1e3', capper.cookie],
      ['DELETE', '/api/admin/videos/0x3e9', admin.cookie],
      ['DELETE', `/api/admin/users/${capper.id}.0`, admin.cookie],
      ['GET', '/api/videos?limit=0x10', undefined],
      ['GET', '/api/videos?offset=1e3', undefined],
      ['GET', '/api/videos?limit=%2012', undefined],
      ['GET', '/api/admin/users?limit=1e1', admin.cookie],
    ];
    for (const [method, url, cookie] of cases) {
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        headers: cookie ? { cookie } : {},
      });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(400);
    }
    // Nothing was deleted by a look-alike id.
    expect((await t.app.inject({ method: 'GET', url: '/api/videos/1000' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/videos/1001' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/videos?limit=1&offset=0' })).statusCode).toBe(200);
  });
});

describe('cross-site check compares the whole origin', () => {
  const logout = (headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/logout', headers: { host: 'pickreel.test', ...headers } });

  it('refuses an https origin or referer on the http site, and another port', async () => {
    const refused: Array<Record<string, string>> = [
      { origin: 'https://pickreel.test' },
      { referer: 'https://pickreel.test/dashboard' },
      { origin: 'http://pickreel.test:8080' },
      { origin: 'http://evil.test' },
    ];
    for (const headers of refused) {
      const response = await logout(headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json()).toEqual({ message: 'Cross-site request refused.' });
    }
  });

  it('accepts the same origin, with or without its default port', async () => {
    const accepted: Array<Record<string, string>> = [
      { origin: 'http://pickreel.test' },
      { origin: 'http://pickreel.test:80' },
      { referer: 'http://pickreel.test/dashboard?tab=videos' },
    ];
    for (const headers of accepted) {
      expect((await logout(headers)).statusCode, JSON.stringify(headers)).not.toBe(403);
    }
  });
});

/** A TRUST_PROXY value under which the test's requests (from 127.0.0.1) come from the trusted proxy. */
function trustLoopback(): string {
  for (const candidate of ['127.0.0.1', 'loopback', '1', 'true']) {
    try {
      loadConfig({ DATA_DIR: '/tmp', SESSION_SECRET: 'x'.repeat(40), TRUST_PROXY: candidate });
      return candidate;
    } catch {
      // not a value this version of the setting takes
    }
  }
  throw new Error('no TRUST_PROXY value trusts 127.0.0.1');
}

describe('HSTS only over HTTPS', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ env: { TRUST_PROXY: trustLoopback() } });
  });
  afterAll(async () => {
    await proxied?.close();
  });

  it('is not sent over plain HTTP, on pages and media', async () => {
    for (const url of ['/', '/media/videos/1/thumb.jpg']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
      expect(response.headers['content-security-policy'], url).toBeDefined();
    }
    const plainBehindProxy = await proxied.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(plainBehindProxy.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent when the proxy in front says the request came over HTTPS', async () => {
    const response = await proxied.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    // An https origin is then this site's own.
    const logout = await proxied.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { 'x-forwarded-proto': 'https', host: 'pickreel.test', origin: 'https://pickreel.test' },
    });
    expect(logout.statusCode).not.toBe(403);
  });
});

describe('a failed query leaves no secret in the log', () => {
  it('neither the parameters nor PostgreSQL detail of a refused row', async () => {
    const password = 'LOG-CANARY-PASSWORD-7731';
    const bio = 'LOG-CANARY-BIO-4412';
    const account = 'LOG-CANARY-ACCOUNT-9051';
    // Constraints that make these inserts fail in the database, as any unforeseen failure would.
    await t.database.exec(
      "alter table users add constraint test_no_canary check (bio is null or bio not like 'LOG-CANARY%')",
    );
    await t.database.exec(
      "alter table payout_requests add constraint test_no_canary check (account_details not like 'LOG-CANARY%')",
    );
    try {
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: uniqueUsername(), password, bio },
        remoteAddress: '10.11.3.1',
      });
      expect(registered.statusCode).toBe(500);
      expect(registered.json()).toEqual({ message: 'Server error. Please try again later.' });
      const payout = await t.app.inject({
        method: 'POST',
        url: '/api/payout-request',
        headers: { cookie: capper.cookie },
        payload: { amount: 10, paymentMethod: 'paypal', accountDetails: account },
      });
      expect(payout.statusCode).toBe(500);
      expect(payout.body).not.toContain(account);
    } finally {
      await t.database.exec('alter table users drop constraint test_no_canary');
      await t.database.exec('alter table payout_requests drop constraint test_no_canary');
    }
    const logs = t.logs();
    // The failures were logged, with what a reader needs: the statement and the constraint.
    expect(logs).toContain('Failed query: insert into \\"users\\"');
    expect(logs).toContain('"constraint":"test_no_canary"');
    expect(logs).toContain('"code":"23514"');
    for (const secret of [password, bio, account, '$argon2id$', 'Failing row contains']) {
      expect(logs).not.toContain(secret);
    }
  });

  it('nor a body the JSON parser could not read', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":"bob","password":"LOG-CANARY-JSON-1234"',
      remoteAddress: '10.11.3.2',
    });
    expect(response.statusCode).toBe(400);
    expect(t.logs()).not.toContain('LOG-CANARY-JSON');
  });
});
