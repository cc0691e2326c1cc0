// What the site serves about its tree, checked against the tree the verifier built from the entries
// (docs/pick-log.md 'What the verifier checks of the served tree'). The server reads tiles and proofs from
// stored nodes, not from the entries: a node altered after signing leaves the entries and the root intact
// and shows only in what is read from it.
import { createHash, hash, randomInt } from 'node:crypto';
import {
  bytesEqual,
  fromBase64,
  toBase64,
  verifyConsistency,
  verifyInclusion,
} from '../common/pick-log/index.js';
import { decodeEntryBundle, TILE_WIDTH, tileRefPath, tileWidthIn } from '../common/pick-log/tiles.js';
import type { SiteClient } from './http.js';
import { VerificationError, messageOf } from './verification-error.js';

const HASH = 32;
/** Up to this size every inclusion proof and every earlier size's consistency proof is checked. */
export const EVERY_PROOF_UP_TO = 1024;
/** Above it: at most this many inclusion proofs chosen so that every node from some level up is a sibling. */
export const COVERING_PROOFS = 1024;
/** And this many inclusion proofs of random entries, and consistency proofs from random sizes. */
export const RANDOM_PROOFS = 256;
export const RANDOM_SIZES = 64;
/**
 * Entry bundles: all up to this many, else this many random ones, the first and the last. They hold the
 * entries again (compressed by the server), so all of a large log cost about as much as downloading it.
 */
export const BUNDLES = 64;

const sha256 = (bytes: Uint8Array): Uint8Array => hash('sha256', bytes, 'buffer');
const LEAF_PREFIX = new Uint8Array([0]);

/** The leaf hashes of the entries as they are downloaded, packed 32 bytes each (a million take 32 MB). */
export class LeafHashes {
  private bytes: Uint8Array;
  private count = 0;

  /** `expected`: the checkpoint's size, to allocate once; a size no entries back is not allocated up front. */
  constructor(expected = 0) {
    this.bytes = new Uint8Array(HASH * Math.min(Math.max(expected, 16), 1 << 22));
  }

  get size(): number {
    return this.count;
  }

  push(leaf: Uint8Array): void {
    if (leaf.length !== HASH) throw new Error('a leaf hash is 32 bytes');
    if ((this.count + 1) * HASH > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes.set(leaf, this.count * HASH);
    this.count++;
  }

  /** The hashes, 32 bytes each, in entry order. */
  packed(): Uint8Array {
    return this.bytes.subarray(0, this.count * HASH);
  }
}

/** One hash of a proof: MTH(D[start:end]) of the verifier's tree. */
export interface ProofHash {
  start: number;
  end: number;
  hash: Uint8Array;
}

/**
 * The verifier's own tree over the leaves: every perfect subtree's hash, level by level (level l holds
 * floor(n / 2^l) hashes, so about as many again as the leaves). Proofs are written from RFC 9162 §2.1's
 * definitions here, not with the plans the server uses, and each is verified against the root as well.
 */
export class OwnTree {
  private readonly levels: Uint8Array[];

  constructor(leaves: Uint8Array) {
    if (leaves.length % HASH !== 0) throw new Error('leaf hashes are 32 bytes each');
    this.levels = [leaves];
    const node = new Uint8Array(1 + 2 * HASH);
    node[0] = 1;
    for (let below = leaves; below.length >= 2 * HASH;) {
      const level = new Uint8Array(Math.floor(below.length / (2 * HASH)) * HASH);
      for (let i = 0; i < level.length; i += HASH) {
        node.set(below.subarray(2 * i, 2 * i + 2 * HASH), 1);
        level.set(sha256(node), i);
      }
      this.levels.push(level);
      below = level;
    }
  }

  get size(): number {
    return this.levels[0]!.length / HASH;
  }

  /** The perfect subtree of 2^level entries at `index` (level 0: a leaf hash). */
  node(level: number, index: number): Uint8Array {
    const hashes = this.levels[level];
    if (!hashes || (index + 1) * HASH > hashes.length) throw new Error(`no node ${level}:${index}`);
    return hashes.subarray(index * HASH, (index + 1) * HASH);
  }

  /** `count` consecutive perfect subtrees of 2^level entries from `index`, packed: a tile's bytes. */
  nodes(level: number, index: number, count: number): Uint8Array {
    return this.levels[level]!.subarray(index * HASH, (index + count) * HASH);
  }

  /** RFC 9162 MTH(D[start:end]); a perfect, aligned range is read, any other is split as §2.1.1 splits. */
  range(start: number, end: number): Uint8Array {
    const width = end - start;
    if (width < 1 || end > this.size) throw new Error(`no range ${start}–${end} in a tree of ${this.size}`);
    const level = Math.log2(width);
    if (Number.isInteger(level) && start % width === 0) return this.node(level, start / width);
    const k = splitPoint(width);
    const both = new Uint8Array(1 + 2 * HASH);
    both[0] = 1;
    both.set(this.range(start, start + k), 1);
    both.set(this.range(start + k, end), 1 + HASH);
    return sha256(both);
  }

