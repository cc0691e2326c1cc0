// A link video's picture is what follows from the link alone (YouTube's, from its id), set when the
// link is saved and, for links saved before, by migration 0008; a duration nobody gave stays unknown.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inArray, sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Video } from '#common/schemas/videos.js';
import { detectPlatform, linkThumbnailUrl } from '#common/video-links.js';
import { migrationsFolder } from '#server/db/client.js';
import { videos } from '#server/db/schema.js';
import { createVideo } from '../setup/fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
let capper: { cookie: string; id: number };

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, '10.12.0.1');
});
afterAll(async () => {
  await t?.close();
});

const YOUTUBE_ID = 'dQw4w9WgXcQ';
const YOUTUBE_THUMBNAIL = `https://i.ytimg.com/vi/${YOUTUBE_ID}/hqdefault.jpg`;

/** Every YouTube form the upload form accepts (spec 5: watch, embed, shorts, youtu.be; and live). */
const YOUTUBE_FORMS = [
  `https://www.youtube.com/watch?v=${YOUTUBE_ID}`,
  `https://youtube.com/watch?feature=share&v=${YOUTUBE_ID}&t=42s`,
  `https://m.youtube.com/watch?v=${YOUTUBE_ID}#comments`,
  `https://youtu.be/${YOUTUBE_ID}?si=abcdef`,
  `https://www.youtube.com/shorts/${YOUTUBE_ID}`,
  `https://www.youtube.com/embed/${YOUTUBE_ID}`,
  `https://www.youtube.com/live/${YOUTUBE_ID}?feature=shared`,
  `https://www.youtube-nocookie.com/embed/${YOUTUBE_ID}`,
  `HTTPS://WWW.YouTube.com/watch?v=${YOUTUBE_ID}`,
];

/** Links whose picture cannot be known without asking their site. */
const OTHER_LINKS = [
  'https://vimeo.com/76979871',
  'https://www.instagram.com/reel/C1a2b3c4d5e/',
  'https://x.com/capper/status/1790000000000000000',
  'https://www.tiktok.com/@capper/video/7300000000000000000',
  'https://rumble.com/v4abcde-picks.html',
  'https://www.bitchute.com/video/abcDEF123/',
  'https://cdn.example.com/picks/clip.mp4',
  `https://example.com/watch?v=${YOUTUBE_ID}`,
];

function uploadLink(url: string, duration = '') {
  return postVideo(t.app, capper.cookie, {
    ...VALID_FIELDS,
    duration,
    isExternalVideo: 'true',
    externalVideoUrl: url,
  });
}

describe('a link video is saved with the picture its link names', () => {
  it.each(YOUTUBE_FORMS)("%s gets YouTube's thumbnail, in every answer", async (url) => {
    const response = await uploadLink(url);
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<Video>();
    expect(created.thumbnailUrl).toBe(YOUTUBE_THUMBNAIL);

    const page = await t.app.inject({ method: 'GET', url: `/api/videos/${created.id}` });
    expect(page.json<Video>().thumbnailUrl).toBe(YOUTUBE_THUMBNAIL);
    const catalog = (await t.app.inject({ method: 'GET', url: '/api/videos' })).json<Video[]>();
    expect(catalog.find((video) => video.id === created.id)?.thumbnailUrl).toBe(YOUTUBE_THUMBNAIL);
  });

  it.each(OTHER_LINKS)('%s gets no picture: nothing is fetched to find one', async (url) => {
    const response = await uploadLink(url);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<Video>().thumbnailUrl).toBeNull();
  });

  it('keeps the duration unknown when none was given, and the one given otherwise', async () => {
    const unknown = await uploadLink(`https://youtu.be/${YOUTUBE_ID}`);
    expect(unknown.json<Video>().duration).toBeNull();
    const given = await uploadLink(`https://youtu.be/${YOUTUBE_ID}`, '95');
    expect(given.json<Video>().duration).toBe(95);
  });
});

describe('migration 0008 gives links saved before it the same picture', () => {
  const migrationSql = () => readFileSync(path.join(migrationsFolder, '0008_link_thumbnails.sql'), 'utf8');

  it('fills YouTube links without a picture exactly as a new upload would, and touches nothing else', async () => {
    const links = [
      ...YOUTUBE_FORMS,
      ...OTHER_LINKS,
      `https://youtu.be/a-b_c-D_e-F/`,
      `https://www.youtube.com/watch/?v=${YOUTUBE_ID}`,
      `https://www.youtube.com/watch?v=AAAAAAAAAAA&v=${YOUTUBE_ID}`,
      `https://www.youtube.com.:443/shorts/${YOUTUBE_ID}/`,
      'https://www.youtube.com/@capper',
    ];
    const saved = [];
    for (const url of links) {
      saved.push(
        await createVideo(t, capper.id, {
          isExternalVideo: true,
          externalVideoUrl: url,
          videoUrl: null,
          thumbnailUrl: null,
        }),
      );
    }
    const ownPicture = await createVideo(t, capper.id, {
      isExternalVideo: true,
      externalVideoUrl: `https://youtu.be/${YOUTUBE_ID}`,
      videoUrl: null,
      thumbnailUrl: 'https://example.com/own.jpg',
    });
    const file = await createVideo(t, capper.id, { thumbnailUrl: null });

    await t.database.db.execute(sql.raw(migrationSql()));

    const rows = await t.database.db
      .select({ id: videos.id, url: videos.externalVideoUrl, thumbnailUrl: videos.thumbnailUrl })
      .from(videos)
      .where(inArray(videos.id, [...saved.map((video) => video.id), ownPicture.id, file.id]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const video of saved) {
      const url = video.externalVideoUrl!;
      expect(byId.get(video.id)?.thumbnailUrl, url).toBe(linkThumbnailUrl(detectPlatform(url)));
    }
    // The cases above are not all alike: some get a picture, some do not.
    expect(saved.filter((video) => byId.get(video.id)?.thumbnailUrl).length).toBe(YOUTUBE_FORMS.length + 4);
    expect(byId.get(ownPicture.id)?.thumbnailUrl).toBe('https://example.com/own.jpg');
    expect(byId.get(file.id)?.thumbnailUrl).toBeNull();
  });
});
