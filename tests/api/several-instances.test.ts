// Several web instances on one database behave as one site (docs/decisions/024): two apps on the
// same database, media and settings; what one does, the other honours.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { sql } from '#server/db/drizzle.js';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UploadResult } from '#common/schemas/uploads.js';
import type { Video } from '#common/schemas/videos.js';
import { rowsOf } from '#server/db/rows.js';
import { SessionStore } from '#server/features/auth/session.js';
import { CatalogCache } from '#server/features/videos/catalog-cache.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { createSecondInstance } from '../setup/second-instance.js';
import { inBucket, storedBytes } from '../setup/stored-media.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, TUS, tusCreate, tusHead, tusPatch, VALID_FIELDS } from '../setup/upload-requests.js';

const LIMITS = { perIpPerMinute: 4, failedLoginsPerUsername: 10 };
let a: TestApp;
let b: TestApp;
let capper: { cookie: string; id: number; username: string; password: string };
let video: Video;

beforeAll(async () => {
  a = await createTestApp({ authRateLimits: LIMITS });
  b = await createSecondInstance(a, { authRateLimits: LIMITS });
  capper = await registerUser(a.app, {}, '10.16.0.1');
  const posted = await postVideo(b.app, capper.cookie, {
    ...VALID_FIELDS,
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
  });
  expect(posted.statusCode, posted.body).toBe(201);
  video = posted.json<Video>();
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('sessions', () => {
  it('a session begun on one instance is signed in on the other, and a sign-out on either ends it on both', async () => {
    const user = await registerUser(a.app, {}, '10.16.1.1');
    const onB = await b.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: user.cookie } });
    expect(onB.statusCode, onB.body).toBe(200);
    expect(onB.json<{ id: number }>().id).toBe(user.id);
    // A has the session cached now.
    expect(
      (await a.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: user.cookie } })).statusCode,
    ).toBe(200);

    const out = await b.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: user.cookie } });
    expect(out.statusCode).toBe(200);
    expect(
      (await b.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: user.cookie } })).statusCode,
    ).toBe(401);
    // A learns it within its cache's lifetime (decision 024): once that has passed, the session is gone there.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + SessionStore.CACHE_TTL_MS);
      const onA = await a.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: user.cookie } });
      expect(onA.statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('limits and counters', () => {
  it('counts the sign-in attempts of one address on both instances together', async () => {
    const user = await registerUser(a.app, {}, '10.16.2.1');
    const ip = '10.16.2.2';
    const login = (t: TestApp, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: user.username, password },
        remoteAddress: ip,
      });
    const answers: number[] = [];
    for (let i = 0; i < LIMITS.perIpPerMinute; i += 1) {
      answers.push((await login(i % 2 === 0 ? a : b, 'wrong-password')).statusCode);
    }
    expect(answers).toEqual(Array<number>(LIMITS.perIpPerMinute).fill(401));
    const refusedOnA = await login(a, user.password);
    const refusedOnB = await login(b, user.password);
    expect([refusedOnA.statusCode, refusedOnB.statusCode]).toEqual([429, 429]);
    expect(refusedOnB.json<{ message: string }>().message).toMatch(/^Too many attempts/);
  });

  it('limits the shares of one address across both instances (20 a minute)', async () => {
    const share = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: `/api/videos/${video.id}/share`,
        payload: { platform: 'x' },
        remoteAddress: '10.16.3.1',
      });
    const codes: number[] = [];
    for (let i = 0; i < 20; i += 1) codes.push((await share(i % 2 === 0 ? a : b)).statusCode);
    expect(codes).toEqual(Array<number>(20).fill(200));
    const onA = await share(a);
    const onB = await share(b);
    expect([onA.statusCode, onB.statusCode]).toEqual([429, 429]);
    expect(onB.json<{ message: string }>().message).toMatch(/^Too many shares\. Please wait \d+ seconds/);
    expect(Number(onB.headers['retry-after'])).toBeGreaterThan(0);
    // The window's end is the database's: once it has passed, the address may share again.
    await a.database.db.execute(
      sql`update auth_throttles set reset_at = now() - interval '1 second' where key like 'limit:share:%'`,
    );
    expect((await share(b)).statusCode).toBe(200);
    expect((await share(a)).statusCode).toBe(200);
    // Another address is not affected.
    const other = await b.app.inject({
      method: 'POST',
      url: `/api/videos/${video.id}/share`,
      payload: { platform: 'x' },
      remoteAddress: '10.16.3.2',
    });
    expect(other.statusCode).toBe(200);
  });

  it('counts a view once per viewer when the same viewer is counted on both instances at the same moment', async () => {
    const viewers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => registerUser(i % 2 === 0 ? a.app : b.app, {}, `10.16.4.${i + 1}`)),
    );
    const before = await viewsOf(video.id);
    const answers = await Promise.all(
      viewers.flatMap((viewer) =>
        [a, b, a, b].map((t) =>
          t.app.inject({
            method: 'POST',
            url: `/api/videos/${video.id}/view`,
            headers: { cookie: viewer.cookie },
          }),
        ),
      ),
    );
    const counted = answers.map((response) => response.json<{ counted: boolean }>().counted);
    expect(counted.filter(Boolean)).toHaveLength(viewers.length);
    for (let v = 0; v < viewers.length; v += 1) {
      expect(counted.slice(v * 4, v * 4 + 4).filter(Boolean)).toHaveLength(1);
    }
    expect((await viewsOf(video.id)) - before).toBe(viewers.length);
  });
});

