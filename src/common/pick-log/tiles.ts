// The log as C2SP tlog-tiles resources ('Going further'; docs/decisions/021): the same RFC 9162
// tree, cut into tiles of 256 hashes that a CDN can cache for ever and any tlog client can read. Paths and
// entry bundles as the specification writes them; pure, for the server and any client.

/** Hashes in a full tile, and entries in a full bundle. */
export const TILE_WIDTH = 256;
/** The highest level a tile path may name (tlog-tiles: 0 to 63). */
export const MAX_TILE_LEVEL = 63;

/** A tile or an entry bundle: its index in its level and its width (TILE_WIDTH when full). */
export interface TileRef {
  index: number;
  width: number;
}

/**
 * The index as tlog-tiles writes it in a path: zero-padded groups of three digits, every group but the last
 * after an `x` (1234067 is `x001/x234/067`, 5 is `005`).
 */
export function tileIndexPath(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new Error(`not a tile index: ${index}`);
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/');
}

/** `<N>` or `<N>.p/<W>`: what follows `tile/<L>/` or `tile/entries/` in a path. */
export function tileRefPath({ index, width }: TileRef): string {
  return width === TILE_WIDTH ? tileIndexPath(index) : `${tileIndexPath(index)}.p/${width}`;
}

const REF_PATH = /^((?:x\d{3}\/)*)(\d{3})(?:\.p\/([1-9]\d{0,2}))?$/;

/**
 * The tile a path names, or null when the path is not one tlog-tiles writes: each resource has one path
 * (no `x000/` in front, a width from 1 to 255 without leading zeroes), so a CDN caches each once.
 */
export function parseTileRefPath(path: string): TileRef | null {
  const match = REF_PATH.exec(path);
  if (!match) return null;
  const digits = `${match[1]!.replaceAll('x', '').replaceAll('/', '')}${match[2]}`;
  const index = Number(digits);
  if (!Number.isSafeInteger(index)) return null;
  const width = match[3] === undefined ? TILE_WIDTH : Number(match[3]);
  if (match[3] !== undefined && width >= TILE_WIDTH) return null; // a partial tile is 1 to 255 wide
  const ref = { index, width };
  return tileRefPath(ref) === path ? ref : null;
}

/** A tile level as a path writes it: a decimal from 0 to 63, no leading zeroes. */
export function parseTileLevel(text: string): number | null {
  if (!/^(0|[1-9]\d?)$/.test(text)) return null;
  const level = Number(text);
  return level <= MAX_TILE_LEVEL ? level : null;
}

/**
 * The tile at `level` that a tree of `size` entries holds at `index`: full, partial (its width), or none.
 * Level l's hashes are the roots of 256^l entries each; the rightmost tile of a level is partial.
 */
export function tileWidthIn(size: number, level: number, index: number): number {
  const hashes = Math.floor(size / TILE_WIDTH ** level); // complete subtrees of 256^level entries
  return Math.max(0, Math.min(TILE_WIDTH, hashes - index * TILE_WIDTH));
}

/** An entry bundle: each entry as a big-endian uint16 length, then its bytes. */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const entry of entries) {
    if (entry.byteLength > 0xffff) throw new Error('an entry longer than 65,535 bytes cannot be bundled');
    length += 2 + entry.byteLength;
  }
  const bundle = new Uint8Array(length);
  let at = 0;
  for (const entry of entries) {
    bundle[at] = entry.byteLength >> 8;
    bundle[at + 1] = entry.byteLength & 0xff;
    bundle.set(entry, at + 2);
    at += 2 + entry.byteLength;
  }
  return bundle;
}

/** The entries of a bundle; throws when it is cut short. */
export function decodeEntryBundle(bundle: Uint8Array): Uint8Array[] {
  const entries: Uint8Array[] = [];
  let at = 0;
  while (at < bundle.byteLength) {
    if (at + 2 > bundle.byteLength) throw new Error('entry bundle: a length cut short');
    const length = (bundle[at]! << 8) | bundle[at + 1]!;
    if (at + 2 + length > bundle.byteLength) throw new Error('entry bundle: an entry cut short');
    entries.push(bundle.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return entries;
}
