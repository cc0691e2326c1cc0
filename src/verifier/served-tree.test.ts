// The served tree's checks against a fake site (testing/fake-site.ts), whose tiles and proofs are read from
// stored nodes an operator may alter after signing, as the server's are.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyConsistency, verifyInclusion } from '../common/pick-log/index.js';
import { SiteClient } from './http.js';
import { run } from './main.js';
import {
  BUNDLES,
  COVERING_PROOFS,
  EVERY_PROOF_UP_TO,
  LeafHashes,
  OwnTree,
  RANDOM_PROOFS,
  bundlesOf,
  checkServedTree,
  consistencySizes,
  inclusionIndices,
  tilesOf,
  type ServedTreeOptions,
} from './served-tree.js';
import { FakeSite, HonestLog, StoredTree, honestLog, sha256, treeRoot } from './testing/fake-site.js';
import { verifySite } from './verify-site.js';
import { verificationFailure as failure } from './testing/failure.js';

const sites: FakeSite[] = [];
let home: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pickreel-served-'));
});
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
  await rm(home, { recursive: true, force: true });
});

const leafOf = (entry: Uint8Array) => sha256(Buffer.concat([Buffer.from([0]), entry]));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
/** Entries the served checks never parse: only their bytes and hashes matter here. */
const entriesOf = (count: number) => Array.from({ length: count }, (_, i) => Buffer.from(`entry ${i}`));

function leavesOf(entries: readonly Uint8Array[]): LeafHashes {
  const leaves = new LeafHashes();
  for (const entry of entries) leaves.push(leafOf(entry));
  return leaves;
}

/** A fake site signing `entries` (the checks below do not read the checkpoint: they are given the root). */
async function siteSigning(entries: Uint8Array[]): Promise<FakeSite> {
  const site = await FakeSite.honest(new HonestLog());
  sites.push(site);
  site.state.signed = entries;
  return site;
}

function check(site: FakeSite, options: ServedTreeOptions = {}) {
  const entries = site.state.signed;
  return checkServedTree(
    new SiteClient(new URL(site.url), globalThis.fetch),
    leavesOf(entries),
    { size: entries.length, rootHash: treeRoot(entries) },
    options,
  );
}


const altered = (hash: Uint8Array) => createHash('sha256').update(hash).digest();

describe('the verifier’s own tree', () => {
  it('keeps the leaf hashes packed, growing past what it allocated', () => {
    const entries = entriesOf(100);
    const leaves = leavesOf(entries);
    expect(leaves.size).toBe(100);
    expect(Buffer.from(leaves.packed())).toEqual(Buffer.concat(entries.map(leafOf)));
  });

  it('writes the same proofs as the fake site, and they verify against the root', async () => {
    for (let size = 1; size <= 40; size++) {
      const entries = entriesOf(size);
      const root = treeRoot(entries);
      const own = new OwnTree(leavesOf(entries).packed());
      const theirs = new StoredTree(entries);
      expect(Buffer.from(own.root())).toEqual(root);
      for (let index = 0; index < size; index++) {
        const proof = own.inclusionProof(index, size).map((hash) => Buffer.from(hash.hash));
        expect(proof).toEqual(theirs.inclusionProof(index, size));
        expect(await verifyInclusion(leafOf(entries[index]!), index, size, proof, root, sha256)).toBe(true);
      }
      for (let first = 1; first < size; first++) {
        const proof = own.consistencyProof(first, size).map((hash) => Buffer.from(hash.hash));
        expect(proof).toEqual(theirs.consistencyProof(first, size));
        expect(await verifyConsistency(first, size, own.root(first), root, proof, sha256)).toBe(true);
      }
    }
  });
});