  /** The root of the first `size` entries. */
  root(size = this.size): Uint8Array {
    return size === 0 ? sha256(new Uint8Array(0)) : this.range(0, size);
  }

  /** RFC 9162 §2.1.3.1 PATH(index, D[0:size]), each hash with the range it is the MTH of. */
  inclusionProof(index: number, size: number): ProofHash[] {
    const path = (m: number, low: number, high: number): ProofHash[] => {
      if (high - low <= 1) return [];
      const k = splitPoint(high - low);
      return m < k
        ? [...path(m, low, low + k), this.proofHash(low + k, high)]
        : [...path(m - k, low + k, high), this.proofHash(low, low + k)];
    };
    return path(index, 0, size);
  }

  /** RFC 9162 §2.1.4.1 PROOF(first, D[0:second]). */
  consistencyProof(first: number, second: number): ProofHash[] {
    const subproof = (m: number, low: number, high: number, whole: boolean): ProofHash[] => {
      if (m === high - low) return whole ? [] : [this.proofHash(low, high)];
      const k = splitPoint(high - low);
      return m <= k
        ? [...subproof(m, low, low + k, whole), this.proofHash(low + k, high)]
        : [...subproof(m - k, low + k, high, false), this.proofHash(low, low + k)];
    };
    return first === 0 || first === second ? [] : subproof(first, 0, second, true);
  }

