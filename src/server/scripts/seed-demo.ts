// `npm run seed:demo [-- --videos N | --total N | --url URL]`: the demo content (4 cappers, 2 bettors, preview
// clips, purchases, the cappers' graded history, market picks) for people trying PickReel, put in through the
// app's own API (demo/demo-seed.ts), the same whichever way it runs. Where the server holds the
// embedded database, through that server; otherwise through the app started in this process on a free
// port, with the same settings as `npm start` (DATA_DIR / DATABASE_URL). With --videos N, N more videos in
// bulk for benchmarks (--total N: as many as make N in all), straight into the database: the server must
// be stopped for those.
import { copyFile, link, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { sql } from '#server/db/drizzle.js';
import { CATEGORIES } from '#common/constants.js';
import { buildApp, loggerOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { openConfiguredDatabase, type Database, type Db } from '../db/client.js';
import { findUserByUsername } from '../features/auth/index.js';
import {
  DEMO_CAPPERS,
  DEMO_PASSWORD,
  DEMO_USERNAMES,
  EXTERNAL_LINKS,
  MATCHUPS,
  localUrl,
  postDemoMarketPicks,
  readDemoToken,
  seedDemo,
} from '../demo/index.js';
import { rowsOf } from '../db/rows.js';
import { safeErrorMessage } from '../lib/log-safety.js';
import { mediaTools, run, useMediaTools } from '../media/ffmpeg.js';
import { LocalMediaStorage, mediaVersion, videoMediaKeys } from '../media/storage.js';

async function unprocessed(db: Db): Promise<number> {
  return rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from videos where transcoding_status in ('pending', 'processing')`,
    ),
  )[0]!.n;
}

async function countVideos(db: Db): Promise<number> {
  return rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from videos`))[0]!.n;
}

