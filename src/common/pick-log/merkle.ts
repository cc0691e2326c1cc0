// RFC 9162 §2.1 Merkle tree with SHA-256: hashes, proofs planned over stored perfect subtrees, and the
// verification algorithms of §2.1.3.2 and §2.1.4.2.
import type { Sha256 } from '../pick-seal.js';

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

/** SHA-256 of the empty string: the root of the empty tree. */
export function emptyRoot(sha256: Sha256): Promise<Uint8Array> {
  throw new Error('not implemented');
}
/** SHA-256(0x00 ‖ entry). */
export function leafHash(entry: Uint8Array, sha256: Sha256): Promise<Uint8Array> {
  throw new Error('not implemented');
}
/** SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array, sha256: Sha256): Promise<Uint8Array> {
  throw new Error('not implemented');
}

/**
 * The perfect subtrees that make up leaves [start, end), left to right, largest first: the stored nodes
 * whose right fold is MTH(D[start:end]) when [start, end) is a subtree range of RFC 9162's tree (a whole
 * tree [0, n), or a range that a proof names).
 */
export function rangeNodes(start: number, end: number): NodeId[] {
  throw new Error('not implemented');
}

/** MTH of a range from its rangeNodes' hashes: the right fold h1 ‖ (h2 ‖ (… ‖ hk)). Needs at least one. */
export function foldRange(hashes: readonly Uint8Array[], sha256: Sha256): Promise<Uint8Array> {
  throw new Error('not implemented');
}

/** RFC 9162 PATH(index, D[0:size]) as the ranges whose MTH are its hashes, in proof order; each as rangeNodes. */
export function inclusionProofPlan(index: number, size: number): NodeId[][] {
  throw new Error('not implemented');
}

/** RFC 9162 PROOF(first, D[0:second]) likewise; empty when first = second or first = 0. */
export function consistencyProofPlan(first: number, second: number): NodeId[][] {
  throw new Error('not implemented');
}

/** Every distinct node that a set of plans reads, for one query. */
export function planNodes(plans: readonly NodeId[][][]): NodeId[] {
  throw new Error('not implemented');
}

/** Turns a plan into proof hashes, given the stored nodes it reads (looked up by level and index). */
export function proofFromPlan(
  plan: readonly NodeId[][],
  lookup: (node: NodeId) => Uint8Array,
  sha256: Sha256,
): Promise<Uint8Array[]> {
  throw new Error('not implemented');
}

/**
 * The perfect subtrees that appending `leafHashes` at `start` completes, leaves included (level 0), given
 * the hashes of rangeNodes(0, start) in order (the tree's left frontier).
 */
export function appendNodes(
  start: number,
  frontier: readonly Uint8Array[],
  leafHashes: readonly Uint8Array[],
  sha256: Sha256,
): Promise<StoredNode[]> {
  throw new Error('not implemented');
}

/** The root of [0, size) from the hashes of rangeNodes(0, size); the empty tree's root when size is 0. */
export function rootFromFrontier(frontier: readonly Uint8Array[], sha256: Sha256): Promise<Uint8Array> {
  throw new Error('not implemented');
}

/** RFC 9162 §2.1.3.2: whether `proof` shows `leaf` (a leaf hash) at `index` in the tree of `size` with `root`. */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
  sha256: Sha256,
): Promise<boolean> {
  throw new Error('not implemented');
}

/** RFC 9162 §2.1.4.2: whether `proof` shows the tree (second, secondRoot) extends (first, firstRoot). */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
  sha256: Sha256,
): Promise<boolean> {
  throw new Error('not implemented');
}

/**
 * Computes a tree's root from its leaves as they stream in (the verifier's million entries): keeps only
 * the left frontier, so memory stays O(log n).
 */
export class TreeBuilder {
  constructor(private readonly sha256: Sha256) {}
  get size(): number {
    throw new Error('not implemented');
  }
  /** Adds the next leaf hash. */
  push(leaf: Uint8Array): Promise<void> {
    throw new Error('not implemented');
  }
  /** The root of the leaves pushed so far. */
  root(): Promise<Uint8Array> {
    throw new Error('not implemented');
  }
}
