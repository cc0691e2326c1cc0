// The tus endpoint /api/uploads (docs/product-decisions.md 'Media'): sign-in, ids, limits, metadata, finishing into
// a video.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { HeadObjectCommand, PutObjectCommand, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { and, eq, gt, sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '#common/constants.js';
import { NUL_CHARACTER_MESSAGE } from '#common/schemas/text.js';
import type { UploadResult } from '#common/schemas/uploads.js';
import type { Video } from '#common/schemas/videos.js';
import { TOO_MANY_BYTES_MESSAGE, TOO_MANY_UPLOADS_MESSAGE } from '#server/features/uploads/tus.js';
import { uploads } from '#server/db/schema.js';
import { OPEN_UPLOADS_MAX, RESERVED_BYTES_MAX } from '#server/features/uploads/uploads-repository.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { inBucket, storedBytes, tusBytes, tusLeftovers } from '../setup/stored-media.js';
import { TUS, tusCreate, tusHead, tusMetadata, tusPatch, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
let capper: { cookie: string; id: number };
let other: { cookie: string; id: number };

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, '10.6.0.1');
  other = await registerUser(t.app, {}, '10.6.0.2');
});
afterAll(async () => {
  await t?.close();
});

/** The ids of the user's unexpired upload rows: what the per-user caps count. */
async function openUploadIds(userId: number): Promise<string[]> {
  const rows = await t.database.db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), gt(uploads.expiresAt, sql`now()`)));
  return rows.map((row) => row.id);
}

const create = (length: number, fields?: Record<string, string>, cookie: string | null = capper.cookie) =>
  tusCreate(t.app, cookie, length, fields);

const patch = (location: string, offset: number, body: Buffer, cookie = capper.cookie) =>
  tusPatch(t.app, cookie, location, offset, body);

const head = (location: string, cookie = capper.cookie) => tusHead(t.app, cookie, location);

/**
 * A PATCH whose body comes as a stream with no Content-Length, as a chunked request does (tus-js-client in
 * Node.js sends a Buffer so), 1 MiB at a time.
 */
function patchChunked(location: string, offset: number, body: Buffer) {
  const pieces = Readable.from(
    (function* () {
      for (let at = 0; at < body.length; at += 1024 * 1024) yield body.subarray(at, at + 1024 * 1024);
    })(),
  );
  return tusPatch(t.app, capper.cookie, location, offset, pieces);
}

/** What tus keeps of unfinished uploads: files in uploads/tus, or objects at the bucket's root. */
const tusFiles = () => tusLeftovers(t);

/** Sends a file in chunks, as tus-js-client does; returns the last response. */
async function sendInChunks(location: string, content: Buffer, chunk: number, from = 0) {
  let response;
  for (let offset = from; offset < content.length; offset += chunk) {
    response = await patch(location, offset, content.subarray(offset, offset + chunk));
    if (response.statusCode >= 300) return response;
  }
  return response!;
}