describe('what is checked', () => {
  it('every tile of each level, the partial one at its end included', () => {
    expect(tilesOf(0)).toEqual([]);
    expect(tilesOf(300)).toEqual([
      { level: 0, index: 0, width: 256 },
      { level: 0, index: 1, width: 44 },
      { level: 1, index: 0, width: 1 },
    ]);
    const million = tilesOf(1_000_000);
    expect(million.filter((tile) => tile.level === 0)).toHaveLength(3907);
    expect(million.filter((tile) => tile.level > 0)).toEqual([
      ...Array.from({ length: 15 }, (_, index) => ({ level: 1, index, width: 256 })),
      { level: 1, index: 15, width: 66 },
      { level: 2, index: 0, width: 15 },
    ]);
  });

  it('every inclusion proof and every earlier size of a small log', () => {
    expect(inclusionIndices(EVERY_PROOF_UP_TO)).toEqual([...Array(EVERY_PROOF_UP_TO).keys()]);
    expect(consistencySizes(5)).toEqual([1, 2, 3, 4]);
    expect(consistencySizes(1)).toEqual([]);
  });

  it('above that, proofs whose siblings are every node from some level up, and random ones', () => {
    for (const size of [EVERY_PROOF_UP_TO + 1, 5000, 1_000_000]) {
      const indices = inclusionIndices(size);
      expect(indices.length).toBeLessThanOrEqual(COVERING_PROOFS + RANDOM_PROOFS + 1);
      expect(new Set(indices).size).toBe(indices.length);
      expect(indices.every((index) => Number.isSafeInteger(index) && index >= 0 && index < size)).toBe(true);
    }
    // Every perfect subtree from the lowest covered level up is a whole hash of, or folded into, a proof.
    const size = 5000;
    const tree = new OwnTree(leavesOf(entriesOf(size)).packed());
    const read = new Set<string>();
    for (const index of inclusionIndices(size, () => 0))
      for (const { start, end } of tree.inclusionProof(index, size)) {
        // The stored nodes a server folds the range from: its largest aligned pieces, left to right.
        for (let at = start; at < end;) {
          let width = 1;
          while (at % (2 * width) === 0 && at + 2 * width <= end) width *= 2;
          read.add(`${Math.log2(width)}:${at / width}`);
          at += width;
        }
      }
    const lowest = Math.log2(8); // 5,000 leaves: every 8th has at most 1,024 proofs
    for (let level = lowest; 2 ** level <= size; level++)
      for (let index = 0; (index + 1) * 2 ** level <= size; index++)
        expect(read.has(`${level}:${index}`), `node ${level}:${index}`).toBe(true);
  });

  it('every entry bundle of a small log; of a large one, the first, the last and random ones', () => {
    expect(bundlesOf(BUNDLES * 256)).toEqual(
      Array.from({ length: BUNDLES }, (_, index) => ({ level: 0, index, width: 256 })),
    );
    const bundles = bundlesOf(1_000_000);
    expect(bundles).toHaveLength(BUNDLES + 2);
    expect(bundles[0]).toEqual({ level: 0, index: 0, width: 256 });
    expect(bundles.at(-1)).toEqual({ level: 0, index: 3906, width: 64 });
    expect(new Set(bundles.map((bundle) => bundle.index)).size).toBe(bundles.length);
    expect(bundles.map((bundle) => bundle.index)).toEqual(
      bundles.map((bundle) => bundle.index).sort((a, b) => a - b),
    );
  });

  it('consistency proofs from the powers of two, the size before and random sizes', () => {
    const sizes = consistencySizes(1_000_000);
    expect(sizes).toEqual(expect.arrayContaining([1, 2, 4, 524_288, 999_999]));
    expect(sizes.every((size) => size >= 1 && size < 1_000_000)).toBe(true);
    expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
  });
});