async function viewsOf(videoId: number): Promise<number> {
  const [row] = rowsOf<{ views: number }>(
    await a.database.db.execute(sql`select views from videos where id = ${videoId}`),
  );
  return Number(row!.views);
}

async function create(t: TestApp, length: number): Promise<string> {
  const created = await tusCreate(t.app, capper.cookie, length);
  expect(created.statusCode, created.body).toBe(201);
  return created.headers.location as string;
}

const patch = (t: TestApp, location: string, offset: number, body: Buffer | PassThrough) =>
  tusPatch(t.app, capper.cookie, location, offset, body);

async function offsetOn(t: TestApp, location: string): Promise<number> {
  const response = await tusHead(t.app, capper.cookie, location);
  expect(response.statusCode).toBe(200);
  return Number(response.headers['upload-offset']);
}

/** The original the finished upload became, as stored. */
async function originalOf(response: LightMyRequestResponse): Promise<Buffer> {
  expect(response.statusCode, response.body).toBe(200);
  const { videoId } = JSON.parse(response.body) as UploadResult;
  return (await storedBytes(a, `videos/${videoId}/original.mov`))!;
}

/**
 * A PATCH on `t` whose body is sent in part and then held: `body.end(rest)` sends the rest. Resolves once `t`
 * is writing it (it has read the first part, so it holds the upload's lock).
 */