describe('tus: creating an upload', () => {
  it('needs a session', async () => {
    expect((await create(100, undefined, null)).statusCode).toBe(401);
  });

  it('refuses more than 15 GB', async () => {
    const response = await create(15 * 1024 ** 3 + 1);
    expect(response.statusCode).toBe(413);
  });

  it('checks the metadata with the same rules as the form', async () => {
    const response = await create(100, { ...VALID_FIELDS, title: '' });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ message: 'Title is required' });
    expect(await tusFiles()).toEqual([]);
  });

  it('takes a key sent without a value (no winning selections yet) as empty text', async () => {
    const { emailInformation: _none, ...fields } = { ...VALID_FIELDS, filename: 'pick.mov' };
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...TUS,
        'upload-length': '1000',
        // tus 1.0: a key with no value is allowed ("emailInformation" alone)
        'upload-metadata': `${tusMetadata(fields)},emailInformation`,
        cookie: capper.cookie,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    // Not left open: it would count against this capper's open uploads in the tests below.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: response.headers.location as string,
      headers: { ...TUS, cookie: capper.cookie },
    });
    expect(removed.statusCode).toBe(204);
  });

  it('answers 404 to ids it did not make, and to other people', async () => {
    const created = await create(1000);
    expect(created.statusCode).toBe(201);
    const location = created.headers.location as string;
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
    expect((await head(location, other.cookie)).statusCode).toBe(404);
    expect((await patch(location, 0, Buffer.alloc(10), other.cookie)).statusCode).toBe(404);
    expect((await head('/api/uploads/..%2F..%2Fsession-secret')).statusCode).toBe(404);
    expect((await head('/api/uploads/abc')).statusCode).toBe(404);
    const mine = await head(location);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['upload-offset']).toBe('0');
  });

  it('needs a session on every route of an upload, which stays as it was', async () => {
    // One hook (uploadRoutes' preHandler) guards the whole scope, no route repeats it: it refuses before tus
    // reads the length (413) and before the id is looked at (404).
    expect((await create(15 * 1024 ** 3 + 1, undefined, null)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/uploads/abc/video' })).statusCode).toBe(401);
    const uploader = await registerUser(t.app, {}, '10.6.0.3');
    const created = await create(100, undefined, uploader.cookie);
    expect(created.statusCode).toBe(201);
    const location = created.headers.location as string;
    const signedOut = await Promise.all([
      t.app.inject({ method: 'HEAD', url: location, headers: TUS }),
      t.app.inject({
        method: 'PATCH',
        url: location,
        headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        payload: Buffer.alloc(10),
      }),
      t.app.inject({ method: 'DELETE', url: location, headers: TUS }),
      t.app.inject({ method: 'GET', url: `${location}/video` }),
    ]);
    expect(signedOut.map((response) => response.statusCode)).toEqual([401, 401, 401, 401]);
    const after = await head(location, uploader.cookie);
    expect(after.statusCode).toBe(200);
    expect(after.headers['upload-offset']).toBe('0');
  });
});

describe('tus: sending chunks', () => {
  it('refuses a wrong offset, a wrong type and bytes past the declared length', async () => {
    const created = await create(100);
    const location = created.headers.location as string;
    const wrongOffset = await patch(location, 10, Buffer.alloc(10));
    expect(wrongOffset.statusCode).toBe(409);
    expect(wrongOffset.headers['upload-offset']).toBe('0');
    const wrongType = await t.app.inject({
      method: 'PATCH',
      url: location,
      headers: {
        ...TUS,
        'upload-offset': '0',
        'content-type': 'application/octet-stream',
        cookie: capper.cookie,
      },
      payload: Buffer.alloc(10),
    });
    expect(wrongType.statusCode).toBe(415);
    expect((await patch(location, 0, Buffer.alloc(101))).statusCode).toBe(413);
    const first = await patch(location, 0, Buffer.alloc(60));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe('60');
    expect(first.headers['tus-resumable']).toBe('1.0.0');
    expect((await head(location)).headers['upload-offset']).toBe('60');
  });
});

