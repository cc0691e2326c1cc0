// POST /api/videos (spec 7), the MOV check and the processing jobs, with media on local disk or in
// a bucket (TEST_MEDIA_STORAGE=s3).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDARD_UPLOAD_MAX_BYTES } from '#common/constants.js';
import type { Video } from '#common/schemas/videos.js';
import { jobs, videos } from '#server/db/schema.js';
import { MEDIA_FAILURES, resolveMediaTools } from '#server/media/ffmpeg.js';
import { versionedMediaUrl } from '#server/media/storage.js';
import { NUL_CHARACTER_MESSAGE } from '#common/schemas/text.js';
import { mediaFixture, type FixtureName } from '../setup/media-fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { incomingLeftovers, storedBytes, storedFile } from '../setup/stored-media.js';
import { postVideo, VALID_FIELDS, type FilePart } from '../setup/upload-requests.js';

const FORMAT_MESSAGE = 'Invalid file format. Please upload a supported video format (MOV, WebM, etc.).';
const TOO_LARGE_MESSAGE =
  'File size too large. Please use the chunked upload option for files larger than 50MB.';

let t: TestApp;
let capper: { cookie: string; id: number };
let other: { cookie: string; id: number };

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, '10.4.0.1');
  other = await registerUser(t.app, {}, '10.4.0.2');
});
afterAll(async () => {
  await t?.close();
});

function upload(fields: Record<string, string>, file?: FilePart, cookie: string | null = capper.cookie) {
  return postVideo(t.app, cookie, fields, file);
}

const fixturePart = (name: FixtureName): FilePart => ({
  name: path.basename(mediaFixture(name)),
  content: readFileSync(mediaFixture(name)),
});

/** Files still waiting in the upload folder (or the bucket's incoming/): a refused upload must leave none. */
const leftovers = () => incomingLeftovers(t);

async function videoCount(): Promise<number> {
  return (await t.database.db.select({ id: videos.id }).from(videos)).length;
}

function probeStreams(file: string): string[] {
  const out = execFileSync(resolveMediaTools().ffprobe, [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name',
    '-of',
    'csv=p=0',
    file,
  ]);
  return out
    .toString()
    .trim()
    .split('\n')
    .map((line) => line.trim());
}

describe('POST /api/videos: who may upload', () => {
  it('answers 401 when signed out, and keeps nothing', async () => {
    const response = await upload(VALID_FIELDS, fixturePart('h264Mov'), null);
    expect(response.statusCode).toBe(401);
    expect(await leftovers()).toEqual([]);
  });
});

