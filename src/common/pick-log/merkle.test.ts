import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { concatBytes } from './base64.js';
import {
  appendNodes,
  consistencyProofPlan,
  emptyRoot,
  foldRange,
  inclusionProofPlan,
  leafHash,
  nodeHash,
  planNodes,
  proofFromPlan,
  rangeNodes,
  rootFromFrontier,
  TreeBuilder,
  verifyConsistency,
  verifyInclusion,
  type NodeId,
  type StoredNode,
} from './merkle.js';

// The two exhaustive tests below check every size (and every pair of sizes) up to 70: on a small machine,
// with the other unit files running beside them, they can outlast the default 5 s limit.
const EXHAUSTIVE_TIMEOUT_MS = 60_000;

const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());
const hex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
const toHexString = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

// Certificate Transparency's reference tree: the 8 leaves and the roots of D[0:1] … D[0:8], and known proofs,
// as in transparency-dev/merkle proof/verify_test.go (also Go's crypto/tls and CT's C++ merkle_tree_test).
const CT_LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
];
const CT_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
// Leaf indices from 0 (the Go file counts them from 1).
const CT_INCLUSION: { index: number; size: number; proof: string[] }[] = [
  {
    index: 0,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { index: 2, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];
const CT_CONSISTENCY: { first: number; second: number; proof: string[] }[] = [
  {
    first: 1,
    second: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    first: 6,
    second: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    first: 2,
    second: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  {
    first: 6,
    second: 7,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

// RFC 9162 §2.1.1, §2.1.3.1 and §2.1.4.1 written as the recursive definitions, straight from the leaves:
// the reference the stored-node plans are checked against.
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}
function mth(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha256(new Uint8Array(0));
  if (leaves.length === 1) return sha256(concatBytes(new Uint8Array([0]), leaves[0]!));
  const k = split(leaves.length);
  return sha256(concatBytes(new Uint8Array([1]), mth(leaves.slice(0, k)), mth(leaves.slice(k))));
}
function path(m: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  if (leaves.length === 1) return [];
  const k = split(leaves.length);
  return m < k
    ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))]
    : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
}
function subproof(m: number, leaves: readonly Uint8Array[], whole: boolean): Uint8Array[] {
  const n = leaves.length;
  if (m === n) return whole ? [] : [mth(leaves)];
  const k = split(n);
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), whole), mth(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
}

function entries(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => new TextEncoder().encode(`entry ${i}`));
}

/** Every stored node of a tree, built by appendNodes one leaf at a time. */
async function buildStore(leaves: readonly Uint8Array[]): Promise<Map<string, Uint8Array>> {
  const store = new Map<string, Uint8Array>();
  for (let i = 0; i < leaves.length; i++) {
    const frontier = rangeNodes(0, i).map((node) => store.get(key(node))!);
    const added = await appendNodes(i, frontier, [await leafHash(leaves[i]!, sha256)], sha256);
    for (const node of added) store.set(key(node), node.hash);
  }
  return store;
}
const key = (node: NodeId): string => `${node.level}:${node.index}`;
const flipBit = (proof: readonly Uint8Array[], at: number): Uint8Array[] =>
  proof.map((hash, i) => (i === at ? hash.map((byte, j) => (j === 0 ? byte ^ 8 : byte)) : hash));