describe('an honest site', () => {
  // Whole sites signed and checked: seconds on a loaded 2-core machine, hence the longer limit.
  it('passes at sizes around every edge of a tile and of the small-log threshold', async () => {
    for (const size of [1, 2, 7, 256, 300, EVERY_PROOF_UP_TO + 1]) {
      const site = await siteSigning(entriesOf(size));
      await check(site);
    }
  }, 30_000);

  // A 70,000-entry site signed and checked: seconds on a loaded 2-core machine.
  it('passes with three levels of tiles, each tile and bundle asked for once', async () => {
    const site = await siteSigning(entriesOf(70_000));
    await check(site, { concurrency: 8 });
    const tiles = site.requests.filter((request) => request.startsWith('/api/log/tile/'));
    expect(new Set(tiles).size).toBe(tiles.length);
    // 274 tiles on level 0, 2 on level 1, 1 on level 2; of the 274 bundles, the first, the last, 64 others.
    expect(tiles).toHaveLength(274 + 2 + 1 + BUNDLES + 2);
    expect(tiles).toEqual(
      expect.arrayContaining([
        '/api/log/tile/0/273.p/112',
        '/api/log/tile/1/000',
        '/api/log/tile/1/001.p/17',
        '/api/log/tile/2/000.p/1',
        '/api/log/tile/entries/273.p/112',
      ]),
    );
  }, 30_000);
});

describe('a stored node altered after signing', () => {
  it('a leaf hash: the tile holding it, named with the hash and the entry', async () => {
    const site = await siteSigning(entriesOf(300));
    const honest = new StoredTree(site.state.signed).stored(0, 257);
    site.state.altered.set('0:257', altered(honest));

    expect(await failure(check(site))).toEqual({
      kind: 'served',
      message:
        "tile 0/001.p/44 (level 0, index 1) differs from the log's entries at hash 1 (entry 257): " +
        `the site serves ${b64(altered(honest))}, the entries give ${b64(honest)}`,
    });
  });

  it('a node of level 8: the level-1 tile, naming the entries under it', async () => {
    const site = await siteSigning(entriesOf(300));
    site.state.altered.set('8:0', Buffer.alloc(32, 7));
    const { kind, message } = await failure(check(site));
    expect(kind).toBe('served');
    expect(message).toMatch(
      /^tile 1\/000\.p\/1 \(level 1, index 0\) differs from the log's entries at hash 0 \(entries 0–255\): the site serves BwcH/,
    );
  });

  it('an interior node no tile holds: the first inclusion proof that reads it', async () => {
    const site = await siteSigning(entriesOf(50));
    const honest = new StoredTree(site.state.signed).stored(3, 1);
    site.state.altered.set('3:1', altered(honest));
    // Entry 0's siblings: 1, 2–3, 4–7, 8–15, 16–31, 32–49.
    expect(await failure(check(site))).toEqual({
      kind: 'served',
      message:
        'the site serves a wrong inclusion proof for entry 0 in a tree of 50: hash 4 of 6 (entries 8–15) is ' +
        `${b64(altered(honest))}, the log's entries give ${b64(honest)}`,
    });
  });

  it('two altered nodes: the earliest check is named, however many run at once', async () => {
    for (const concurrency of [1, 3, 16]) {
      const site = await siteSigning(entriesOf(600));
      site.state.altered.set('0:520', Buffer.alloc(32, 1));
      site.state.altered.set('0:3', Buffer.alloc(32, 2));
      expect((await failure(check(site, { concurrency }))).message).toMatch(
        /^tile 0\/000 \(level 0, index 0\) differs from the log's entries at hash 3 \(entry 3\)/,
      );
    }
  });

  it('fails the whole verifier with kind served and one line, exit 1', async () => {
    const log = await honestLog();
    const site = await FakeSite.honest(log);
    sites.push(site);
    site.state.altered.set('2:3', Buffer.alloc(32, 9));

    const error = await failure(verifySite(site.url, {}, { stateDir: home }));
    expect(error.kind).toBe('served');
    expect(error.message).toMatch(/^the site serves a wrong inclusion proof for entry 8 in a tree of \d+: /);

    const stderr = new PassThrough();
    const chunks: Buffer[] = [];
    stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    const code = await run([site.url, '--quiet'], {
      stdout: new PassThrough(),
      stderr,
      env: { PICKREEL_VERIFY_HOME: home },
    });
    expect(code).toBe(1);
    expect(Buffer.concat(chunks).toString('utf8')).toMatch(
      /^✗ the site serves a wrong inclusion proof [^\n]*\n$/,
    );
  });
});