describe('POST /api/videos: each fixture through the standard path', () => {
  it('accepts an H.264/AAC MOV, owned by the session user whatever userId says, and makes it playable by stream copy', async () => {
    const response = await upload({ ...VALID_FIELDS, userId: String(other.id) }, fixturePart('h264Mov'));
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<Video>();
    expect(created.id).toBeGreaterThan(0);
    expect(created.userId).toBe(capper.id);
    expect(created.isOwner).toBe(true);
    expect(created.transcodingStatus).toBe('pending');
    expect(created.emailInformation).toBe(VALID_FIELDS.emailInformation);
    expect(created.price).toBe(25);
    expect(await leftovers()).toEqual([]);

    expect(await t.app.mediaJobs.runUntilIdle()).toBe(1);
    const ready = (
      await t.app.inject({
        method: 'GET',
        url: `/api/videos/${created.id}`,
        headers: { cookie: capper.cookie },
      })
    ).json<Video>();
    expect(ready).toMatchObject({
      transcodingStatus: 'ready',
      transcodingProgress: 100,
      transcodingError: null,
      isTranscoded: true,
      duration: 2,
      hlsUrl: `/media/videos/${created.id}/hls/index.m3u8`,
    });
    // The MP4 and the thumbnail are named with their file's version, so browsers keep them.
    for (const [field, key] of [
      ['videoUrl', `videos/${created.id}/video.mp4`],
      ['thumbnailUrl', `videos/${created.id}/thumb.jpg`],
    ] as const) {
      expect(ready[field]).toBe(versionedMediaUrl(key, (await t.app.storage.stat(key))!));
      expect(ready[field]).toMatch(/\?v=[0-9a-z]+-[0-9a-z]+$/);
    }
    expect(ready.availableFormats).toEqual(expect.arrayContaining(['mp4', 'hls']));

    const media = `videos/${created.id}`;
    const mp4File = await storedFile(t, `${media}/video.mp4`);
    expect(probeStreams(mp4File)).toEqual(['h264', 'aac']);
    // The same H.264 bitstream, not a re-encode: the copy keeps the source's packets byte for byte.
    const packetsOf = (file: string) =>
      execFileSync(resolveMediaTools().ffprobe, [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'packet=size',
        '-of',
        'csv=p=0',
        file,
      ]).toString();
    expect(packetsOf(mp4File)).toBe(packetsOf(mediaFixture('h264Mov')));
    // faststart: the index (moov) comes before the media data (mdat).
    const mp4 = (await storedBytes(t, `${media}/video.mp4`))!;
    expect(mp4.indexOf('moov')).toBeLessThan(mp4.indexOf('mdat'));
    expect((await storedBytes(t, `${media}/hls/index.m3u8`))!.toString('utf8')).toContain('#EXT-X-ENDLIST');
    expect((await storedBytes(t, `${media}/thumb.jpg`))!.subarray(0, 3)).toEqual(
      Buffer.from([0xff, 0xd8, 0xff]),
    );
    expect(await t.app.storage.stat(`${media}/original.mov`)).not.toBeNull();

    // Ready videos are in the public catalog at once (the cache was cleared).
    const catalog = (await t.app.inject({ method: 'GET', url: '/api/videos' })).json<Video[]>();
    expect(catalog.map((v) => v.id)).toContain(created.id);
  });

  it('accepts a non-H.264 MOV and re-encodes it to H.264/AAC', async () => {
    const response = await upload(VALID_FIELDS, fixturePart('mpeg4Mov'));
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json<Video>();
    await t.app.mediaJobs.runUntilIdle();
    const [row] = await t.database.db.select().from(videos).where(eq(videos.id, id));
    expect(row).toMatchObject({ transcodingStatus: 'ready', isTranscoded: true, duration: 2 });
    expect(probeStreams(await storedFile(t, `videos/${id}/video.mp4`))).toEqual(['h264', 'aac']);
  });

  for (const [fixture, label] of [
    ['mp4AsMov', 'an MP4 renamed .mov'],
    ['pngAsMov', 'a PNG renamed .mov'],
    ['emptyMov', 'a zero-byte file'],
  ] as const) {
    it(`refuses ${label} with 415 and keeps nothing of it`, async () => {
      const before = await videoCount();
      const response = await upload(VALID_FIELDS, fixturePart(fixture));
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({ message: FORMAT_MESSAGE });
      expect(await videoCount()).toBe(before);
      expect(await leftovers()).toEqual([]);
    });
  }

  it('refuses a text file whatever type it claims', async () => {
    const response = await upload(VALID_FIELDS, {
      name: 'notes.mov',
      content: Buffer.from('just some text, honestly'),
      type: 'video/quicktime',
    });
    expect(response.statusCode).toBe(415);
    expect(await leftovers()).toEqual([]);
  });
});

