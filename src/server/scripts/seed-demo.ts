// `npm run seed:demo [-- --videos N]`: a realistic demo catalog (cappers, bettors, 30+ videos across the
// categories, some external links, some purchases) for people trying PickReel, and, with --videos N,
// N more videos in bulk for benchmarks. Uses the same settings as `npm start` (DATA_DIR / DATABASE_URL).
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { CATEGORIES } from '../../common/constants.js';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase, type Db } from '../db/client.js';
import { purchases, sales, videos } from '../db/schema.js';
import { hashPassword } from '../features/auth/passwords.js';
import { findUserByUsername, insertUser } from '../features/auth/users-repository.js';
import { rowsOf } from '../features/videos/videos-repository.js';

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

async function seedCatalog(db: Db): Promise<void> {
  const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from videos`)) as [
    { n: number },
  ];
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

/** N more videos in one statement each thousand: benchmarks need 1,000 or 100,000 quickly. */
async function seedBulk(db: Db, count: number): Promise<void> {
  const owner = (await findUserByUsername(db, CAPPERS[0]!.username))!;
  const categories = sql.raw(`array[${CATEGORIES.map((c) => `'${c.replace(/'/g, "''")}'`).join(',')}]`);
  const batch = 5000;
  for (let done = 0; done < count; done += batch) {
    const size = Math.min(batch, count - done);
    await db.execute(sql`
      insert into videos (user_id, title, description, email_information, price_cents, category,
                          transcoding_status, is_transcoded, duration, views, created_at)
      select ${sql.raw(String(owner.id))}, 'Bulk pick #' || g, 'Benchmark video ' || g || ': line, injuries and the number.',
             'Selection ' || g, 99 + (g % 50) * 100, (${categories})[1 + g % ${sql.raw(String(CATEGORIES.length))}],
             'ready', false, 30 + g % 200, g % 1000, now() - (g || ' minutes')::interval
      from generate_series(${sql.raw(String(done + 1))}, ${sql.raw(String(done + size))}) as g`);
  }
  console.log(`Added ${count} bulk videos.`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { videos: { type: 'string' } } });
  const bulk = values.videos ? Number(values.videos) : 0;
  if (!Number.isInteger(bulk) || bulk < 0 || bulk > 1_000_000)
    throw new Error('--videos must be a whole number up to 1000000');
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await database.migrate();
    await seedCatalog(database.db);
    if (bulk) await seedBulk(database.db, bulk);
    await database.exec('analyze');
    console.log(
      `Demo accounts: ${[...CAPPERS.map((c) => c.username), ...BETTORS].join(', ')} (password: ${DEMO_PASSWORD})`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error('seed:demo failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