describe('tus: finishing an upload', () => {
  it('turns a finished MOV into a video owned by the session user, and says which', async () => {
    const content = readFileSync(mediaFixture('h264Mov'));
    const created = await create(content.length, {
      ...VALID_FIELDS,
      filename: 'pick.mov',
      userId: String(other.id),
    });
    const location = created.headers.location as string;
    const uploadId = location.split('/').pop()!;

    const half = Math.floor(content.length / 2);
    expect((await patch(location, 0, content.subarray(0, half))).statusCode).toBe(204);
    const resumed = await head(location);
    expect(resumed.headers['upload-offset']).toBe(String(half));
    const last = await patch(location, half, content.subarray(half));
    expect(last.statusCode, last.body).toBe(200);
    const result = JSON.parse(last.body) as UploadResult;
    expect(result.success).toBe(true);
    expect(last.headers['upload-video-id']).toBe(String(result.videoId));

    // Asked again (the answer was lost): the same video, not a second one.
    const asked = await t.app.inject({
      method: 'GET',
      url: `${location}/video`,
      headers: { cookie: capper.cookie },
    });
    expect(asked.json<UploadResult>()).toEqual({ success: true, videoId: result.videoId });
    expect(
      (await t.app.inject({ method: 'GET', url: `${location}/video`, headers: { cookie: other.cookie } }))
        .statusCode,
    ).toBe(404);
    // A client resuming the finished upload learns it is complete.
    const done = await head(location);
    expect(done.statusCode).toBe(200);
    expect(done.headers['upload-offset']).toBe(String(content.length));
    expect(done.headers['upload-video-id']).toBe(String(result.videoId));

    const video = (
      await t.app.inject({
        method: 'GET',
        url: `/api/videos/${result.videoId}`,
        headers: { cookie: capper.cookie },
      })
    ).json<Video>();
    expect(video.userId).toBe(capper.id);
    expect(video.title).toBe(VALID_FIELDS.title);
    expect((await tusFiles()).filter((name) => name.startsWith(uploadId))).toEqual([]);
    expect((await storedBytes(t, `videos/${result.videoId}/original.mov`))!.equals(content)).toBe(true);

    await t.app.mediaJobs.runUntilIdle();
    const ready = (await t.app.inject({ method: 'GET', url: `/api/videos/${result.videoId}` })).json<Video>();
    expect(ready.transcodingStatus).toBe('ready');
  });

  it('ends byte for byte in any mix of whole parts, a tail shorter than a part and odd chunks', async () => {
    // In a bucket, whole 8 MiB parts stream straight into the multipart upload, a shorter tail waits as
    // <id>.part and the next chunk takes it up (decision 022); on disk it is one file either way.
    const MiB = 1024 * 1024;
    const mov = readFileSync(mediaFixture('h264Mov'));
    const content = Buffer.alloc(27 * MiB + 12_345);
    mov.copy(content);
    for (let i = mov.length; i < content.length; i++) content[i] = (i * 31) % 251;
    const created = await create(content.length);
    const location = created.headers.location as string;
    const uploadId = location.split('/').pop()!;
    const ends = [16 * MiB, 17 * MiB, 19 * MiB + 7, 24 * MiB + 7, content.length];
    let offset = 0;
    let last;
    for (const end of ends) {
      last = await patch(location, offset, content.subarray(offset, end));
      offset = end;
      if (end < content.length) {
        expect(last.statusCode, last.body).toBe(204);
        expect((await head(location)).headers['upload-offset']).toBe(String(end));
      }
    }
    expect(last!.statusCode, last!.body).toBe(200);
    const { videoId } = JSON.parse(last!.body) as UploadResult;
    expect((await tusFiles()).filter((name) => name.startsWith(uploadId))).toEqual([]);
    expect((await storedBytes(t, `videos/${videoId}/original.mov`))!.equals(content)).toBe(true);
  });

  it('ends byte for byte when its chunks come without a Content-Length, past parts and tails alike', async () => {
    // In a bucket each piece is staged until its length is known, then sent as a part or as the marked
    // `<id>.part` (decision 022); on disk the bytes are appended as they come.
    const MiB = 1024 * 1024;
    const mov = readFileSync(mediaFixture('h264Mov'));
    const content = Buffer.alloc(19 * MiB + 4_321);
    mov.copy(content);
    for (let i = mov.length; i < content.length; i++) content[i] = (i * 17) % 239;
    const location = (await create(content.length)).headers.location as string;
    const uploadId = location.split('/').pop()!;
    const ends = [3 * MiB, 3 * MiB + 1, 11 * MiB, 16 * MiB, content.length];
    let offset = 0;
    let last;
    for (const end of ends) {
      last = await patchChunked(location, offset, content.subarray(offset, end));
      offset = end;
      if (end < content.length) {
        expect(last.statusCode, last.body).toBe(204);
        expect(last.headers['upload-offset']).toBe(String(end));
        expect((await head(location)).headers['upload-offset']).toBe(String(end));
      }
    }
    expect(last!.statusCode, last!.body).toBe(200);
    const { videoId } = JSON.parse(last!.body) as UploadResult;
    expect((await tusFiles()).filter((name) => name.startsWith(uploadId))).toEqual([]);
    expect((await storedBytes(t, `videos/${videoId}/original.mov`))!.equals(content)).toBe(true);
  });

  it('resumes from what was kept of a chunk whose connection dropped midway, and ends byte for byte', async () => {
    // In a bucket the whole parts sent before the drop stay (decision 022; s3rver also keeps the cut part,
    // where S3 refuses a body shorter than its Content-Length); on disk every byte written.
    const MiB = 1024 * 1024;
    const mov = readFileSync(mediaFixture('h264Mov'));
    const content = Buffer.alloc(20 * MiB);
    mov.copy(content);
    for (let i = mov.length; i < content.length; i++) content[i] = (i * 7) % 253;
    const location = (await create(content.length)).headers.location as string;
    const dropped = Readable.from(
      (async function* () {
        // 12 of the 16 MiB the request announces, then the body ends: the connection is gone.
        for (let at = 0; at < 12 * MiB; at += MiB) yield content.subarray(at, at + MiB);
      })(),
    );
    const cut = await t.app.inject({
      method: 'PATCH',
      url: location,
      headers: {
        ...TUS,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(16 * MiB),
        cookie: capper.cookie,
      },
      payload: dropped,
    });
    // In a bucket the short chunk is refused (its last part never ends); on disk what arrived is kept as the
    // chunk (a real connection's drop is an error there too, which inject cannot make).
    expect(cut.statusCode).toBe(inBucket() ? 400 : 204);
    const kept = Number((await head(location)).headers['upload-offset']);
    if (inBucket()) {
      expect(kept).toBeGreaterThanOrEqual(8 * MiB);
      expect(kept).toBeLessThanOrEqual(12 * MiB);
    } else expect(kept).toBe(12 * MiB);
    const last = await sendInChunks(location, content, 16 * MiB, kept);
    expect(last.statusCode, last.body).toBe(200);
    const { videoId } = JSON.parse(last.body) as UploadResult;
    expect((await storedBytes(t, `videos/${videoId}/original.mov`))!.equals(content)).toBe(true);
  });

  it('refuses a finished upload that is not a MOV with 415, and keeps nothing of it', async () => {
    const content = readFileSync(mediaFixture('mp4AsMov'));
    const created = await create(content.length);
    const location = created.headers.location as string;
    const uploadId = location.split('/').pop()!;
    const last = await sendInChunks(location, content, 16 * 1024);
    expect(last.statusCode).toBe(415);
    expect(JSON.parse(last.body)).toEqual({
      message: 'Invalid file format. Please upload a supported video format (MOV, WebM, etc.).',
    });
    expect((await tusFiles()).filter((name) => name.startsWith(uploadId))).toEqual([]);
    expect((await head(location)).statusCode).toBe(404);
  });

  it('answers 409 when asked for the video of an unfinished upload', async () => {
    const created = await create(1000);
    const location = created.headers.location as string;
    const asked = await t.app.inject({
      method: 'GET',
      url: `${location}/video`,
      headers: { cookie: capper.cookie },
    });
    expect(asked.statusCode).toBe(409);
  });
});