describe('POST /api/videos: size limit of the standard path', () => {
  const movOfSize = (size: number) => {
    const content = Buffer.alloc(size);
    content.writeUInt32BE(20, 0);
    content.write('ftypqt  ', 4, 'latin1');
    return content;
  };

  it('answers 413 to 50 MB + 1 byte and leaves no file behind', async () => {
    const before = await videoCount();
    const response = await upload(VALID_FIELDS, {
      name: 'big.mov',
      content: movOfSize(STANDARD_UPLOAD_MAX_BYTES + 1),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: TOO_LARGE_MESSAGE });
    expect(await videoCount()).toBe(before);
    expect(await leftovers()).toEqual([]);
  });

  it('takes exactly 50 MB', async () => {
    const response = await upload(VALID_FIELDS, {
      name: 'edge.mov',
      content: movOfSize(STANDARD_UPLOAD_MAX_BYTES),
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json<Video>();
    expect((await t.app.storage.stat(`videos/${id}/original.mov`))?.size).toBe(STANDARD_UPLOAD_MAX_BYTES);
  });
});

describe('POST /api/videos: the form fields (spec 5)', () => {
  it.each([
    [{ title: '' }, 'Title is required'],
    [{ description: '   ' }, 'Description is required'],
    [{ price: '0.5' }, 'Price must be at least $0.99'],
    [{ category: 'Curling' }, 'Please choose a category from the list'],
  ])('answers 400 with the message for %j', async (change, message) => {
    const response = await upload({ ...VALID_FIELDS, ...change }, fixturePart('h264Mov'));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
    expect(await leftovers()).toEqual([]);
  });

  it('needs a file or a link', async () => {
    const response = await upload(VALID_FIELDS);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Either a video file or external URL is required' });
  });

  it('ignores a file sent under another field name', async () => {
    const response = await upload(VALID_FIELDS, { ...fixturePart('h264Mov'), field: 'attachment' });
    expect(response.statusCode).toBe(400);
    expect(await leftovers()).toEqual([]);
  });
});

describe('POST /api/videos: external links', () => {
  const external = (url: string) => ({
    ...VALID_FIELDS,
    isExternalVideo: 'true',
    externalVideoUrl: url,
    duration: '',
  });

  it('takes a YouTube link: nothing fetched, ready at once, in the catalog', async () => {
    const response = await upload(external('https://www.youtube.com/watch?v=dQw4w9WgXcQ'));
    expect(response.statusCode, response.body).toBe(201);
    const video = response.json<Video>();
    expect(video).toMatchObject({
      isExternalVideo: true,
      externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      transcodingStatus: 'ready',
      videoUrl: null,
      userId: capper.id,
    });
    const jobsOfVideo = await t.database.db
      .select()
      .from(jobs)
      .where(sql`(${jobs.payload}->>'videoId')::int = ${video.id}`);
    expect(jobsOfVideo).toEqual([]);
    const catalog = (await t.app.inject({ method: 'GET', url: '/api/videos' })).json<Video[]>();
    expect(catalog.map((v) => v.id)).toContain(video.id);
  });

  it('refuses a malformed YouTube link with the accepted formats, and a non-http link', async () => {
    const bad = await upload(external('https://youtube.com/watch?v=short'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(
      /^Invalid YouTube URL\. Accepted formats: YouTube: youtube\.com\/watch\?v=ID/,
    );
    const ftp = await upload(external('ftp://example.com/video.mov'));
    expect(ftp.statusCode).toBe(400);
    expect(ftp.json()).toEqual({ message: 'Please enter a valid URL' });
  });

  it('refuses a file and a link together', async () => {
    const response = await upload(external('https://youtu.be/dQw4w9WgXcQ'), fixturePart('h264Mov'));
    expect(response.statusCode).toBe(400);
    expect(await leftovers()).toEqual([]);
  });
});

describe('failed processing and retry', () => {
  it('says why a broken MOV failed, and lets the owner (only) retry it', async () => {
    const broken = Buffer.concat([
      Buffer.from([0, 0, 0, 20]),
      Buffer.from('ftypqt  \0\0\0\0qt  ', 'latin1'),
      Buffer.alloc(4096, 7),
    ]);
    const response = await upload(VALID_FIELDS, { name: 'broken.mov', content: broken });
    expect(response.statusCode).toBe(201);
    const { id } = response.json<Video>();
    await t.app.mediaJobs.runUntilIdle();

    const failed = (
      await t.app.inject({ method: 'GET', url: `/api/videos/${id}`, headers: { cookie: capper.cookie } })
    ).json<Video>();
    expect(failed.transcodingStatus).toBe('failed');
    // Product words for the owner; ffprobe's own words stay in the job and the log.
    expect(failed.transcodingError).toBe(MEDIA_FAILURES.unreadable);
    const [failedJob] = await t.database.db
      .select()
      .from(jobs)
      .where(sql`(${jobs.payload}->>'videoId')::int = ${id}`);
    expect(failedJob?.lastError).toContain('ffprobe exited with');
    // Not in the public catalog, and not visible to others.
    expect((await t.app.inject({ method: 'GET', url: `/api/videos/${id}` })).statusCode).toBe(404);

    const byOther = await t.app.inject({
      method: 'POST',
      url: `/api/videos/${id}/retry`,
      headers: { cookie: other.cookie },
    });
    expect(byOther.statusCode).toBe(404);
    const signedOut = await t.app.inject({ method: 'POST', url: `/api/videos/${id}/retry` });
    expect(signedOut.statusCode).toBe(401);

    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/videos/${id}/retry`,
      headers: { cookie: capper.cookie },
    });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json<Video>()).toMatchObject({ transcodingStatus: 'pending', transcodingError: null });
    const twice = await t.app.inject({
      method: 'POST',
      url: `/api/videos/${id}/retry`,
      headers: { cookie: capper.cookie },
    });
    expect(twice.statusCode).toBe(409);

    expect(await t.app.mediaJobs.runUntilIdle()).toBe(1);
    const [row] = await t.database.db.select().from(videos).where(eq(videos.id, id));
    expect(row?.transcodingStatus).toBe('failed');
    const jobRows = await t.database.db
      .select()
      .from(jobs)
      .where(sql`(${jobs.payload}->>'videoId')::int = ${id}`);
    expect(jobRows.map((job) => job.status)).toEqual(['failed', 'failed']);
  });
});

describe('a server-side processing failure (product words, details in the log)', () => {
  it('shows the owner a sentence, never the Node or ffmpeg text, and keeps that text in the job', async () => {
    await t.app.mediaJobs.runUntilIdle(); // the runner's start-up (scratch folder) is done
    const response = await upload(VALID_FIELDS, fixturePart('h264Mov'));
    expect(response.statusCode).toBe(201);
    const { id } = response.json<Video>();
    // The scratch folder cannot be made: a disk problem, not the file's.
    const work = path.join(t.config.dataDir, 'work');
    rmSync(work, { recursive: true, force: true });
    writeFileSync(work, 'not a folder');
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        await t.database.db
          .update(jobs)
          .set({ runAt: new Date(Date.now() - 1000) })
          .where(sql`(${jobs.payload}->>'videoId')::int = ${id}`);
        await t.app.mediaJobs.runUntilIdle();
      }
    } finally {
      rmSync(work, { force: true });
    }
    const failed = (
      await t.app.inject({ method: 'GET', url: `/api/videos/${id}`, headers: { cookie: capper.cookie } })
    ).json<Video>();
    expect(failed.transcodingStatus).toBe('failed');
    expect(failed.transcodingError).toBe(MEDIA_FAILURES.server);
    const [job] = await t.database.db
      .select()
      .from(jobs)
      .where(sql`(${jobs.payload}->>'videoId')::int = ${id}`);
    expect(job?.lastError).toMatch(/ENOTDIR|EEXIST/);
    expect(t.logs()).toContain('media job failed');
  });
});

describe('the media job queue: a job due long ago', () => {
  it('takes a job due 60 days ago: its wait in milliseconds is past a 32-bit integer', async () => {
    const response = await upload(VALID_FIELDS, fixturePart('h264Mov'));
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json<Video>();
    await t.database.db
      .update(jobs)
      .set({ runAt: sql`now() - interval '60 days'` })
      .where(sql`(${jobs.payload}->>'videoId')::int = ${id}`);
    // Not 'integer out of range': an int4 of milliseconds ends at ~24.8 days.
    expect(await t.app.mediaJobs.runUntilIdle()).toBe(1);
    const ready = (
      await t.app.inject({ method: 'GET', url: `/api/videos/${id}`, headers: { cookie: capper.cookie } })
    ).json<Video>();
    expect(ready.transcodingStatus).toBe('ready');
    // The log's queued figure is a number of milliseconds, not a string or a wrapped value.
    const done = t
      .logs()
      .split('\n')
      .filter((line) => line.includes('"media job done"'))
      .map((line) => JSON.parse(line) as { msg?: string; videoId?: number; ms?: { queued?: unknown } })
      .find((entry) => entry.msg === 'media job done' && entry.videoId === id);
    expect(typeof done?.ms?.queued).toBe('number');
    expect(done?.ms?.queued).toBeGreaterThanOrEqual(60 * 24 * 3600 * 1000);
  });
});

describe('POST /api/videos: text the database cannot store', () => {
  it.each(['title', 'description', 'emailInformation'] as const)(
    'answers 400 to a NUL in %s, and keeps nothing',
    async (field) => {
      const before = await videoCount();
      const response = await upload(
        { ...VALID_FIELDS, [field]: `Lakers \u0000 -3.5` },
        fixturePart('h264Mov'),
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ message: NUL_CHARACTER_MESSAGE });
      expect(await videoCount()).toBe(before);
      expect(await leftovers()).toEqual([]);
    },
  );

  it('answers 400 to a NUL in the file name, and keeps nothing', async () => {
    const before = await videoCount();
    const response = await upload(VALID_FIELDS, { ...fixturePart('h264Mov'), name: 'pick\u0000.mov' });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ message: NUL_CHARACTER_MESSAGE });
    expect(await videoCount()).toBe(before);
    expect(await leftovers()).toEqual([]);
  });
});
