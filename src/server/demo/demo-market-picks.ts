// The demo's market picks (docs/decisions/025): the demo cappers post picks through the app's own API on the
// market stand-in's games that start soon, at the market's prices, as a capper would from the upload form,
// each with a preview clip of its game (demo-clips.ts) uploaded like any video.
// The app then keeps their closing prices at the start, grades them from the stand-in's final scores and
// measures their CLV: the whole loop, minutes after a start. While the demo server runs, a capper with few
// open picks left posts a few more, so the catalog always has picks on sale and records keep growing.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CapperProfile } from '#common/schemas/cappers.js';
import type { EventPrices, EventView } from '#common/schemas/pick-views.js';
import type { League } from '#common/schemas/picks.js';
import { mediaTools } from '#server/media/ffmpeg.js';
import { DemoClipMaker } from './demo-clips.js';
import { clipDate, DEMO_CAPPERS, pick } from './demo-content.js';
import type { ApiClient } from './demo-seed.js';
import { signIn } from './demo-seed.js';
import { shortTeamName } from './demo-teams.js';

const PHRASES = [
  'where the value is',
  'the number I trust',
  'my strongest lean tonight',
  'the angle the market missed',
  'the edge before it moves',
];
const LEG_COUNT: Record<number, string> = { 2: 'Two', 3: 'Three', 4: 'Four' };

/** Games starting between these many minutes from now: posted before the closing snapshot, graded soon. */
const FIRST_START_MINUTES = 4;
const LAST_START_MINUTES = 40;
/** A capper with fewer open market picks than this posts more. */
const OPEN_PICKS_WANTED = 5;
const PICKS_PER_ROUND = 5;
const ROUND_EVERY_MS = 10 * 60_000;

/** Each demo capper's habits: leagues, markets, stakes, how often a parlay, the price. */
const STYLES: Record<
  string,
  { leagues: League[]; markets: ('moneyline' | 'spread' | 'total')[]; parlayEvery: number; price: number }
> = {
  sharpshooter: { leagues: ['NBA', 'NHL'], markets: ['spread', 'total'], parlayEvery: 0, price: 14.99 },
  parlayqueen: {
    leagues: ['NBA', 'NFL', 'NHL'],
    markets: ['moneyline', 'spread'],
    parlayEvery: 2,
    price: 9.99,
  },
  lockcity: {
    leagues: ['NFL', 'MLB'],
    markets: ['spread', 'total', 'moneyline'],
    parlayEvery: 0,
    price: 19.99,
  },
  edgehunter: {
    leagues: ['MLB', 'NHL', 'NBA'],
    markets: ['total', 'moneyline'],
    parlayEvery: 4,
    price: 12.99,
  },
};

interface Leg {
  league: League;
  home: string;
  away: string;
  startsAt: string;
  eventId: number;
  market: 'moneyline' | 'spread' | 'total';
  side: string;
  line: number | null;
  units: number;
}

