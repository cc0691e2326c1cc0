// The sealed pick and its commitment (docs/decisions/020, 025): the same code seals on the server and
// verifies in the browser, each with its own SHA-256 (node:crypto there, Web Crypto here).
import canonicalize from 'canonicalize';
import type { Market } from './schemas/picks.js';

/** The price a market leg was bound to: the best among books for its side and line in the snapshot of `at`. */
export interface SealedPrice {
  book: string;
  odds: number;
  line: number | null;
  at: string;
}

/**
 * A leg as it is sealed: every field present, `line` null where the market has none. Version 2 adds, on a
 * leg bound to the market, `game` (`<provider>:<the provider's game id>`) and `price` (its evidence); a leg
 * without them is self-reported.
 */
export interface SealedLeg {
  league: string;
  home: string;
  away: string;
  startsAt: string;
  market: Market;
  side: string;
  line: number | null;
  odds: number;
  units: number;
  game?: string;
  price?: SealedPrice;
}

/**
 * What a capper commits to when posting. `parlay` is sealed too: whether all legs must win changes the
 * result, so it cannot be left for later. Version 1 (before picks were bound to the market) has no `game`
 * or `price` on its legs.
 */
export interface SealedPick {
  v: 1 | 2;
  capper: string;
  videoId: number;
  postedAt: string;
  selections: string;
  legs: SealedLeg[];
  parlay: boolean;
  salt: string;
}

export type Sha256 = (bytes: Uint8Array) => Uint8Array | Promise<Uint8Array>;

const SALT_HEX = /^[0-9a-f]{64}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function sealedLeg(leg: SealedLeg): SealedLeg {
  return {
    league: leg.league,
    home: leg.home,
    away: leg.away,
    startsAt: leg.startsAt,
    market: leg.market,
    side: leg.side,
    line: leg.line,
    odds: leg.odds,
    units: leg.units,
    ...(leg.game !== undefined && { game: leg.game }),
    ...(leg.price !== undefined && {
      price: { book: leg.price.book, odds: leg.price.odds, line: leg.price.line, at: leg.price.at },
    }),
  };
}

/** A sealed leg bound to a market game at a market price; the others are self-reported. */
export function isMarketLeg(leg: SealedLeg): boolean {
  return typeof leg.game === 'string' && leg.price !== undefined;
}

/**
 * RFC 8785 (JCS) canonical UTF-8 bytes. Lone surrogates, which JCS refuses and PostgreSQL stores as
 * U+FFFD, are sealed as U+FFFD: the sealed text is the text the database keeps.
 */
export function canonicalBytes(value: unknown): Uint8Array {
  const text = canonicalize(wellFormed(value));
  if (text === undefined) throw new Error('nothing to canonicalise');
  return new TextEncoder().encode(text);
}

function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\uFFFD');
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, wellFormed(item)]));
  return value;
}

/** ISO-8601 UTC to the second ('2026-11-25T18:30:00Z'): how picks write every time they seal or show. */
export function isoSeconds(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** The commitment: lowercase hex SHA-256 of the sealed pick's canonical bytes. */
export async function commitmentOf(sealed: SealedPick, sha256: Sha256): Promise<string> {
  return toHex(await sha256(canonicalBytes(sealed)));
}

/** A sealed pick as /reveal returns it, checked for shape before anyone hashes it. */
export function isSealedPick(value: unknown): value is SealedPick {
  if (!value || typeof value !== 'object') return false;
  const pick = value as Partial<SealedPick>;
  return (
    (pick.v === 1 || pick.v === 2) &&
    typeof pick.capper === 'string' &&
    typeof pick.videoId === 'number' &&
    typeof pick.postedAt === 'string' &&
    typeof pick.selections === 'string' &&
    Array.isArray(pick.legs) &&
    typeof pick.parlay === 'boolean' &&
    typeof pick.salt === 'string' &&
    SALT_HEX.test(pick.salt)
  );
}

/** A stored sealed text as a sealed pick; null when it is not one (damaged storage must not fail a page). */
export function parseSealed(text: string): SealedPick | null {
  try {
    const value: unknown = JSON.parse(text);
    return isSealedPick(value) ? value : null;
  } catch {
    return null;
  }
}