// An instance killed mid-request can have its last part or `<id>.part` land in the bucket after it died (the
// rest of the body was still in its socket's buffer), when the next instance has already told the client where
// to resume (decision 022). Each case writes such a late object into the bucket straight, as the dead instance
// would have, and the upload still ends byte for byte. The restart test met the first case twice in CI: the
// late part was counted on top of the `.part` holding its first bytes, and the file skipped 2 MiB.
describe.skipIf(!inBucket())('tus in a bucket: a write landing after its instance died', () => {
  const MiB = 1024 * 1024;
  const bucket = () => t.app.storage as unknown as { client: S3Client; bucket: string };

  function source(size: number): Buffer {
    const mov = readFileSync(mediaFixture('h264Mov'));
    const content = Buffer.alloc(size);
    mov.copy(content);
    for (let i = mov.length; i < content.length; i++) content[i] = (i * 13) % 241;
    return content;
  }

  async function lateWrite(
    uploadId: string,
    write: { part: number; bytes: Buffer } | { pending: Buffer; start: number },
  ) {
    const { client, bucket: Bucket } = bucket();
    if ('part' in write) {
      const info = await client.send(new HeadObjectCommand({ Bucket, Key: `${uploadId}.info` }));
      await client.send(
        new UploadPartCommand({
          Bucket,
          Key: uploadId,
          UploadId: info.Metadata!['upload-id'],
          PartNumber: write.part,
          Body: write.bytes,
          ContentLength: write.bytes.length,
        }),
      );
    } else {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: `${uploadId}.part`,
          Body: write.pending,
          ContentLength: write.pending.length,
          Metadata: { 'pickreel-start': String(write.start) },
        }),
      );
    }
  }

  /** Sends what is left from where HEAD says, in chunks below a part, and checks the stored file. */
  async function finishFromHead(location: string, content: Buffer, send = patch) {
    let offset = Number((await head(location)).headers['upload-offset']);
    let last;
    while (offset < content.length) {
      const end = Math.min(offset + 2 * MiB + 7, content.length);
      last = await send(location, offset, content.subarray(offset, end));
      expect(last.statusCode, last.body).toBe(end < content.length ? 204 : 200);
      offset = end;
    }
    const { videoId } = JSON.parse(last!.body) as UploadResult;
    expect((await storedBytes(t, `videos/${videoId}/original.mov`))!.equals(content)).toBe(true);
    expect((await tusFiles()).filter((name) => name.startsWith(location.split('/').pop()!))).toEqual([]);
  }

  // Chunked: tus-js-client in Node.js sends a Buffer's chunks without a Content-Length. The restart test's
  // upload took that path, where the library's own write() left an unmarked `.part`, counted under a late part.
  it.each([
    ['with a Content-Length', patch],
    ['chunked, without a Content-Length', patchChunked],
  ])(
    "a part landing late over the pending part that holds its first bytes: the offset is the part's end (%s)",
    async (_, send) => {
      const content = source(20 * MiB);
      const location = (await create(content.length)).headers.location as string;
      const uploadId = location.split('/').pop()!;
      // The next instance took the client's first 2 MiB again as `<id>.part`...
      expect((await send(location, 0, content.subarray(0, 2 * MiB))).statusCode).toBe(204);
      // ...then the dead one's part 1 (the first 8 MiB) lands.
      await lateWrite(uploadId, { part: 1, bytes: content.subarray(0, 8 * MiB) });
      expect((await head(location)).headers['upload-offset']).toBe(String(8 * MiB));
      // The client, still at 2 MiB, is told where the upload is.
      const stale = await send(location, 2 * MiB, content.subarray(2 * MiB, 4 * MiB));
      expect(stale.statusCode).toBe(409);
      expect(stale.headers['upload-offset']).toBe(String(8 * MiB));
      await finishFromHead(location, content, send);
    },
  );

  it("a pending part landing late at the parts' end counts; one landing behind it does not", async () => {
    const content = source(20 * MiB);
    const location = (await create(content.length)).headers.location as string;
    const uploadId = location.split('/').pop()!;
    expect((await patch(location, 0, content.subarray(0, 2 * MiB))).statusCode).toBe(204);
    // The dead instance's `.part` of the first 6 MiB replaces the 2 MiB one: the same bytes, further.
    await lateWrite(uploadId, { pending: content.subarray(0, 6 * MiB), start: 0 });
    expect((await head(location)).headers['upload-offset']).toBe(String(6 * MiB));
    // The next chunk completes part 1 with those 6 MiB in front.
    expect((await patch(location, 6 * MiB, content.subarray(6 * MiB, 10 * MiB))).statusCode).toBe(204);
    expect((await head(location)).headers['upload-offset']).toBe(String(10 * MiB));
    // A `.part` of the first 4 MiB lands now: it starts before the parts' end and is not counted.
    await lateWrite(uploadId, { pending: content.subarray(0, 4 * MiB), start: 0 });
    expect((await head(location)).headers['upload-offset']).toBe(String(8 * MiB));
    await finishFromHead(location, content);
  });
});