async function heldPatch(t: TestApp, location: string, offset: number, first: Buffer) {
  const body = new PassThrough();
  body.write(first);
  // Settled at once: a connection closed under it must not be an unhandled rejection while the test waits.
  const answer = patch(t, location, offset, body).then(
    (response) => response,
    (error: Error) => error,
  );
  for (let i = 0; i < 500 && body.readableLength > 0; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(body.readableLength).toBe(0);
  return { body, answer };
}

describe('tus uploads through two instances', () => {
  const content = readFileSync(mediaFixture('h264Mov'));
  const third = Math.floor(content.length / 3);

  it('an upload begun on A resumes on B: the offset is right, it finishes, and the bytes are the same', async () => {
    const location = await create(a, content.length);
    expect((await patch(a, location, 0, content.subarray(0, third))).statusCode).toBe(204);
    expect(await offsetOn(b, location)).toBe(third);
    expect((await patch(b, location, third, content.subarray(third, 2 * third))).statusCode).toBe(204);
    expect(await offsetOn(a, location)).toBe(2 * third);
    const last = await patch(b, location, 2 * third, content.subarray(2 * third));
    expect(sha256(await originalOf(last))).toBe(sha256(content));
  });

  it('two PATCHes of one upload through A and B at once: the second is told to retry, nothing is written twice', async () => {
    const location = await create(a, content.length);
    const chunk = content.subarray(0, third);
    const held = await heldPatch(a, location, 0, chunk.subarray(0, 1000));
    const racing = await patch(b, location, 0, chunk);
    expect(racing.statusCode).toBe(423);
    expect(racing.json<{ message: string }>().message).toBe('The upload is busy. Retry shortly.');
    // Through A itself too (a PostgreSQL session's advisory locks are re-entrant: A keeps its own count),
    // and a cancel waits its turn as well.
    expect((await patch(a, location, 0, chunk)).statusCode).toBe(423);
    const cancel = await b.app.inject({
      method: 'DELETE',
      url: location,
      headers: { ...TUS, cookie: capper.cookie },
    });
    expect(cancel.statusCode).toBe(423);
    held.body.end(chunk.subarray(1000));
    const answered = await held.answer;
    expect(answered instanceof Error ? answered.message : answered.statusCode).toBe(204);
    // B's retry at the offset it had is told where the upload is now.
    const retried = await patch(b, location, 0, chunk);
    expect(retried.statusCode).toBe(409);
    expect(retried.headers['upload-offset']).toBe(String(third));
    const last = await patch(b, location, third, content.subarray(third));
    expect(sha256(await originalOf(last))).toBe(sha256(content));
  });

  it('resumes on B when A stops mid-chunk, its lock gone with it', async () => {
    const c = await createSecondInstance(a);
    let closed = false;
    try {
      const location = await create(c, content.length);
      expect((await patch(c, location, 0, content.subarray(0, third))).statusCode).toBe(204);
      const held = await heldPatch(c, location, third, content.subarray(third, third + 5000));
      expect((await patch(b, location, third, content.subarray(third))).statusCode).toBe(423);
      if (a.databaseUrl) {
        // As when the instance is killed: PostgreSQL ends its lock connection, and with it the lock.
        await b.database.db.execute(sql`
          select pg_terminate_backend(pid) from pg_locks
          where locktype = 'advisory' and granted and classid = ${0x747573} and pid <> pg_backend_pid()`);
      } else {
        // The embedded database has one process: the instance's end is the only way its locks go.
        await c.close();
        closed = true;
      }
      // The stopped chunk's connection is closed without an answer; what reached the store stays.
      const answered = await held.answer;
      expect(answered instanceof Error ? answered.message : answered.statusCode).toBe(
        'response destroyed before completion',
      );
      // On disk the file keeps every byte that reached it. In the bucket @tus/s3-store keeps bytes short of
      // a part (8 MiB) as <id>.part and deletes it when the next write begins, so an interrupted write
      // loses them and HEAD says to send them again (decision 024): fewer bytes, never wrong ones.
      const offset = await offsetOn(b, location);
      expect(offset).toBeGreaterThanOrEqual(inBucket() ? 0 : third);
      expect(offset).toBeLessThanOrEqual(third + 5000);
      const last = await patch(b, location, offset, content.subarray(offset));
      expect(sha256(await originalOf(last))).toBe(sha256(content));
    } finally {
      if (!closed) await c.close();
    }
  });
});

describe('the catalog', () => {
  it('shows a change made on the other instance once its cache lifetime has passed', async () => {
    const listed = async (t: TestApp) =>
      (await t.app.inject({ method: 'GET', url: `/api/videos/${video.id}` })).json<Video>().title;
    expect(await listed(a)).toBe(video.title);
    const renamed = await b.app.inject({
      method: 'PATCH',
      url: `/api/videos/${video.id}`,
      headers: { cookie: capper.cookie },
      payload: { title: 'Renamed on the other instance' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // On PostgreSQL no page is served TTL_MS after its query was sent. The embedded database admits one
      // process (here the two apps share its handle), so nothing else writes it: there a settled page may be
      // served up to twice that while its refresh waits behind a long write (catalog-cache.ts).
      const lifetime = a.database.kind === 'pglite' ? 2 * CatalogCache.TTL_MS : CatalogCache.TTL_MS;
      vi.setSystemTime(Date.now() + lifetime);
      expect(await listed(a)).toBe('Renamed on the other instance');
    } finally {
      vi.useRealTimers();
    }
  });
});
