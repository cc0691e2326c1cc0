// What the demo catalog holds (issue 12 'The demo must look and play like a real marketplace'): its
// accounts, its videos and who bought what. Data only: demo-seed.ts puts it in through the app's own API,
// and the bulk seed of the benches (scripts/seed-demo.ts) reuses the accounts, matchups and links.
import { CATEGORIES, type Category } from '#common/constants.js';

export const DEMO_PASSWORD = 'demo-password';

export const DEMO_CAPPERS = [
  { username: 'sharpshooter', displayName: 'Sharp Shooter', bio: 'Former oddsmaker. NBA and college hoops.' },
  { username: 'parlayqueen', displayName: 'Parlay Queen', bio: 'Three-leg parlays, every day.' },
  { username: 'lockcity', displayName: 'Lock City', bio: 'NFL sides and totals. Bankroll first.' },
  { username: 'edgehunter', displayName: 'Edge Hunter', bio: 'Player props and soccer unders.' },
] as const;
export const DEMO_BETTORS = ['bettor_bob', 'bettor_amy'] as const;
export const DEMO_USERNAMES: readonly string[] = [...DEMO_CAPPERS.map((c) => c.username), ...DEMO_BETTORS];

export const MATCHUPS: Record<string, string[]> = {
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

/** The bulk seed's links (benchmarks): a Vimeo one among them, which has no thumbnail to show. */
export const EXTERNAL_LINKS = [
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'https://youtu.be/9bZkp7q19f0',
  'https://vimeo.com/76979871',
  'https://www.youtube.com/shorts/aqz-KE-bpKQ',
];

/** The demo's links are YouTube's: their thumbnail follows from the id, so every demo card has a picture. */
export const DEMO_LINKS = [
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'https://youtu.be/9bZkp7q19f0',
  'https://www.youtube.com/shorts/aqz-KE-bpKQ',
  'https://www.youtube.com/watch?v=jNQXAC9IVRw',
];

export function pick<T>(items: readonly T[], i: number): T {
  return items[i % items.length]!;
}

export interface DemoVideo {
  /** The capper's username: a demo video is known by its owner and title (the seed is idempotent on these). */
  capper: string;
  capperName: string;
  title: string;
  description: string;
  emailInformation: string;
  /** Dollars, as the upload form sends them. */
  price: number;
  category: Category;
  matchup: string;
  /** A link to a video elsewhere; null for an uploaded clip. */
  link: string | null;
}

/** The demo's videos, one per matchup, every category: one in three a YouTube link, the rest uploaded clips. */
export function demoVideos(): DemoVideo[] {
  const list: DemoVideo[] = [];
  let i = 0;
  for (const category of CATEGORIES) {
    for (const matchup of MATCHUPS[category] ?? []) {
      const capper = pick(DEMO_CAPPERS, i);
      list.push({
        capper: capper.username,
        capperName: capper.displayName,
        title: `${category}: ${matchup}`,
        description: `${matchup}. Line movement, injuries and the number we like, explained in under two minutes.`,
        emailInformation: `${matchup}: ${pick(['Home -3.5', 'Over 221.5', 'Away ML +140', 'Under 47', 'Home -1.5 runline'], i)} (2 units)`,
        price: pick([5, 9.99, 14, 19.99, 25, 49, 99], i),
        category,
        matchup,
        link: i % 3 === 0 ? pick(DEMO_LINKS, i / 3) : null,
      });
      i += 1;
    }
  }
  return list;
}

/** Each bettor owns a few picks, so the 'Purchased' state shows up right away: every fifth video each. */
export function demoPurchases(videos: readonly DemoVideo[]): { bettor: string; video: DemoVideo }[] {
  return DEMO_BETTORS.flatMap((bettor, b) =>
    videos.filter((_, index) => index % 5 === b).map((video) => ({ bettor, video })),
  );
}
