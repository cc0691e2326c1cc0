// The demo's market picks (docs/decisions/025): the demo cappers post picks through the app's own API on the
// market stand-in's games that start soon, at the market's prices, as a capper would from the upload form.
// The app then keeps their closing prices at the start, grades them from the stand-in's final scores and
// measures their CLV: the whole loop, minutes after a start. While the demo server runs, a capper with few
// open picks left posts a few more, so the catalog always has picks on sale and records keep growing.
import type { CapperProfile } from '#common/schemas/cappers.js';
import type { EventPrices, EventView } from '#common/schemas/pick-views.js';
import type { League } from '#common/schemas/picks.js';
import type { ApiClient } from './demo-seed.js';
import { signIn } from './demo-seed.js';
import { DEMO_CAPPERS, DEMO_LINKS, pick } from './demo-content.js';

/** Games starting between these many minutes from now: posted before the closing snapshot, graded soon. */
const FIRST_START_MINUTES = 4;
const LAST_START_MINUTES = 40;
/** A capper with fewer open market picks than this posts more. */
const OPEN_PICKS_WANTED = 4;
const PICKS_PER_ROUND = 4;
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
  username: string,
  round: number,
  log: (line: string) => void,
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
      const { data: prices } = await client.call<EventPrices>('GET', `/api/events/${game.id}/prices`);
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
    const form = new FormData();
    // Titles and descriptions say what kind of pick it is, never the selection.
    // Known by its first game's start (UTC), which tells one round's picks from the next.
    const first = new Date(Math.min(...legs.map((leg) => Date.parse(leg.startsAt))));
    const slate = `${String(first.getUTCHours()).padStart(2, '0')}:${String(first.getUTCMinutes()).padStart(2, '0')} UTC`;
    const kind = parlay
      ? `${legs.length}-leg parlay`
      : legs.length === 1
        ? 'play'
        : `card: ${legs.length} plays`;
    form.append('title', `${leagues.join(' + ')} ${kind}, from ${slate}`);
    form.append(
      'description',
      parlay ? 'A parlay priced off the opening numbers.' : 'Where the number is off, and why.',
    );
    form.append('emailInformation', 'The selections, with stakes, are in the sealed legs of this pick.');
    form.append('price', String(style.price));
    form.append('category', legs.length > 1 && leagues.length > 1 ? 'Parlays' : leagues[0]!);
    form.append('isPremium', 'true');
    form.append('isExternalVideo', 'true');
    form.append('externalVideoUrl', pick(DEMO_LINKS, round + i + username.length));
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
  for (const capper of DEMO_CAPPERS) {
    const client = await signIn(baseUrl, options.signal, capper);
    const { data: profile } = await client.call<CapperProfile>('GET', `/api/cappers/${capper.username}`);
    const open = profile.open.filter((p) => p.status === 'open' && !p.selfReported).length;
    if (open >= OPEN_PICKS_WANTED) continue;
    posted += await postRound(client, capper.username, round, options.log);
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
