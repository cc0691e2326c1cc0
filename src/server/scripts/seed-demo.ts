// `npm run seed:demo [-- --videos N | --total N]`: a realistic demo catalog (cappers, bettors, 30+ videos
// across the categories, some external links, some purchases) for people trying PickReel, and, with
// --videos N, N more videos in bulk for benchmarks (--total N: as many as make N in all). Uses the same settings as `npm start` (DATA_DIR / DATABASE_URL).
import { copyFile, link, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { CATEGORIES } from '../../common/constants.js';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase, type Db } from '../db/client.js';
import { purchases, sales, videos } from '../db/schema.js';
import { hashPassword } from '../features/auth/passwords.js';
import { findUserByUsername, insertUser } from '../features/auth/users-repository.js';
import { rowsOf } from '../features/videos/videos-repository.js';
import { safeErrorMessage } from '../lib/log-safety.js';
import { mediaTools, run } from '../media/ffmpeg.js';
import { LocalMediaStorage, mediaVersion, videoMediaKeys } from '../media/storage.js';

export const DEMO_PASSWORD = 'demo-password';

const CAPPERS = [
  { username: 'sharpshooter', displayName: 'Sharp Shooter', bio: 'Former oddsmaker. NBA and college hoops.' },
  { username: 'parlayqueen', displayName: 'Parlay Queen', bio: 'Three-leg parlays, every day.' },
  { username: 'lockcity', displayName: 'Lock City', bio: 'NFL sides and totals. Bankroll first.' },
  { username: 'edgehunter', displayName: 'Edge Hunter', bio: 'Player props and soccer unders.' },
];
const BETTORS = ['bettor_bob', 'bettor_amy'];

const MATCHUPS: Record<string, string[]> = {
  NBA: ['Lakers vs Celtics', 'Nuggets vs Suns', 'Knicks vs Heat', 'Warriors vs Mavericks'],
  NFL: ['Chiefs vs Bills', 'Eagles vs Cowboys', '49ers vs Packers', 'Ravens vs Bengals'],
  MLB: ['Yankees vs Red Sox', 'Dodgers vs Padres'],
  NHL: ['Rangers vs Bruins', 'Oilers vs Avalanche'],
  'College Basketball': ['Duke vs North Carolina', 'Kansas vs Kentucky'],
  'College Football': ['Alabama vs Georgia', 'Ohio State vs Michigan'],
  Soccer: ['Arsenal vs Chelsea', 'Real Madrid vs Barcelona'],
  'UFC/MMA': ['Main event: Pereira vs Ankalaev'],
  Boxing: ['Heavyweight title fight'],
  Golf: ['The Masters, round 1 matchups'],
  Tennis: ['US Open quarter-finals'],
  'Horse Racing': ['Kentucky Derby exacta'],
  NASCAR: ['Daytona 500 top-10 finishes'],
  'Formula 1': ['Monaco Grand Prix podium'],
  'Fantasy Sports': ['DFS main slate core plays'],
  'Player Props': ['Jokic points + rebounds', 'Mahomes passing yards'],
  Parlays: ['Sunday three-leg parlay', 'Friday night hoops parlay'],
  'Daily Picks': ['Card of the day: 4 plays', 'Late-night value plays'],
  General: ['Weekend betting guide'],
};

const EXTERNAL_LINKS = [
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'https://youtu.be/9bZkp7q19f0',
  'https://vimeo.com/76979871',
  'https://www.youtube.com/shorts/aqz-KE-bpKQ',
];

function pick<T>(items: readonly T[], i: number): T {
  return items[i % items.length]!;
}

async function ensureUser(
  db: Db,
  username: string,
  passwordHash: string,
  extra: Record<string, string> = {},
) {
  const existing = await findUserByUsername(db, username);
  if (existing) return existing;
  const created = await insertUser(db, {
    username,
    passwordHash,
    email: `${username}@example.com`,
    ...extra,
  });
  return created ?? (await findUserByUsername(db, username))!;
}