describe('tus: text the database cannot store', () => {
  it('refuses a NUL in the file name or a field at creation, before any byte is sent', async () => {
    const before = (await tusFiles()).length;
    for (const fields of [
      { ...VALID_FIELDS, filename: 'pick\u0000.mov' },
      { ...VALID_FIELDS, title: 'Lakers\u0000', filename: 'pick.mov' },
      { ...VALID_FIELDS, emailInformation: 'Lakers -3.5\u0000', filename: 'pick.mov' },
    ]) {
      const response = await create(1000, fields);
      expect(response.statusCode, response.body).toBe(400);
      expect(JSON.parse(response.body)).toEqual({ message: NUL_CHARACTER_MESSAGE });
    }
    expect((await tusFiles()).length).toBe(before);
  });

  it('reads Upload-Offset as decimal digits only', async () => {
    const location = (await create(100)).headers.location as string;
    for (const offset of ['0x0', ' 0', '0e0', '+0', '0.0']) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: location,
        headers: {
          ...TUS,
          'upload-offset': offset,
          'content-type': 'application/offset+octet-stream',
          cookie: capper.cookie,
        },
        payload: Buffer.alloc(10),
      });
      expect(response.statusCode, offset).toBe(409);
    }
    expect((await patch(location, 0, Buffer.alloc(10))).statusCode).toBe(204);
  });
});