  private proofHash(start: number, end: number): ProofHash {
    return { start, end, hash: this.range(start, end) };
  }
}

/** RFC 9162's k for n > 1: the largest power of two smaller than n. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

type Random = (below: number) => number;

/**
 * The entries whose inclusion proofs are checked in a tree of `size`. Up to EVERY_PROOF_UP_TO, all of them:
 * together their proofs read every stored node. Above, the proof of leaf i has one sibling on each level,
 * so the leaves j·2^L have every node of level L and up as a sibling (L the lowest level with at most
 * COVERING_PROOFS of them); plus the last entry and random ones for the levels below.
 */
export function inclusionIndices(size: number, random: Random = randomInt): number[] {
  if (size <= EVERY_PROOF_UP_TO) return Array.from({ length: size }, (_, i) => i);
  let step = 1;
  while (Math.ceil(size / step) > COVERING_PROOFS) step *= 2;
  const chosen = new Set<number>([size - 1]);
  for (let i = 0; i < size; i += step) chosen.add(i);
  for (let i = 0; i < RANDOM_PROOFS; i++) chosen.add(random(size));
  return [...chosen].sort((a, b) => a - b);
}

/**
 * The earlier sizes whose consistency proofs to `size` are checked: every one up to EVERY_PROOF_UP_TO;
 * above, the powers of two (the tree's left subtrees), the size before, and random ones.
 */
export function consistencySizes(size: number, random: Random = randomInt): number[] {
  if (size <= EVERY_PROOF_UP_TO) return Array.from({ length: Math.max(0, size - 1) }, (_, i) => i + 1);
  const chosen = new Set<number>([size - 1]);
  for (let m = 1; m < size; m *= 2) chosen.add(m);
  for (let i = 0; i < RANDOM_SIZES; i++) chosen.add(1 + random(size - 1));
  return [...chosen].sort((a, b) => a - b);
}

/** A tile or an entry bundle a tree of `size` holds: every full one and the partial one at each level's end. */
export interface ServedTile {
  level: number;
  index: number;
  width: number;
}

/** Every hash tile of a tree of `size`, level 0 first (C2SP tlog-tiles: level l hashes 256^l entries). */
export function tilesOf(size: number): ServedTile[] {
  const tiles: ServedTile[] = [];
  for (let level = 0; tileWidthIn(size, level, 0) > 0; level++)
    for (let index = 0; ; index++) {
      const width = tileWidthIn(size, level, index);
      if (width === 0) break;
      tiles.push({ level, index, width });
    }
  return tiles;
}

/** The entry bundles checked: every one of a small log; of a larger one, the first, the last and random ones. */
export function bundlesOf(size: number, random: Random = randomInt): ServedTile[] {
  const all = tilesOf(size).filter((tile) => tile.level === 0);
  if (all.length <= BUNDLES) return all;
  const chosen = new Set<number>([0, all.length - 1]);
  while (chosen.size < BUNDLES + 2) chosen.add(random(all.length));
  return [...chosen].sort((a, b) => a - b).map((index) => all[index]!);
}

export interface ServedTreeOptions {
  /** Requests in flight at once (the verifier's --concurrency). */
  concurrency?: number;
  /** Chooses the random proofs; crypto's randomInt unless a test fixes them. */
  random?: Random;
}

const number = (n: number) => n.toLocaleString('en-US');
const entries = (start: number, end: number) =>
  end - start === 1 ? `entry ${number(start)}` : `entries ${number(start)}–${number(end - 1)}`;

function served(message: string): VerificationError {
  return new VerificationError('served', message);
}

/**
 * Checks every hash tile of the signed tree of `size`, and a set of its entry bundles, inclusion proofs and
 * consistency proofs, against the tree of `leaves` or the one built from them (whose root the caller has
 * checked is the checkpoint's).
 * Throws VerificationError('served') naming the first tile or proof that differs, in the order listed.
 */
export async function checkServedTree(
  client: SiteClient,
  leaves: LeafHashes | OwnTree,
  checkpoint: { size: number; rootHash: Uint8Array },
  options: ServedTreeOptions = {},
): Promise<void> {
  const { size, rootHash } = checkpoint;
  if (size === 0) return;
  if (leaves.size !== size) throw new Error(`${leaves.size} leaf hashes for a tree of ${size}`);
  const tree = leaves instanceof OwnTree ? leaves : new OwnTree(leaves.packed());
  // The caller checked these leaves against the signed root; a tree that disagrees is a fault here.
  if (!bytesEqual(tree.root(), rootHash))
    throw new Error("the verifier's own tree does not hash to the root");
  const random = options.random ?? randomInt;
  const tiles = tilesOf(size);
  const checks: (() => Promise<void>)[] = [
    ...tiles.map((tile) => () => checkTile(client, tree, tile)),
    ...inclusionIndices(size, random).map((index) => () => checkInclusion(client, tree, index, rootHash)),
    ...consistencySizes(size, random).map((first) => () => checkConsistency(client, tree, first, rootHash)),
    ...bundlesOf(size, random).map((tile) => () => checkEntryBundle(client, tree, tile)),
  ];
  await firstFailure(checks, Math.max(1, options.concurrency ?? 4));
}

/**
 * Runs the checks, at most `limit` at once, and throws the failure of the earliest check that failed:
 * checks start in order and all that started finish, so the same site gives the same message every run.
 */
async function firstFailure(checks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const failures: { at: number; error: unknown }[] = [];
  const worker = async () => {
    while (failures.length === 0 && next < checks.length) {
      const at = next++;
      try {
        await checks[at]!();
      } catch (error) {
        failures.push({ at, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, checks.length) }, worker));
  if (failures.length > 0) throw failures.reduce((a, b) => (b.at < a.at ? b : a)).error;
}

/**
 * GET `path` as bytes. A 4xx for something the signed tree holds is the site's fault ('served', `what`
 * names it); other failures stay 'network'.
 */
async function fetchBytes(client: SiteClient, path: string, what: string): Promise<Uint8Array> {
  const response = await client.get(path);
  if (!response.ok) {
    const failure = await client.failure(path, response);
    if (response.status >= 400 && response.status < 500)
      throw served(`the site does not serve ${what}: ${failure.message}`);
    throw failure;
  }
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new VerificationError('network', `GET ${path}: the answer broke off (${messageOf(error)})`);
  }
}

async function fetchJson(client: SiteClient, path: string, what: string): Promise<unknown> {
  const bytes = await fetchBytes(client, path, what);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new VerificationError('network', `GET ${path} did not answer JSON`);
  }
}

async function checkTile(client: SiteClient, tree: OwnTree, { level, index, width }: ServedTile) {
  const name = `tile ${level}/${tileRefPath({ index, width })} (level ${level}, index ${number(index)})`;
  const bytes = await fetchBytes(client, `/api/log/tile/${level}/${tileRefPath({ index, width })}`, name);
  // A level-l hash is the perfect subtree of 256^l = 2^(8l) entries.
  const expected = tree.nodes(8 * level, index * TILE_WIDTH, width);
  if (bytes.length !== expected.length)
    throw served(
      `${name} has ${number(bytes.length)} bytes, not the ${number(expected.length)} of ${width} hashes`,
    );
  // Buffer's native comparison: a million leaf hashes compared a byte at a time in JavaScript take seconds.
  if (Buffer.compare(bytes, expected) === 0) return;
  for (let at = 0; at < width; at++) {
    const theirs = bytes.subarray(at * HASH, (at + 1) * HASH);
    const ours = expected.subarray(at * HASH, (at + 1) * HASH);
    if (bytesEqual(theirs, ours)) continue;
    const first = (index * TILE_WIDTH + at) * TILE_WIDTH ** level;
    throw served(
      `${name} differs from the log's entries at hash ${at} (${entries(first, first + TILE_WIDTH ** level)}): ` +
        `the site serves ${toBase64(theirs)}, the entries give ${toBase64(ours)}`,
    );
  }
}

