// A web instance killed in the middle of a tus chunk (docs/decisions/024): instance A is a real
// process (`ROLE=web`, main.ts through tsx), instance B is this test's app, both on one PostgreSQL, one
// DATA_DIR and one bucket. A holds the upload's lock while the chunk arrives; B is refused (423); A is
// SIGKILLed; PostgreSQL ends A's lock connection and with it the lock, and B resumes the upload from HEAD's
// offset to the same SHA-256. Several processes on one database: PostgreSQL only (a server killed mid-upload
// on the embedded database is uploads-restart.test.ts's).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResult } from '#common/schemas/uploads.js';
import { rowsOf } from '#server/db/rows.js';
import { packageRoot } from '#server/lib/package-root.js';
import { freePort } from '../setup/free-port.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { storedBytes } from '../setup/stored-media.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { tusMetadata, VALID_FIELDS } from '../setup/upload-requests.js';
import { waitFor } from '../setup/wait-for.js';

const onPostgres = Boolean(process.env.DATABASE_URL);
const TUS = { 'tus-resumable': '1.0.0' };
/** The uploads' advisory-lock namespace (features/uploads/tus.ts). */
const UPLOAD_LOCKS = 0x747573;

const waitForEvery50 = <T>(what: string, probe: () => Promise<T | undefined>, log: () => string) =>
  waitFor(what, probe, log, 50);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.runIf(onPostgres)('a web instance killed mid-chunk (PostgreSQL)', () => {
  let b: TestApp;
  let a: ChildProcess | null = null;
  let aLog = '';
  let port = 0;

  beforeAll(async () => {
    b = await createTestApp();
    port = await freePort();
    const s3 = b.config.s3;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ROLE: 'web',
      DATABASE_URL: b.databaseUrl!,
      DATA_DIR: b.config.dataDir,
      SESSION_SECRET: b.config.sessionSecret,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...(s3
        ? {
            S3_BUCKET: s3.bucket,
            S3_ENDPOINT: s3.endpoint ?? '',
            S3_REGION: s3.region,
            S3_ACCESS_KEY_ID: s3.credentials?.accessKeyId ?? '',
            S3_SECRET_ACCESS_KEY: s3.credentials?.secretAccessKey ?? '',
            S3_FORCE_PATH_STYLE: String(s3.forcePathStyle),
          }
        : {}),
    };
    a = spawn(
      process.execPath,
      ['--liftoff-only', '--import', 'tsx', path.join('src', 'server', 'main.ts')],
      {
        cwd: packageRoot(),
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    a.stdout!.on('data', (chunk: Buffer) => (aLog += chunk.toString()));
    a.stderr!.on('data', (chunk: Buffer) => (aLog += chunk.toString()));
    await waitForEvery50(
      'instance A to start',
      async () => ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok ? true : undefined),
      () => aLog,
    );
  }, 120_000);
  afterAll(async () => {
    if (a && a.exitCode === null && a.signalCode === null) {
      const exited = new Promise((resolve) => a!.once('exit', resolve));
      a.kill('SIGKILL');
      await exited;
    }
    await b?.close();
  });

  /** Who holds the upload locks now (backend pids). */
  const lockHolders = async () =>
    rowsOf<{ pid: number }>(
      await b.database.db.execute(
        sql`select pid from pg_locks where locktype = 'advisory' and granted and classid = ${UPLOAD_LOCKS}`,
      ),
    ).map((row) => row.pid);

  it('B is refused while A writes, and resumes the upload once A is killed; the bytes are the same', async () => {
    const user = await registerUser(b.app, {}, '10.16.9.1');
    const content = readFileSync(mediaFixture('h264Mov'));
    const third = Math.floor(content.length / 3);
    const onA = `http://127.0.0.1:${port}`;

    // Created and begun on A, over HTTP: B's session cookie is good there (one sessions table, one secret).
    const created = await fetch(`${onA}/api/uploads`, {
      method: 'POST',
      headers: {
        ...TUS,
        cookie: user.cookie,
        'upload-length': String(content.length),
        'upload-metadata': tusMetadata({ ...VALID_FIELDS, filename: 'pick.mov' }),
      },
    });
    expect(created.status, aLog).toBe(201);
    const location = created.headers.get('location')!;
    const first = await fetch(`${onA}${location}`, {
      method: 'PATCH',
      headers: {
        ...TUS,
        cookie: user.cookie,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: content.subarray(0, third),
    });
    expect(first.status).toBe(204);

    // The next chunk reaches A in part, and A holds the upload's lock while it waits for the rest.
    const held = http.request(`${onA}${location}`, {
      method: 'PATCH',
      headers: {
        ...TUS,
        cookie: user.cookie,
        'upload-offset': String(third),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(content.length - third),
      },
    });
    const heldEnded = new Promise<string>((resolve) => {
      held.on('response', (response) => resolve(`answered ${response.statusCode}`));
      held.on('error', (error) => resolve(error.message));
    });
    held.write(content.subarray(third, third + 4000));
    const [holder] = await waitForEvery50(
      'A to hold the lock',
      async () => {
        const pids = await lockHolders();
        return pids.length > 0 ? pids : undefined;
      },
      () => aLog,
    );

    const patchOnB = (offset: number, body: Buffer) =>
      b.app.inject({
        method: 'PATCH',
        url: location,
        headers: {
          ...TUS,
          cookie: user.cookie,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        payload: body,
      });
    expect((await patchOnB(third, content.subarray(third))).statusCode).toBe(423);

    // kill -9: no shutdown hook runs; the kernel closes A's sockets, its lock connection among them.
    const exited = new Promise((resolve) => a!.once('exit', resolve));
    a!.kill('SIGKILL');
    await exited;
    expect(await heldEnded).not.toMatch(/^answered/);
    await waitForEvery50(
      "PostgreSQL to end A's lock connection",
      async () => ((await lockHolders()).includes(holder!) ? undefined : true),
      () => aLog,
    );

    const head = await b.app.inject({
      method: 'HEAD',
      url: location,
      headers: { ...TUS, cookie: user.cookie },
    });
    expect(head.statusCode).toBe(200);
    const offset = Number(head.headers['upload-offset']);
    // On disk what reached the file stays; in the bucket a chunk short of a part is sent again (decision 024).
    expect(offset).toBeLessThanOrEqual(third + 4000);
    const last = await patchOnB(offset, content.subarray(offset));
    expect(last.statusCode, last.body).toBe(200);
    const { videoId } = last.json<UploadResult>();
    expect(sha256((await storedBytes(b, `videos/${videoId}/original.mov`))!)).toBe(sha256(content));
  });
});
