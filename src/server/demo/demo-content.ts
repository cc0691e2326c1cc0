// What the demo catalog holds: its accounts, its unverified videos (preview clips without legs) and who bought
// what. Data only: demo-seed.ts puts it in through the app's own API, and the bulk seed of the benches
// (scripts/seed-demo.ts) reuses the accounts, matchups and links.
import type { Category } from '#common/constants.js';

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

/** The bulk seed's links (benchmarks only, never the demo): a Vimeo one among them, which has no thumbnail. */
export const EXTERNAL_LINKS = [
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'https://youtu.be/9bZkp7q19f0',
  'https://vimeo.com/76979871',
  'https://www.youtube.com/shorts/aqz-KE-bpKQ',
];

export function pick<T>(items: readonly T[], i: number): T {
  return items[i % items.length]!;
}

const DAY_MS = 86_400_000;

/** A game's day as the clips show it: 'Sat Nov 28' (UTC). */
export function clipDate(at: Date): string {
  return at
    .toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' })
    .replace(',', '');
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
  /** No legs, so General (decisions, 'Categories of verified picks'); the league is the clip's. */
  category: Category;
  league: string;
  away: string;
  home: string;
  /** The clip's middle line when it is not 'Away at Home'. */
  headline?: string;
  /** Days after the seed's day that the game is played (the clip's date). */
  inDays: number;
}

/**
 * The demo's unverified videos: a capper's preview clip and a selection typed as text, with no legs, to show
 * next to the verified market picks what a pick without legs looks like. Titles sell without naming a side.
 */
const UNVERIFIED: Omit<DemoVideo, 'capperName' | 'category' | 'price' | 'emailInformation'>[] = [
  {
    capper: 'sharpshooter',
    league: 'NBA',
    away: 'Knicks',
    home: 'Celtics',
    inDays: 1,
    title: 'Knicks–Celtics: where the value is',
    description: 'Rest, pace and the number I trust, and why the market has it wrong.',
  },
  {
    capper: 'lockcity',
    league: 'NFL',
    away: 'Chiefs',
    home: 'Bills',
    inDays: 2,
    title: 'Sunday night underdog I love',
    description: 'The matchup edge, the injury news and how much I am playing.',
  },
  {
    capper: 'parlayqueen',
    league: 'NBA · NFL · NHL',
    away: 'Lakers',
    home: 'Nuggets',
    inDays: 1,
    headline: 'Three-leg Saturday card',
    title: 'Three-leg Saturday card',
    description: 'Three games, one ticket: the reasoning behind each leg.',
  },
  {
    capper: 'edgehunter',
    league: 'Soccer',
    away: 'Arsenal',
    home: 'Chelsea',
    inDays: 2,
    title: 'London derby: the edge in this one',
    description: 'Form, expected goals and the price I would still take.',
  },
  {
    capper: 'sharpshooter',
    league: 'College Basketball',
    away: 'Duke',
    home: 'North Carolina',
    inDays: 3,
    title: 'Tobacco Road: the angle nobody mentions',
    description: 'Tempo, shooting and a line that moved the wrong way.',
  },
  {
    capper: 'lockcity',
    league: 'NFL',
    away: 'Eagles',
    home: 'Cowboys',
    inDays: 2,
    title: 'Eagles–Cowboys: the number before it moves',
    description: 'Why I am in early, and the price I stop at.',
  },
  {
    capper: 'parlayqueen',
    league: 'NHL',
    away: 'Rangers',
    home: 'Bruins',
    inDays: 1,
    title: 'Original Six night: the price I would still bet',
    description: 'Goaltending, travel and where the value sits tonight.',
  },
  {
    capper: 'edgehunter',
    league: 'NBA',
    away: 'Warriors',
    home: 'Mavericks',
    inDays: 1,
    title: 'Player props night: two I trust',
    description: 'Minutes, matchups and the two player plays I like most.',
  },
  {
    capper: 'lockcity',
    league: 'College Football',
    away: 'Ohio State',
    home: 'Michigan',
    inDays: 3,
    title: 'The Game: where the market is wrong',
    description: 'Trenches, weather and the number I would play to.',
  },
  {
    capper: 'sharpshooter',
    league: 'NBA',
    away: 'Nuggets',
    home: 'Suns',
    inDays: 2,
    title: 'Late tip out West: my strongest lean',
    description: 'Back-to-back spots, pace and the price that still works.',
  },
  {
    capper: 'parlayqueen',
    league: 'MLB',
    away: 'Yankees',
    home: 'Red Sox',
    inDays: 3,
    title: 'Rivalry weekend: how I am playing it',
    description: 'Pitching matchups, bullpens and one angle the books missed.',
  },
  {
    capper: 'edgehunter',
    league: 'Soccer',
    away: 'Real Madrid',
    home: 'Barcelona',
    inDays: 3,
    title: 'El Clásico: where the value hides',
    description: 'Lineups, tempo and the market I like best in this one.',
  },
];

const SELECTIONS = ['Home -3.5', 'Over 221.5', 'Away ML +140', 'Under 47', 'Home -1.5 runline'];

/** The demo's unverified videos (see UNVERIFIED), each an uploaded preview clip. */
export function demoVideos(): DemoVideo[] {
  return UNVERIFIED.map((video, i) => ({
    ...video,
    capperName: DEMO_CAPPERS.find((c) => c.username === video.capper)!.displayName,
    category: 'General',
    emailInformation: `${video.away} at ${video.home}: ${pick(SELECTIONS, i)} (2 units)`,
    price: pick([5, 9.99, 14, 19.99, 25, 49], i),
  }));
}

/** The clip of a demo video, dated relative to `now`. */
export function clipOf(video: DemoVideo, now = new Date()) {
  return {
    league: video.league,
    away: video.away,
    home: video.home,
    date: clipDate(new Date(now.getTime() + video.inDays * DAY_MS)),
    capperName: video.capperName,
    ...(video.headline && { headline: video.headline }),
  };
}

/** Each bettor owns a few picks, so the 'Purchased' state shows up right away: every fifth video each. */
export function demoPurchases(videos: readonly DemoVideo[]): { bettor: string; video: DemoVideo }[] {
  return DEMO_BETTORS.flatMap((bettor, b) =>
    videos.filter((_, index) => index % 5 === b).map((video) => ({ bettor, video })),
  );
}