/** A deterministic pseudo-random stream per round: the same catalog whatever the machine. */
function stream(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** One leg on a game at one of the lines the market offers (odds left out: the best price at posting). */
function legOn(
  game: EventView,
  prices: EventPrices,
  market: Leg['market'],
  random: () => number,
  units: number,
): Leg | null {
  const offers = prices[market];
  if (!offers.length) return null;
  const offer = offers[Math.floor(random() * offers.length)]!;
  return {
    league: game.league,
    home: game.home,
    away: game.away,
    startsAt: game.startsAt,
    eventId: game.id,
    market,
    side: offer.side,
    line: offer.line,
    units,
  };
}

async function upcoming(client: ApiClient, league: League, now: number): Promise<EventView[]> {
  const { data } = await client.call<EventView[]>('GET', `/api/events?league=${encodeURIComponent(league)}`);
  return data.filter((game) => {
    const minutes = (Date.parse(game.startsAt) - now) / 60_000;
    return game.market && minutes >= FIRST_START_MINUTES && minutes <= LAST_START_MINUTES;
  });
}

/** Posts a few picks for one capper; returns how many. Never the same game twice in one pick. */
async function postRound(
  client: ApiClient,
  { username, capperName }: { username: string; capperName: string },
  round: number,
  { clips, log, signal }: { clips: DemoClipMaker; log: (line: string) => void; signal?: AbortSignal },
): Promise<number> {
  const style = STYLES[username]!;
  const random = stream(round * 7919 + username.length * 104729);
  const now = Date.now();
  const games = (await Promise.all(style.leagues.map((league) => upcoming(client, league, now)))).flat();
  if (!games.length) return 0;
  let posted = 0;
  for (let i = 0; i < PICKS_PER_ROUND; i++) {
    const parlay = style.parlayEvery > 0 && i % style.parlayEvery === style.parlayEvery - 1;
    const legCount = parlay ? 2 + Math.floor(random() * 2) : 1 + Math.floor(random() * 2);
    const units = parlay ? 1 : [0.5, 1, 1, 1.5, 2][Math.floor(random() * 5)]!;
    const chosen = new Set<number>();
    const legs: Leg[] = [];
    for (let tries = 0; legs.length < legCount && tries < legCount * 4; tries++) {
      const game = games[Math.floor(random() * games.length)]!;
      if (chosen.has(game.id)) continue;
      // A market that is slow to answer (503) leaves this game out of the round.
      const answer = await client.call<EventPrices>('GET', `/api/events/${game.id}/prices`, undefined, [503]);
      if (answer.status !== 200) continue;
      const prices = answer.data;
      const leg = legOn(
        game,
        prices,
        style.markets[Math.floor(random() * style.markets.length)]!,
        random,
        units,
      );
      if (!leg) continue;
      chosen.add(game.id);
      legs.push(leg);
    }
    if (!legs.length) continue;
    const leagues = [...new Set(legs.map((leg) => leg.league))];
    const first = legs.reduce((a, b) => (Date.parse(b.startsAt) < Date.parse(a.startsAt) ? b : a));
    const start = new Date(first.startsAt);
    const away = shortTeamName(first.away);
    const home = shortTeamName(first.home);
    const day = start.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
    // Titles and descriptions sell without naming a side, a line or a market with its side.
    const count = LEG_COUNT[legs.length] ?? String(legs.length);
    const title = parlay
      ? `${count}-leg ${day} parlay`
      : legs.length === 1
        ? `${away}–${home}: ${pick(PHRASES, round + i + username.length)}`
        : `${count}-play ${day} card`;
    const clip = await clips.make(
      {
        league: leagues.join(' · '),
        away,
        home,
        date: clipDate(start),
        capperName,
        ...(legs.length > 1 && { headline: `${away} at ${home} + ${legs.length - 1} more` }),
      },
      round + i,
      signal,
    );
    const form = new FormData();
    form.append('title', title);
    form.append(
      'description',
      parlay
        ? 'A parlay priced off the opening numbers: the reasoning behind each leg.'
        : 'Where the number is off, and why, before it moves.',
    );
    form.append('emailInformation', 'The selections, with stakes, are in the sealed legs of this pick.');
    form.append('price', String(style.price));
    // The category follows the legs: their league, or Parlays across leagues.
    form.append('category', leagues.length > 1 ? 'Parlays' : leagues[0]!);
    form.append('isPremium', 'true');
    form.append('isExternalVideo', 'false');
    form.append(
      'video',
      new Blob([await readFile(clip)], { type: 'video/quicktime' }),
      `${`${away}-at-${home}`.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.mov`,
    );
    await rm(clip, { force: true });
    form.append('legs', JSON.stringify(legs));
    form.append('parlay', String(parlay));
    const answer = await client.call('POST', '/api/videos', form, [400, 503]);
    if (answer.status === 201) posted += 1;
    else log(`Demo pick for ${username} not posted: ${(answer.data as { message?: string }).message}`);
  }
  return posted;
}

/**
 * One round: each demo capper with fewer than a few open market picks posts some on games starting soon.
 * Returns how many picks were posted.
 */
export async function postDemoMarketPicks(
  baseUrl: string,
  options: { log: (line: string) => void; signal?: AbortSignal; round?: number },
): Promise<number> {
  const round = options.round ?? Math.floor(Date.now() / ROUND_EVERY_MS);
  let posted = 0;
  const work = await mkdtemp(path.join(os.tmpdir(), 'pickreel-demo-market-'));
  const clips = new DemoClipMaker(mediaTools(), work);
  try {
    for (const capper of DEMO_CAPPERS) {
      const client = await signIn(baseUrl, options.signal, capper);
      const { data: profile } = await client.call<CapperProfile>('GET', `/api/cappers/${capper.username}`);
      const open = profile.open.filter((p) => p.status === 'open' && !p.selfReported).length;
      if (open >= OPEN_PICKS_WANTED) continue;
      posted += await postRound(
        client,
        { username: capper.username, capperName: capper.displayName },
        round,
        { clips, log: options.log, signal: options.signal },
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (posted)
    options.log(`Demo market picks: ${posted} posted on the stand-in's games starting soon, at its prices.`);
  return posted;
}

/** Posts a round now and every ten minutes until `signal` aborts. Failures are logged, never thrown. */
export function runDemoMarketPicks(
  baseUrl: string,
  options: { log: (line: string) => void; signal: AbortSignal },
): void {
  const round = async () => {
    try {
      await postDemoMarketPicks(baseUrl, options);
    } catch (error) {
      if (!options.signal.aborted)
        options.log(`Demo market picks failed this round: ${(error as Error).message}`);
    }
  };
  void round();
  const timer = setInterval(() => void round(), ROUND_EVERY_MS);
  timer.unref();
  options.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
}