describe('what the site answers, wrong', () => {
  it('a consistency proof with one hash changed', async () => {
    const site = await siteSigning(entriesOf(50));
    const proof = new StoredTree(site.state.signed).consistencyProof(20, 50);
    const wrong = proof.map((hash, i) => (i === 1 ? altered(hash) : hash));
    site.state.answers.set(
      '/api/log/proof/consistency?first=20&second=50',
      JSON.stringify({ first: 20, second: 50, hashes: wrong.map(b64) }),
    );
    // PROOF(20, D[0:50]): 16–19, 20–23, 24–31, 0–15, 32–49.
    expect(await failure(check(site))).toEqual({
      kind: 'served',
      message:
        'the site serves a wrong consistency proof from 20 to 50 entries: hash 2 of 5 (entries 20–23) is ' +
        `${b64(wrong[1]!)}, the log's entries give ${b64(proof[1]!)}`,
    });
  });

  it('a proof one hash short, or for another tree', async () => {
    const site = await siteSigning(entriesOf(50));
    const proof = new StoredTree(site.state.signed).inclusionProof(9, 50);
    site.state.answers.set(
      '/api/log/proof/inclusion?index=9&treeSize=50',
      JSON.stringify({ index: 9, treeSize: 50, hashes: proof.slice(0, -1).map(b64) }),
    );
    expect((await failure(check(site))).message).toBe(
      "the site serves a wrong inclusion proof for entry 9 in a tree of 50: it has 5 hashes, the log's entries give 6",
    );
    site.state.answers.set(
      '/api/log/proof/inclusion?index=9&treeSize=50',
      JSON.stringify({ index: 9, treeSize: 49, hashes: proof.map(b64) }),
    );
    expect((await failure(check(site))).message).toMatch(
      /^the site serves a wrong inclusion proof for entry 9 in a tree of 50: GET \/api\/log\/proof\/inclusion\?index=9&treeSize=50 did not answer/,
    );
  });

  it('an entry bundle with other bytes than the entries endpoint, or cut short', async () => {
    const site = await siteSigning(entriesOf(50));
    site.state.served = site.state.signed.map((entry, i) => (i === 7 ? Buffer.from('entry 7!') : entry));
    expect(await failure(check(site))).toEqual({
      kind: 'served',
      message:
        'entry bundle entries/000.p/50 (entries 0–49) holds other bytes for entry 7 than /api/log/entries served',
    });
    site.state.served = null;
    site.state.answers.set('/api/log/tile/entries/000.p/50', new Uint8Array([0, 9, 1]));
    expect((await failure(check(site))).message).toBe(
      'entry bundle entries/000.p/50 (entries 0–49) is not an entry bundle: entry bundle: an entry cut short',
    );
  });

  it('a tile of the wrong length', async () => {
    const site = await siteSigning(entriesOf(50));
    site.state.answers.set('/api/log/tile/0/000.p/50', new Uint8Array(32 * 49));
    expect((await failure(check(site))).message).toBe(
      'tile 0/000.p/50 (level 0, index 0) has 1,568 bytes, not the 1,600 of 50 hashes',
    );
  });

  it('a tile it does not serve is its fault; a server error stays a network failure', async () => {
    const site = await siteSigning(entriesOf(50));
    site.state.failures.set('/api/log/tile/', 404);
    expect(await failure(check(site))).toEqual({
      kind: 'served',
      message:
        'the site does not serve tile 0/000.p/50 (level 0, index 0): GET /api/log/tile/0/000.p/50 answered 404 Not Found: Something went wrong',
    });
    site.state.failures.set('/api/log/tile/', 500);
    expect(await failure(check(site))).toMatchObject({ kind: 'network' });
  });

  it('an empty log has nothing to serve', async () => {
    const site = await siteSigning([]);
    await check(site);
    expect(site.requests).toEqual([]);
  });
});