async function checkEntryBundle(client: SiteClient, tree: OwnTree, { index, width }: ServedTile) {
  const name = `entry bundle entries/${tileRefPath({ index, width })} (${entries(index * TILE_WIDTH, index * TILE_WIDTH + width)})`;
  const bytes = await fetchBytes(client, `/api/log/tile/entries/${tileRefPath({ index, width })}`, name);
  let bundle: Uint8Array[];
  try {
    bundle = decodeEntryBundle(bytes);
  } catch (error) {
    throw served(`${name} is not an entry bundle: ${messageOf(error)}`);
  }
  if (bundle.length !== width) throw served(`${name} holds ${number(bundle.length)} entries, not ${width}`);
  // The leaf hash stands for the bytes /api/log/entries served: equal hashes, equal bytes.
  for (const [at, entry] of bundle.entries()) {
    const entryIndex = index * TILE_WIDTH + at;
    const leaf = createHash('sha256').update(LEAF_PREFIX).update(entry).digest();
    if (!bytesEqual(leaf, tree.node(0, entryIndex)))
      throw served(`${name} holds other bytes for entry ${number(entryIndex)} than /api/log/entries served`);
  }
}

/** The proof's hashes, or null when the answer is not the proof asked for (other sizes, not base64). */
function proofHashes(answer: unknown, fields: Record<string, number>): Uint8Array[] | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const record = answer as Record<string, unknown>;
  if (Object.entries(fields).some(([field, value]) => record[field] !== value)) return null;
  const hashes = record.hashes;
  if (!Array.isArray(hashes) || !hashes.every((item) => typeof item === 'string')) return null;
  try {
    return hashes.map((text: string) => fromBase64(text));
  } catch {
    return null;
  }
}

/** Where a served proof first departs from the verifier's, in words; null when they are the same. */
function difference(theirs: readonly Uint8Array[], ours: readonly ProofHash[]): string | null {
  for (const [at, own] of ours.entries()) {
    const their = theirs[at];
    if (their && bytesEqual(their, own.hash)) continue;
    if (!their) break;
    return (
      `hash ${at + 1} of ${ours.length} (${entries(own.start, own.end)}) is ${toBase64(their)}, ` +
      `the log's entries give ${toBase64(own.hash)}`
    );
  }
  return theirs.length === ours.length
    ? null
    : `it has ${theirs.length} hashes, the log's entries give ${ours.length}`;
}

async function checkInclusion(client: SiteClient, tree: OwnTree, index: number, root: Uint8Array) {
  const size = tree.size;
  const wrong = `the site serves a wrong inclusion proof for entry ${number(index)} in a tree of ${number(size)}`;
  const path = `/api/log/proof/inclusion?index=${index}&treeSize=${size}`;
  const answer = await fetchJson(client, path, `the inclusion proof GET ${path}`);
  const theirs = proofHashes(answer, { index, treeSize: size });
  if (!theirs)
    throw served(`${wrong}: GET ${path} did not answer {"index","treeSize","hashes":[base64, ...]}`);
  const leaf = tree.node(0, index);
  const ours = tree.inclusionProof(index, size);
  if (
    !(await verifyInclusion(
      leaf,
      index,
      size,
      ours.map((own) => own.hash),
      root,
      sha256,
    ))
  )
    throw new Error(`the verifier's own inclusion proof for entry ${index} does not verify`);
  const differs = difference(theirs, ours);
  if (differs || !(await verifyInclusion(leaf, index, size, theirs, root, sha256)))
    throw served(`${wrong}: ${differs ?? 'it does not lead to the signed root'}`);
}

async function checkConsistency(client: SiteClient, tree: OwnTree, first: number, root: Uint8Array) {
  const second = tree.size;
  const wrong = `the site serves a wrong consistency proof from ${number(first)} to ${number(second)} entries`;
  const path = `/api/log/proof/consistency?first=${first}&second=${second}`;
  const answer = await fetchJson(client, path, `the consistency proof GET ${path}`);
  const theirs = proofHashes(answer, { first, second });
  if (!theirs) throw served(`${wrong}: GET ${path} did not answer {"first","second","hashes":[base64, ...]}`);
  const firstRoot = tree.root(first);
  const ours = tree.consistencyProof(first, second);
  const own = ours.map((hash) => hash.hash);
  if (!(await verifyConsistency(first, second, firstRoot, root, own, sha256)))
    throw new Error(`the verifier's own consistency proof from ${first} does not verify`);
  const differs = difference(theirs, ours);
  if (differs || !(await verifyConsistency(first, second, firstRoot, root, theirs, sha256)))
    throw served(
      `${wrong}: ${differs ?? `it does not lead from the root of ${number(first)} to the signed root`}`,
    );
}