/** Base thumbnails for bulk file videos: a few real JPEGs, hard-linked under each video's own key. */
async function makeBaseThumbnails(dir: string): Promise<string[]> {
  const { ffmpeg } = mediaTools();
  const files: string[] = [];
  for (let k = 0; k < 6; k++) {
    const file = path.join(dir, `base-${k}.jpg`);
    // One 640x360 frame, as an upload's thumbnail is (src/server/media/process-video.ts).
    await run(ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=640x360:rate=1,hue=h=${k * 60}`,
      '-frames:v',
      '1',
      '-q:v',
      '4',
      file,
    ]);
    files.push(file);
  }
  return files;
}

/**
 * Bulk videos for benchmarks (100,000 in well under a minute): INSERT ... SELECT generate_series, 5,000
 * rows a statement. Like the demo catalog: the demo cappers in turn, every category, one in three an
 * external link (YouTube ones with YouTube's thumbnail), the rest uploaded files whose thumbnail exists
 * under DATA_DIR/media (hard links to a few real JPEGs, so 100,000 of them take no space).
 */
async function seedBulk(db: Db, count: number, mediaRoot: string): Promise<void> {
  const cappers = await Promise.all(DEMO_CAPPERS.map((c) => findUserByUsername(db, c.username)));
  const picks = CATEGORIES.flatMap((category) =>
    (MATCHUPS[category] ?? [category]).map((matchup) => ({ category, matchup })),
  );
  const textArray = (items: readonly string[]) =>
    sql.raw(`array[${items.map((item) => `'${item.replace(/'/g, "''")}'`).join(',')}]::text[]`);
  const intArray = (items: readonly number[]) => sql.raw(`array[${items.join(',')}]::int[]`);
  const capperIds = intArray(cappers.map((c) => c!.id));
  const categories = textArray(picks.map((p) => p.category));
  const matchups = textArray(picks.map((p) => p.matchup));
  const links = textArray(EXTERNAL_LINKS);
  const linkThumbs = sql.raw(
    `array[${EXTERNAL_LINKS.map((link) => {
      const id = /(?:v=|youtu\.be\/|shorts\/)([\w-]{11})/.exec(link)?.[1];
      return id ? `'https://i.ytimg.com/vi/${id}/hqdefault.jpg'` : 'null';
    }).join(',')}]::text[]`,
  );
  const n = (value: number) => sql.raw(String(value));
  const storage = new LocalMediaStorage(mediaRoot);
  const work = await mkdtemp(path.join(os.tmpdir(), 'pickreel-seed-'));
  try {
    const bases = await makeBaseThumbnails(work);
    // A hard link is the same file: each thumbnail's URL carries its base's version, as an upload's does.
    const versions = textArray(
      await Promise.all(
        bases.map(async (file) => {
          const info = await stat(file);
          return mediaVersion({ size: info.size, modified: info.mtime });
        }),
      ),
    );
    const batch = 5000;
    for (let done = 0; done < count; done += batch) {
      const size = Math.min(batch, count - done);
      // g = 1 is the newest. Ids come from the sequence first, so the media URLs can carry them.
      const result = await db.execute(sql`
        insert into videos (id, user_id, title, description, email_information, price_cents, category,
                            thumbnail_url, video_url, hls_url, external_video_url, is_external_video,
                            transcoding_status, transcoding_progress, is_transcoded, available_formats,
                            duration, views, share_count, created_at)
        select s.id, (${capperIds})[1 + s.g % ${n(cappers.length)}],
               (${categories})[1 + s.g % ${n(picks.length)}] || ': ' || (${matchups})[1 + s.g % ${n(picks.length)}] || ' #' || s.g,
               (${matchups})[1 + s.g % ${n(picks.length)}] || '. Line movement, injuries and the number we like, explained in under two minutes.',
               'Selection ' || s.g || ': Home -3.5 (2 units)',
               (array[500, 999, 1400, 1999, 2500, 4900, 9900])[1 + s.g % 7],
               (${categories})[1 + s.g % ${n(picks.length)}],
               case when s.external then (${linkThumbs})[1 + s.g / 3 % ${n(EXTERNAL_LINKS.length)}]
                    else '/media/videos/' || s.id || '/thumb.jpg?v=' || (${versions})[1 + s.id % ${n(bases.length)}] end,
               case when s.external then null else '/media/videos/' || s.id || '/video.mp4' end,
               case when s.external then null else '/media/videos/' || s.id || '/hls/index.m3u8' end,
               case when s.external then (${links})[1 + s.g / 3 % ${n(EXTERNAL_LINKS.length)}] end,
               s.external, 'ready', 100, true,
               case when s.external then '{}'::text[] else '{mp4,hls}'::text[] end,
               case when s.external then null else 30 + s.g % 200 end,
               (s.g * 37) % 1000, s.g % 7, now() - (s.g || ' minutes')::interval
        from (select nextval('videos_id_seq')::int as id, g, g % 3 = 0 as external
              from generate_series(${n(done + 1)}, ${n(done + size)}) as g) as s
        returning id, is_external_video`);
      for (const row of rowsOf<{ id: number; is_external_video: boolean }>(result)) {
        if (row.is_external_video) continue;
        const target = storage.pathOf(videoMediaKeys(row.id).thumbnail);
        await mkdir(path.dirname(target), { recursive: true });
        await link(bases[row.id % bases.length]!, target).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') await copyFile(bases[row.id % bases.length]!, target);
        });
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  console.log(`Added ${count} bulk videos.`);
}

/** The script's own app logs only what goes wrong (every media job's line would bury the seed's). */
function quietLevel(level: string): string {
  return ['debug', 'trace', 'fatal', 'error', 'silent'].includes(level) ? level : 'warn';
}

/** The demo content through the app run here, on a free loopback port, with its own media job runner. */
async function seedInProcess(config: Config, database: Database): Promise<void> {
  const app = await buildApp({
    // Serving and running the jobs both, whatever ROLE the environment gives the site's instances;
    // with the demo's market stand-in when no market is set (SEED_DEMO's), so the demo cappers post market picks.
    config: { ...config, role: 'all', seedDemo: true },
    database,
    logger: loggerOptions(quietLevel(config.logLevel)),
    clientDir: null,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    app.mediaJobs.start();
    const { port } = app.server.address() as AddressInfo;
    await seedDemo(localUrl('127.0.0.1', port), {
      log: (line) => console.log(line),
      token: readDemoToken(config.dataDir),
    });
    await postDemoMarketPicks(localUrl('127.0.0.1', port), { log: (line) => console.log(line) });
    // The market picks' clips are processed before this app closes, as the running server would.
    for (let waited = 0; waited < 180_000 && (await unprocessed(database.db)) > 0; waited += 1000)
      await sleep(1000);
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { videos: { type: 'string' }, total: { type: 'string' }, url: { type: 'string' } },
  });
  const wanted = (name: 'videos' | 'total') => {
    const value = values[name] ? Number(values[name]) : 0;
    if (!Number.isInteger(value) || value < 0 || value > 1_000_000)
      throw new Error(`--${name} must be a whole number up to 1000000`);
    return value;
  };
  const more = wanted('videos');
  const total = wanted('total');
  const throughServer = async (url: string) => {
    if (more || total)
      throw new Error('bulk videos (--videos, --total) go straight into the database: stop the server first');
    console.log(`Seeding through the PickReel at ${url}.`);
    // The graded history asks for the server's demo token, which a seed on its machine reads from DATA_DIR.
    await seedDemo(url, { log: (line) => console.log(line), token: readDemoToken(loadConfig().dataDir) });
    // Market picks when that server has a market (SEED_DEMO's stand-in, or a provider).
    await postDemoMarketPicks(url, { log: (line) => console.log(line) });
  };
  if (values.url) return throughServer(values.url);

  const config = loadConfig();
  useMediaTools(config.mediaTools);
  let database: Database;
  try {
    database = await openConfiguredDatabase(config);
  } catch (error) {
    // The embedded database is the running server's alone: the demo goes in through that server instead.
    if (!(error instanceof Error && /in use by another/.test(error.message))) throw error;
    return throughServer(localUrl(config.host, config.port)).catch((cause: unknown) => {
      throw new Error(
        `${error.message} And it could not be seeded through ${localUrl(config.host, config.port)} (${safeErrorMessage(cause)}); ` +
          'if the server listens elsewhere, pass --url http://host:port.',
      );
    });
  }
  try {
    await database.migrate();
    // The same seed as through a running server, graded history included.
    await seedInProcess(config, database);
    // --total N: bulk videos until the catalog holds N (benchmarks want exactly 1,000 or 100,000).
    const bulk = Math.max(more, total - (await countVideos(database.db)));
    if (bulk) await seedBulk(database.db, bulk, path.join(config.dataDir, 'media'));
    console.log(`The catalog holds ${await countVideos(database.db)} videos.`);
    // After a bulk load, as PostgreSQL's documentation advises: statistics for the planner, and the
    // visibility map that lets a search answer from the catalog's indexes alone (docs/decisions/012).
    await database.exec('vacuum analyze');
    console.log(`Demo accounts: ${DEMO_USERNAMES.join(', ')} (password: ${DEMO_PASSWORD})`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error('seed:demo failed:', safeErrorMessage(error));
  process.exit(1);
});
