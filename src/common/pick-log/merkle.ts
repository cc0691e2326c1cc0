// RFC 9162 §2.1 Merkle tree with SHA-256: hashes, proofs planned over stored perfect subtrees, and the
// verification algorithms of §2.1.3.2 and §2.1.4.2.
import type { Sha256 } from '../pick-seal.js';
import { bytesEqual, concatBytes } from './base64.js';

/**
 * A perfect subtree: the node at `level` covering leaves [index·2^level, (index+1)·2^level). Level 0 is a
 * leaf's hash. The server stores every perfect subtree's hash once it is complete, so no proof or root is
 * ever recomputed from the leaves.
 */
export interface NodeId {
  level: number;
  index: number;
}
export interface StoredNode extends NodeId {
  hash: Uint8Array;
}

const EMPTY = new Uint8Array(0);
const LEAF_PREFIX = new Uint8Array([0]);
const NODE_PREFIX = new Uint8Array([1]);
const HASH_LENGTH = 32;

/** SHA-256 of the empty string: the root of the empty tree. */
export async function emptyRoot(sha256: Sha256): Promise<Uint8Array> {
  return await sha256(EMPTY);
}
/** SHA-256(0x00 ‖ entry). */
export async function leafHash(entry: Uint8Array, sha256: Sha256): Promise<Uint8Array> {
  return await sha256(concatBytes(LEAF_PREFIX, entry));
}
/** SHA-256(0x01 ‖ left ‖ right). */
export async function nodeHash(left: Uint8Array, right: Uint8Array, sha256: Sha256): Promise<Uint8Array> {
  return await sha256(concatBytes(NODE_PREFIX, left, right));
}

function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function requireCount(value: number, what: string): void {
  if (!isCount(value)) throw new Error(`${what} must be a non-negative safe integer, not ${String(value)}`);
}

/** RFC 9162's k for n > 1: the largest power of two smaller than n. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** Number of set bits; arithmetic rather than bit operators, which stop at 2^31. */
function bitCount(n: number): number {
  let count = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 2)) count += rest % 2;
  return count;
}

/**
 * The perfect subtrees that make up leaves [start, end), left to right, largest first: the stored nodes
 * whose right fold is MTH(D[start:end]) when [start, end) is a subtree range of RFC 9162's tree (a whole
 * tree [0, n), or a range that a proof names).
 */
export function rangeNodes(start: number, end: number): NodeId[] {
  requireCount(start, 'range start');
  requireCount(end, 'range end');
  if (start > end) throw new Error(`range start ${start} is after its end ${end}`);
  const nodes: NodeId[] = [];
  let at = start;
  while (at < end) {
    let width = 1;
    let level = 0;
    while (at % (width * 2) === 0 && at + width * 2 <= end) {
      width *= 2;
      level++;
    }
    nodes.push({ level, index: at / width });
    at += width;
  }
  return nodes;
}

/** MTH of a range from its rangeNodes' hashes: the right fold h1 ‖ (h2 ‖ (… ‖ hk)). Needs at least one. */
export async function foldRange(hashes: readonly Uint8Array[], sha256: Sha256): Promise<Uint8Array> {
  if (hashes.length === 0) throw new Error('a range needs at least one node');
  let hash = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) hash = await nodeHash(hashes[i]!, hash, sha256);
  return hash;
}

/** RFC 9162 PATH(index, D[0:size]) as the ranges whose MTH are its hashes, in proof order; each as rangeNodes. */
export function inclusionProofPlan(index: number, size: number): NodeId[][] {
  requireCount(index, 'leaf index');
  requireCount(size, 'tree size');
  if (index >= size) throw new Error(`leaf index ${index} is outside the tree of size ${size}`);
  // §2.1.3.1 descends from the root; the proof lists the siblings from the leaf up, hence the reverse.
  const ranges: [number, number][] = [];
  let low = 0;
  let high = size;
  while (high - low > 1) {
    const k = splitPoint(high - low);
    if (index < low + k) {
      ranges.push([low + k, high]);
      high = low + k;
    } else {
      ranges.push([low, low + k]);
      low += k;
    }
  }
  return ranges.reverse().map(([start, end]) => rangeNodes(start, end));
}

/** RFC 9162 PROOF(first, D[0:second]) likewise; empty when first = second or first = 0. */
export function consistencyProofPlan(first: number, second: number): NodeId[][] {
  requireCount(first, 'first tree size');
  requireCount(second, 'second tree size');
  if (first > second) throw new Error(`first tree size ${first} is larger than the second ${second}`);
  if (first === 0 || first === second) return [];
  // SUBPROOF(m, D[low:high], b) of §2.1.4.1, unrolled; the innermost hash comes first, hence the reverse.
  const ranges: [number, number][] = [];
  let low = 0;
  let high = second;
  let whole = true;
  for (;;) {
    if (first === high) {
      if (!whole) ranges.push([low, high]);
      break;
    }
    const k = splitPoint(high - low);
    if (first <= low + k) {
      ranges.push([low + k, high]);
      high = low + k;
    } else {
      ranges.push([low, low + k]);
      low += k;
      whole = false;
    }
  }
  return ranges.reverse().map(([start, end]) => rangeNodes(start, end));
}