describe('the RFC 9162 tree', () => {
  it('hashes the empty tree, leaves and nodes as RFC 9162 §2.1.1 says', async () => {
    expect(toHexString(await emptyRoot(sha256))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(toHexString(await leafHash(new Uint8Array(0), sha256))).toBe(CT_ROOTS[0]);
    const left = hex(CT_ROOTS[0]!);
    const right = await leafHash(hex('00'), sha256);
    expect(toHexString(await nodeHash(left, right, sha256))).toBe(CT_ROOTS[1]);
  });

  it("gives Certificate Transparency's reference roots for D[0:1] … D[0:8], from the frontier and streaming", async () => {
    const leaves = CT_LEAVES.map(hex);
    const builder = new TreeBuilder(sha256);
    const store = await buildStore(leaves);
    for (let size = 1; size <= 8; size++) {
      await builder.push(await leafHash(leaves[size - 1]!, sha256));
      const frontier = rangeNodes(0, size).map((node) => store.get(key(node))!);
      expect(toHexString(await rootFromFrontier(frontier, sha256))).toBe(CT_ROOTS[size - 1]);
      expect(toHexString(await builder.root())).toBe(CT_ROOTS[size - 1]);
      expect(builder.size).toBe(size);
    }
  });

  it("plans Certificate Transparency's known inclusion and consistency proofs, and verifies them", async () => {
    const leaves = CT_LEAVES.map(hex);
    const store = await buildStore(leaves);
    const lookup = (node: NodeId): Uint8Array => store.get(key(node))!;
    for (const vector of CT_INCLUSION) {
      const proof = await proofFromPlan(inclusionProofPlan(vector.index, vector.size), lookup, sha256);
      expect(proof.map(toHexString)).toEqual(vector.proof);
      const leaf = await leafHash(leaves[vector.index]!, sha256);
      const root = hex(CT_ROOTS[vector.size - 1]!);
      expect(
        await verifyInclusion(leaf, vector.index, vector.size, vector.proof.map(hex), root, sha256),
      ).toBe(true);
    }
    for (const vector of CT_CONSISTENCY) {
      const proof = await proofFromPlan(consistencyProofPlan(vector.first, vector.second), lookup, sha256);
      expect(proof.map(toHexString)).toEqual(vector.proof);
      const [firstRoot, secondRoot] = [hex(CT_ROOTS[vector.first - 1]!), hex(CT_ROOTS[vector.second - 1]!)];
      expect(
        await verifyConsistency(
          vector.first,
          vector.second,
          firstRoot,
          secondRoot,
          vector.proof.map(hex),
          sha256,
        ),
      ).toBe(true);
      expect(
        await verifyConsistency(
          vector.first,
          vector.second,
          secondRoot,
          firstRoot,
          vector.proof.map(hex),
          sha256,
        ),
      ).toBe(false);
    }
  });

  it('decomposes ranges into maximal aligned perfect subtrees, largest first', () => {
    expect(rangeNodes(0, 0)).toEqual([]);
    expect(rangeNodes(0, 13)).toEqual([
      { level: 3, index: 0 },
      { level: 2, index: 2 },
      { level: 0, index: 12 },
    ]);
    expect(rangeNodes(4, 7)).toEqual([
      { level: 1, index: 2 },
      { level: 0, index: 6 },
    ]);
    expect(rangeNodes(0, 2 ** 40 + 1)).toEqual([
      { level: 40, index: 0 },
      { level: 0, index: 2 ** 40 },
    ]);
    expect(() => rangeNodes(3, 2)).toThrow();
    expect(() => rangeNodes(-1, 2)).toThrow();
    expect(() => rangeNodes(0, 1.5)).toThrow();
  });

  it('refuses plans outside the tree', async () => {
    expect(() => inclusionProofPlan(3, 3)).toThrow(/outside/);
    expect(() => inclusionProofPlan(0, 0)).toThrow(/outside/);
    expect(() => inclusionProofPlan(-1, 3)).toThrow();
    expect(() => inclusionProofPlan(0.5, 3)).toThrow();
    expect(() => consistencyProofPlan(4, 3)).toThrow(/larger/);
    expect(() => consistencyProofPlan(-1, 3)).toThrow();
    expect(consistencyProofPlan(0, 5)).toEqual([]);
    expect(consistencyProofPlan(5, 5)).toEqual([]);
    await expect(foldRange([], sha256)).rejects.toThrow();
  });

  it(
    'for every size 1..70, inclusion proofs from stored nodes are RFC 9162 PATH and verify; tampered ones do not',
    async () => {
      const leaves = entries(70);
      const store = await buildStore(leaves);
      const lookup = (node: NodeId): Uint8Array => {
        const hash = store.get(key(node));
        if (!hash) throw new Error(`node ${key(node)} was never stored`);
        return hash;
      };
      const leafHashes = await Promise.all(leaves.map((entry) => leafHash(entry, sha256)));
      const roots = [await emptyRoot(sha256)];
      for (let size = 1; size <= 70; size++) roots.push(mth(leaves.slice(0, size)));
      let checked = 0;
      for (let size = 1; size <= 70; size++) {
        const root = roots[size]!;
        for (let index = 0; index < size; index++) {
          const plan = inclusionProofPlan(index, size);
          const proof = await proofFromPlan(plan, lookup, sha256);
          expect(proof.map(toHexString)).toEqual(path(index, leaves.slice(0, size)).map(toHexString));
          const leaf = leafHashes[index]!;
          expect(await verifyInclusion(leaf, index, size, proof, root, sha256)).toBe(true);
          const wrong: [number, number, Uint8Array[], Uint8Array, Uint8Array][] = [
            [index, size, proof, roots[size - 1]!, leaf],
            [index, size, proof, root, leafHashes[(index + 1) % 70]!],
            [index, size, [...proof, root], root, leaf],
            [index, size, [root, ...proof], root, leaf],
            ...(proof.length > 0
              ? ([
                  [index, size, proof.slice(1), root, leaf],
                  [index, size, proof.slice(0, -1), root, leaf],
                ] as [number, number, Uint8Array[], Uint8Array, Uint8Array][])
              : []),
            [index - 1, size, proof, root, leaf],
            [index + 1, size, proof, root, leaf],
            [index, size * 2, proof, root, leaf],
            [index, size * 2, proof, roots[Math.min(size * 2, 70)]!, leaf],
            [index, Math.floor(size / 2), proof, root, leaf],
            [index, size + 1, proof, roots[size + 1] ?? roots[1]!, leaf],
            [index, size - 1, proof, roots[size - 1]!, leaf],
            ...proof.map((_, at): [number, number, Uint8Array[], Uint8Array, Uint8Array] => [
              index,
              size,
              flipBit(proof, at),
              root,
              leaf,
            ]),
          ];
          for (const [i, n, p, r, l] of wrong)
            expect(
              await verifyInclusion(l, i, n, p, r, sha256),
              `index ${i} of ${n} (really ${index} of ${size})`,
            ).toBe(false);
          checked++;
        }
      }
      expect(checked).toBe((70 * 71) / 2);
    },
    EXHAUSTIVE_TIMEOUT_MS,
  );

  it(
    'for every 1 ≤ first ≤ second ≤ 70, consistency proofs are RFC 9162 PROOF and verify; tampered ones do not',
    async () => {
      const leaves = entries(70);
      const store = await buildStore(leaves);
      const lookup = (node: NodeId): Uint8Array => store.get(key(node))!;
      const roots = [await emptyRoot(sha256)];
      for (let size = 1; size <= 70; size++) roots.push(mth(leaves.slice(0, size)));
      for (let second = 1; second <= 70; second++) {
        expect(await verifyConsistency(0, second, roots[0]!, roots[second]!, [], sha256)).toBe(true);
        expect(await verifyConsistency(0, second, roots[1]!, roots[second]!, [], sha256)).toBe(false);
        for (let first = 1; first <= second; first++) {
          const plans = [consistencyProofPlan(first, second), inclusionProofPlan(first - 1, second)];
          const needed = planNodes(plans);
          expect(new Set(needed.map(key)).size).toBe(needed.length);
          const proof = await proofFromPlan(plans[0]!, lookup, sha256);
          expect(proof.map(toHexString)).toEqual(
            subproof(first, leaves.slice(0, second), true).map(toHexString),
          );
          const [r1, r2] = [roots[first]!, roots[second]!];
          expect(await verifyConsistency(first, second, r1, r2, proof, sha256)).toBe(true);
          if (first === second) {
            expect(await verifyConsistency(first, second, r1, roots[first - 1]!, proof, sha256)).toBe(false);
            expect(await verifyConsistency(first, second, r1, r2, [r1], sha256)).toBe(false);
            continue;
          }
          const wrong: [number, number, Uint8Array, Uint8Array, Uint8Array[]][] = [
            // A wrong size is checked with that size's own root: the sizes are bound to the proof through the
            // roots (a proof for 1 → 3 also fits 1 → 4 if given the root of 3).
            [first - 1, second, roots[first - 1]!, r2, proof],
            [first + 1, second, roots[first + 1]!, r2, proof],
            [first, second - 1, r1, roots[second - 1]!, proof],
            [first, second + 1, r1, roots[second + 1] ?? roots[1]!, proof],
            [first, second * 2, r1, r2, proof],
            [first, Math.floor(second / 2), r1, r2, proof],
            [first, second, r2, r1, proof],
            [first, second, roots[first - 1]!, r2, proof],
            [first, second, r1, roots[second - 1]!, proof],
            [first, second, r1, r2, []],
            [first, second, r1, r2, [...proof, r1]],
            [first, second, r1, r2, [...proof, new Uint8Array(0)]],
            [first, second, r1, r2, [r2, ...proof]],
            [first, second, r1, r2, [proof[0]!, ...proof]],
            [first, second, r1, r2, proof.slice(0, -1)],
            [second, first, r2, r1, proof],
            ...proof.map((_, at): [number, number, Uint8Array, Uint8Array, Uint8Array[]] => [
              first,
              second,
              r1,
              r2,
              flipBit(proof, at),
            ]),
          ];
          for (const [m, n, a, b, p] of wrong)
            expect(
              await verifyConsistency(m, n, a, b, p, sha256),
              `${m} → ${n} (really ${first} → ${second})`,
            ).toBe(false);
        }
      }
    },
    EXHAUSTIVE_TIMEOUT_MS,
  );

  it('refuses malformed verification input with false, not an exception', async () => {
    const root = mth(entries(4));
    const leaf = await leafHash(entries(1)[0]!, sha256);
    expect(await verifyInclusion(leaf, -1, 4, [], root, sha256)).toBe(false);
    expect(await verifyInclusion(leaf, 0.5, 4, [], root, sha256)).toBe(false);
    expect(await verifyInclusion(leaf, 0, Number.NaN, [], root, sha256)).toBe(false);
    expect(await verifyInclusion(leaf, 0, 0, [], await emptyRoot(sha256), sha256)).toBe(false);
    expect(await verifyInclusion(leaf, 0, 1, [], leaf, sha256)).toBe(true);
    expect(await verifyInclusion(leaf.slice(1), 0, 1, [], leaf.slice(1), sha256)).toBe(false);
    expect(await verifyConsistency(2, 1, root, root, [], sha256)).toBe(false);
    expect(await verifyConsistency(-1, 4, root, root, [], sha256)).toBe(false);
    expect(await verifyConsistency(1, 2 ** 60, root, root, [root], sha256)).toBe(false);
  });

  it('appendNodes gives the same nodes in batches of any size as one leaf at a time, each the MTH of its leaves', async () => {
    const leaves = entries(200);
    const leafHashes = await Promise.all(leaves.map((entry) => leafHash(entry, sha256)));
    const oneByOne = await buildStore(leaves);
    for (let level = 0; 2 ** level <= 200; level++)
      for (let index = 0; (index + 1) * 2 ** level <= 200; index++) {
        const hash = oneByOne.get(key({ level, index }));
        expect(hash && toHexString(hash), `node ${level}:${index}`).toBe(
          toHexString(mth(leaves.slice(index * 2 ** level, (index + 1) * 2 ** level))),
        );
      }
    expect(oneByOne.size).toBe(200 * 2 - 3); // every perfect subtree of 200 = 128 + 64 + 8 leaves
    for (const batch of [2, 3, 5, 7, 64, 199, 200]) {
      const store = new Map<string, Uint8Array>();
      const order: string[] = [];
      for (let start = 0; start < 200; start += batch) {
        const frontier = rangeNodes(0, start).map((node) => store.get(key(node))!);
        const added: StoredNode[] = await appendNodes(
          start,
          frontier,
          leafHashes.slice(start, start + batch),
          sha256,
        );
        for (const node of added) {
          expect(store.has(key(node)), `node ${key(node)} twice`).toBe(false);
          store.set(key(node), node.hash);
          order.push(key(node));
        }
      }
      expect(new Map([...store].map(([k, v]) => [k, toHexString(v)]))).toEqual(
        new Map([...oneByOne].map(([k, v]) => [k, toHexString(v)])),
      );
    }
  });

  it('appendNodes takes 10,000 leaves at once, from an empty tree or after others, and agrees with TreeBuilder', async () => {
    const leafHashes = await Promise.all(entries(10_123 + 10_000).map((entry) => leafHash(entry, sha256)));
    const builder = new TreeBuilder(sha256);
    for (const leaf of leafHashes) await builder.push(leaf);
    const first = await appendNodes(0, [], leafHashes.slice(0, 10_123), sha256);
    const store = new Map(first.map((node) => [key(node), node.hash]));
    const frontier = rangeNodes(0, 10_123).map((node) => store.get(key(node))!);
    const second = await appendNodes(10_123, frontier, leafHashes.slice(10_123), sha256);
    for (const node of second) store.set(key(node), node.hash);
    expect(store.size).toBe(first.length + second.length);
    const root = await rootFromFrontier(
      rangeNodes(0, 20_123).map((node) => store.get(key(node))!),
      sha256,
    );
    expect(toHexString(root)).toBe(toHexString(await builder.root()));
    await expect(appendNodes(5, [], leafHashes.slice(0, 1), sha256)).rejects.toThrow(/frontier/);
  });

  it("TreeBuilder's root equals rootFromFrontier's for every size, from 0", async () => {
    const leaves = entries(300);
    const builder = new TreeBuilder(sha256);
    const store = await buildStore(leaves);
    expect(toHexString(await builder.root())).toBe(toHexString(await emptyRoot(sha256)));
    expect(toHexString(await rootFromFrontier([], sha256))).toBe(toHexString(await emptyRoot(sha256)));
    for (let size = 1; size <= 300; size++) {
      await builder.push(store.get(key({ level: 0, index: size - 1 }))!);
      const frontier = rangeNodes(0, size).map((node) => store.get(key(node))!);
      expect(toHexString(await builder.root()), `size ${size}`).toBe(
        toHexString(await rootFromFrontier(frontier, sha256)),
      );
    }
    expect(toHexString(await builder.root())).toBe(toHexString(mth(leaves)));
  });
});