describe('tus: every error is { message } JSON in product words', () => {
  const expectJsonMessage = (
    response: { headers: Record<string, unknown>; body: string },
    message: string,
  ) => {
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(response.body)).toEqual({ message });
  };

  it("answers the library's own refusals as JSON", async () => {
    const noVersion = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { 'upload-length': '10', cookie: capper.cookie },
    });
    expect(noVersion.statusCode).toBe(412);
    expectJsonMessage(noVersion, 'Unsupported tus version.');
    const badLength = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { ...TUS, 'upload-length': 'ten', cookie: capper.cookie },
    });
    expect(badLength.statusCode).toBe(400);
    expectJsonMessage(badLength, 'The upload request has an invalid header.');
    const noLength = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { ...TUS, 'upload-metadata': tusMetadata(VALID_FIELDS), cookie: capper.cookie },
    });
    expect(noLength.statusCode).toBe(400);
    expectJsonMessage(noLength, 'Upload-Length is required.');
    const tooLarge = await create(15 * 1024 ** 3 + 1);
    expectJsonMessage(tooLarge, 'File too large: a video can be at most 15 GB.');
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${'0'.repeat(32)}`,
      headers: { ...TUS, cookie: capper.cookie },
    });
    expect(gone.statusCode).toBe(404);
    expectJsonMessage(gone, 'Upload not found.');
  });

  // A file-system failure of the local store; the bucket's own failures go through the same handler.
  it.skipIf(inBucket())(
    'answers an internal failure with a 500 that names no internals, and logs the details',
    async () => {
      const directory = path.join(t.config.dataDir, 'uploads', 'tus');
      const aside = `${directory}-aside`;
      const before = (await openUploadIds(capper.id)).length;
      renameSync(directory, aside);
      writeFileSync(directory, 'not a folder');
      try {
        const response = await create(1000);
        expect(response.statusCode).toBe(500);
        expectJsonMessage(response, 'Server error. Please try again later.');
        expect(response.body).not.toContain(t.config.dataDir);
      } finally {
        rmSync(directory);
        renameSync(aside, directory);
      }
      expect(t.logs()).toContain('tus request failed');
      expect(t.logs()).toMatch(/"code":"(EEXIST|ENOTDIR)"/);
      // The failed creation does not count against the user's open uploads.
      expect((await openUploadIds(capper.id)).length).toBe(before);
    },
  );
});

describe('tus: a finished upload is never lost to a server failure', () => {
  it('keeps the bytes when its video cannot be created, and a retry finishes it', async () => {
    const content = readFileSync(mediaFixture('h264Mov'));
    const title = 'Fails once: the database is away';
    const created = await create(content.length, { ...VALID_FIELDS, title, filename: 'pick.mov' });
    const location = created.headers.location as string;
    const uploadId = location.split('/').pop()!;
    await t.database.exec(
      "alter table videos add constraint test_fails_once check (title not like 'Fails once%')",
    );
    try {
      const last = await sendInChunks(location, content, 64 * 1024);
      expect(last.statusCode).toBe(500);
      expect(JSON.parse(last.body)).toEqual({ message: 'Server error. Please try again later.' });
      // Every byte is still there.
      expect((await tusBytes(t, uploadId))!.equals(content)).toBe(true);
      const resumed = await head(location);
      expect(resumed.headers['upload-offset']).toBe(String(content.length));
    } finally {
      await t.database.exec('alter table videos drop constraint test_fails_once');
    }
    const retried = await t.app.inject({
      method: 'GET',
      url: `${location}/video`,
      headers: { cookie: capper.cookie },
    });
    expect(retried.statusCode, retried.body).toBe(200);
    const { videoId } = retried.json<UploadResult>();
    expect((await storedBytes(t, `videos/${videoId}/original.mov`))!.equals(content)).toBe(true);
    expect((await tusFiles()).filter((name) => name.startsWith(uploadId))).toEqual([]);
    // Finished: it no longer counts as open.
    expect(await openUploadIds(capper.id)).not.toContain(uploadId);
  });
});

describe('tus: open uploads per user are capped', () => {
  it(`refuses a ${OPEN_UPLOADS_MAX + 1}th unfinished upload until one is cancelled, finished or expired`, async () => {
    const user = await registerUser(t.app, {}, '10.6.1.1');
    const locations: string[] = [];
    for (let i = 0; i < OPEN_UPLOADS_MAX; i++) {
      const response = await create(1000, undefined, user.cookie);
      expect(response.statusCode, response.body).toBe(201);
      locations.push(response.headers.location as string);
    }
    const refused = await create(1000, undefined, user.cookie);
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ message: TOO_MANY_UPLOADS_MESSAGE });
    expect(TOO_MANY_UPLOADS_MESSAGE).toMatch(/Finish one .* or cancel it/);
    // Another user is not affected.
    expect((await create(1000, undefined, other.cookie)).statusCode).toBe(201);

    // Cancelled (tus DELETE): a slot is free again.
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: locations[0]!,
      headers: { ...TUS, cookie: user.cookie },
    });
    expect(cancelled.statusCode).toBe(204);
    expect((await create(1000, undefined, user.cookie)).statusCode).toBe(201);
    expect((await create(1000, undefined, user.cookie)).statusCode).toBe(429);

    // Expired: it stops counting at once, and the sweep removes its record.
    await t.database.db.execute(
      sql`update uploads set expires_at = now() - interval '1 second' where id = ${locations[1]!.split('/').pop()!}`,
    );
    expect((await create(1000, undefined, user.cookie)).statusCode).toBe(201);
    await t.app.sweepUploads();
    expect((await openUploadIds(user.id)).length).toBe(OPEN_UPLOADS_MAX);
  });

  // On disk: the upload's record (<id>.json) can be made older by hand. In a bucket, @tus/s3-store judges an
  // upload's age by its multipart upload's own date, which a test cannot set.
  it.skipIf(inBucket())(
    'the sweep removes the bytes of an upload past its expiry and keeps a fresh one',
    async () => {
      const user = await registerUser(t.app, {}, '10.6.1.4');
      const [old, fresh] = [
        await create(1000, undefined, user.cookie),
        await create(1000, undefined, user.cookie),
      ];
      const [oldId, freshId] = [old, fresh].map((created) =>
        (created.headers.location as string).split('/').pop()!,
      );
      expect(
        (await patch(old.headers.location as string, 0, Buffer.alloc(100), user.cookie)).statusCode,
      ).toBe(204);
      const record = path.join(t.config.dataDir, 'uploads', 'tus', `${oldId}.json`);
      const info = JSON.parse(readFileSync(record, 'utf8')) as { creation_date: string };
      info.creation_date = new Date(Date.now() - 4 * 24 * 60 * 60 * 1000).toISOString();
      writeFileSync(record, JSON.stringify(info));

      await t.app.sweepUploads();
      const files = await tusFiles();
      expect(files.filter((name) => name.startsWith(oldId!))).toEqual([]);
      expect(files.filter((name) => name.startsWith(freshId!))).not.toEqual([]);
    },
  );

  it('refuses more reserved bytes than two of the largest uploads', async () => {
    const user = await registerUser(t.app, {}, '10.6.1.2');
    expect((await create(MAX_UPLOAD_BYTES, undefined, user.cookie)).statusCode).toBe(201);
    expect((await create(MAX_UPLOAD_BYTES - 10, undefined, user.cookie)).statusCode).toBe(201);
    const refused = await create(11, undefined, user.cookie);
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ message: TOO_MANY_BYTES_MESSAGE });
    expect((await create(10, undefined, user.cookie)).statusCode).toBe(201);
    expect(RESERVED_BYTES_MAX).toBe(2 * MAX_UPLOAD_BYTES);
  });

  it('holds under 50 concurrent creates by one user', async () => {
    const user = await registerUser(t.app, {}, '10.6.1.3');
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => create(1024 ** 3, undefined, user.cookie)),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(OPEN_UPLOADS_MAX);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - OPEN_UPLOADS_MAX);
    expect((await openUploadIds(user.id)).length).toBe(OPEN_UPLOADS_MAX);
    const files = await tusFiles();
    const created = responses
      .filter((response) => response.statusCode === 201)
      .map((response) => (response.headers.location as string).split('/').pop()!);
    // On disk the upload's file, in a bucket its record (<id>.info): the multipart upload is no object yet.
    for (const id of created) expect(files.filter((name) => name.startsWith(id))).not.toEqual([]);
  });
});

describe('upload sweep (a stale folder used to stop the server at start)', () => {
  it('removes stale files and folders under uploads/incoming at start, keeps fresh ones, and goes on', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-sweep-'));
    const incoming = path.join(dataDir, 'uploads', 'incoming');
    const staleDir = path.join(incoming, 'stale-folder');
    mkdirSync(path.join(staleDir, 'inner'), { recursive: true });
    writeFileSync(path.join(staleDir, 'inner', 'part'), 'left by a dead request');
    writeFileSync(path.join(incoming, 'stale.part'), 'old');
    writeFileSync(path.join(incoming, 'fresh.part'), 'new');
    const dayAndABitAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    for (const entry of [path.join(staleDir, 'inner'), staleDir, path.join(incoming, 'stale.part')])
      utimesSync(entry, dayAndABitAgo, dayAndABitAgo);
    const started = await createTestApp({ env: { DATA_DIR: dataDir } });
    try {
      await started.app.sweepUploads();
      expect(readdirSync(incoming)).toEqual(['fresh.part']);
      const health = await started.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
    } finally {
      await started.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