async function countVideos(db: Db): Promise<number> {
  return rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from videos`))[0]!.n;
}

async function seedCatalog(db: Db): Promise<void> {
  const n = await countVideos(db);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const cappers = [];
  for (const capper of CAPPERS) cappers.push(await ensureUser(db, capper.username, passwordHash, capper));
  const bettors = [];
  for (const name of BETTORS) bettors.push(await ensureUser(db, name, passwordHash));
  if (n > 0) {
    console.log(`The catalog already has ${n} videos: demo videos not added again.`);
    return;
  }

  const rows: (typeof videos.$inferInsert)[] = [];
  let i = 0;
  for (const category of CATEGORIES) {
    for (const matchup of MATCHUPS[category] ?? []) {
      const capper = pick(cappers, i);
      const external = i % 3 === 0;
      const price = pick([5, 9.99, 14, 19.99, 25, 49, 99], i);
      rows.push({
        userId: capper.id,
        title: `${category}: ${matchup}`,
        description: `${matchup}. Line movement, injuries and the number we like, explained in under two minutes.`,
        emailInformation: `${matchup}: ${pick(['Home -3.5', 'Over 221.5', 'Away ML +140', 'Under 47', 'Home -1.5 runline'], i)} (2 units)`,
        priceCents: Math.round(price * 100),
        category,
        externalVideoUrl: external ? pick(EXTERNAL_LINKS, i) : null,
        isExternalVideo: external,
        transcodingStatus: 'ready',
        isTranscoded: external,
        duration: external ? null : 45 + ((i * 17) % 120),
        views: (i * 37) % 500,
        createdAt: new Date(Date.now() - i * 3 * 60 * 60 * 1000),
      });
      i += 1;
    }
  }
  const inserted = await db.insert(videos).values(rows).returning();
  // Each bettor owns a few picks, so the 'Purchased' state shows up right away.
  for (const [b, bettor] of bettors.entries()) {
    for (const video of inserted.filter((_, index) => index % 5 === b)) {
      const [purchase] = await db
        .insert(purchases)
        .values({
          userId: bettor.id,
          videoId: video.id,
          videoTitle: video.title,
          selectionsSnapshot: video.emailInformation,
          amountCents: video.priceCents,
          paymentIntentId: `pi_demo_${bettor.id}_${video.id}`,
        })
        .returning();
      await db.insert(sales).values({
        sellerId: video.userId,
        videoId: video.id,
        purchaseId: purchase!.id,
        buyerId: bettor.id,
        amountCents: video.priceCents,
      });
    }
  }
  console.log(
    `Added ${inserted.length} demo videos by ${cappers.length} cappers; ${bettors.length} bettors with purchases.`,
  );
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
  const cappers = await Promise.all(CAPPERS.map((c) => findUserByUsername(db, c.username)));
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

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { videos: { type: 'string' }, total: { type: 'string' } } });
  const wanted = (name: 'videos' | 'total') => {
    const value = values[name] ? Number(values[name]) : 0;
    if (!Number.isInteger(value) || value < 0 || value > 1_000_000)
      throw new Error(`--${name} must be a whole number up to 1000000`);
    return value;
  };
  const more = wanted('videos');
  const total = wanted('total');
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await database.migrate();
    await seedCatalog(database.db);
    // --total N: bulk videos until the catalog holds N (benchmarks want exactly 1,000 or 100,000).
    const bulk = Math.max(more, total - (await countVideos(database.db)));
    if (bulk) await seedBulk(database.db, bulk, path.join(config.dataDir, 'media'));
    console.log(`The catalog holds ${await countVideos(database.db)} videos.`);
    await database.exec('analyze');
    console.log(
      `Demo accounts: ${[...CAPPERS.map((c) => c.username), ...BETTORS].join(', ')} (password: ${DEMO_PASSWORD})`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error('seed:demo failed:', safeErrorMessage(error));
  process.exit(1);
});