/** Every distinct node that a set of plans reads, for one query. */
export function planNodes(plans: readonly NodeId[][][]): NodeId[] {
  const seen = new Set<string>();
  const nodes: NodeId[] = [];
  for (const plan of plans)
    for (const range of plan)
      for (const node of range) {
        const key = `${node.level}:${node.index}`;
        if (seen.has(key)) continue;
        seen.add(key);
        nodes.push({ level: node.level, index: node.index });
      }
  return nodes;
}

/** Turns a plan into proof hashes, given the stored nodes it reads (looked up by level and index). */
export async function proofFromPlan(
  plan: readonly NodeId[][],
  lookup: (node: NodeId) => Uint8Array,
  sha256: Sha256,
): Promise<Uint8Array[]> {
  const proof: Uint8Array[] = [];
  for (const range of plan) proof.push(await foldRange(range.map(lookup), sha256));
  return proof;
}

/**
 * The perfect subtrees that appending `leafHashes` at `start` completes, leaves included (level 0), given
 * the hashes of rangeNodes(0, start) in order (the tree's left frontier).
 */
export async function appendNodes(
  start: number,
  frontier: readonly Uint8Array[],
  leafHashes: readonly Uint8Array[],
  sha256: Sha256,
): Promise<StoredNode[]> {
  requireCount(start, 'first new leaf index');
  const frontierIds = rangeNodes(0, start);
  if (frontier.length !== frontierIds.length)
    throw new Error(
      `a tree of size ${start} has ${frontierIds.length} frontier nodes, not ${frontier.length}`,
    );
  if (!isCount(start + leafHashes.length)) throw new Error('the tree would outgrow safe integers');
  // The frontier's levels strictly decrease, so appending works as a binary counter: a new node merges
  // with the top of the stack while they are on the same level.
  const stack: StoredNode[] = frontierIds.map((id, i) => ({ ...id, hash: frontier[i]! }));
  const completed: StoredNode[] = [];
  for (let i = 0; i < leafHashes.length; i++) {
    let node: StoredNode = { level: 0, index: start + i, hash: leafHashes[i]! };
    completed.push(node);
    while (stack.length > 0 && stack[stack.length - 1]!.level === node.level) {
      const left = stack.pop()!;
      node = {
        level: node.level + 1,
        index: left.index / 2,
        hash: await nodeHash(left.hash, node.hash, sha256),
      };
      completed.push(node);
    }
    stack.push(node);
  }
  return completed;
}

/** The root of [0, size) from the hashes of rangeNodes(0, size); the empty tree's root when size is 0. */
export async function rootFromFrontier(frontier: readonly Uint8Array[], sha256: Sha256): Promise<Uint8Array> {
  return frontier.length === 0 ? await emptyRoot(sha256) : await foldRange(frontier, sha256);
}

function isHash(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.length === HASH_LENGTH;
}

/** RFC 9162 §2.1.3.2: whether `proof` shows `leaf` (a leaf hash) at `index` in the tree of `size` with `root`. */
export async function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
  sha256: Sha256,
): Promise<boolean> {
  if (!isCount(index) || !isCount(size) || index >= size) return false;
  if (!isHash(leaf) || !isHash(root) || !proof.every(isHash)) return false;
  // fn and sn shift right through division: bit operators would stop at 2^31.
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = await nodeHash(p, r, sha256);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      r = await nodeHash(r, p, sha256);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && bytesEqual(r, root);
}

/** RFC 9162 §2.1.4.2: whether `proof` shows the tree (second, secondRoot) extends (first, firstRoot). */
export async function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
  sha256: Sha256,
): Promise<boolean> {
  if (!isCount(first) || !isCount(second) || first > second) return false;
  if (!isHash(firstRoot) || !isHash(secondRoot) || !proof.every(isHash)) return false;
  // §2.1.4 defines proofs for 0 < first < second only; the other cases have an empty proof (as in
  // transparency-dev/merkle): equal sizes need equal roots, and every tree extends the empty one.
  if (first === second) return proof.length === 0 && bytesEqual(firstRoot, secondRoot);
  if (first === 0) return proof.length === 0 && bytesEqual(firstRoot, await emptyRoot(sha256));
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = (fn - 1) / 2;
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = await nodeHash(c, fr, sha256);
      sr = await nodeHash(c, sr, sha256);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = await nodeHash(sr, c, sha256);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && bytesEqual(fr, firstRoot) && bytesEqual(sr, secondRoot);
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && bitCount(n) === 1;
}

/**
 * Computes a tree's root from its leaves as they stream in (the verifier's million entries): keeps only
 * the left frontier, so memory stays O(log n).
 */
export class TreeBuilder {
  /** The hashes of rangeNodes(0, size), largest subtree first. */
  private readonly frontier: Uint8Array[] = [];
  private count = 0;

  constructor(private readonly sha256: Sha256) {}
  get size(): number {
    return this.count;
  }
  /** Adds the next leaf hash. */
  async push(leaf: Uint8Array): Promise<void> {
    let hash = leaf;
    // Each trailing one bit of the old size is a subtree of the new leaf's width to merge with.
    for (let n = this.count; n % 2 === 1; n = (n - 1) / 2)
      hash = await nodeHash(this.frontier.pop()!, hash, this.sha256);
    this.frontier.push(hash);
    this.count++;
  }
  /** The root of the leaves pushed so far. */
  root(): Promise<Uint8Array> {
    return rootFromFrontier(this.frontier, this.sha256);
  }
}
