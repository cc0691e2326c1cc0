import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  appendNodes,
  ed25519KeyId,
  entryBytes,
  formatCheckpoint,
  formatSignedNote,
  formatVerifierKey,
  inclusionProofPlan,
  leafHash,
  proofFromPlan,
  rangeNodes,
  rootFromFrontier,
  toBase64,
  type LogEntry,
  type PickEntry,
  type SettledEntry,
  type NodeId,
} from '#common/pick-log/index.js';
import { canonicalBytes, type SealedPick } from '#common/pick-seal.js';
import type { PickLogRef } from '#common/schemas/pick-views.js';
import { verifyPickLog, type PickLogSubject, type VerifyProgress } from './verify-pick-log';

// The server's side, played with node:crypto and the common formats: a log of a few picks' entries, its
// signed checkpoint and proofs, served by a fake fetch that a test may make dishonest in one way.
const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());
const ORIGIN = 'pickreel.test/pick-log';
const VIDEO_ID = 42;

function ed25519Pair(): { privateKey: KeyObject; publicKey: Uint8Array } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  // The raw 32-byte key is the last 32 bytes of its SPKI DER encoding.
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { privateKey, publicKey: new Uint8Array(der.subarray(der.length - 32)) };
}
const logKey = ed25519Pair();

const sealedV1: SealedPick = {
  v: 1,
  capper: 'sharp_sam',
  videoId: VIDEO_ID,
  postedAt: '2026-11-25T18:30:00Z',
  selections: 'Lakers -3.5',
  legs: [
    {
      league: 'NBA',
      home: 'Lakers',
      away: 'Celtics',
      startsAt: '2026-11-26T00:30:00Z',
      market: 'spread',
      side: 'Lakers',
      line: -3.5,
      odds: -110,
      units: 1,
    },
  ],
  parlay: false,
  salt: 'a1'.repeat(32),
};
const sealedV2: SealedPick = {
  ...sealedV1,
  postedAt: '2026-11-25T19:00:00Z',
  legs: [{ ...sealedV1.legs[0]!, odds: -105 }],
};
const commitmentOf = (sealed: SealedPick) =>
  createHash('sha256').update(canonicalBytes(sealed)).digest('hex');
const V1 = commitmentOf(sealedV1);
const V2 = commitmentOf(sealedV2);

function entry(type: PickEntry['type'], at: string, extra: Partial<PickEntry> = {}): PickEntry {
  return { v: 1, type, videoId: VIDEO_ID, capper: 'sharp_sam', commitment: V2, at, ...extra };
}
const other = (videoId: number, at: string): PickEntry => ({
  v: 1,
  type: 'posted',
  videoId,
  capper: 'someone_else',
  commitment: 'c3'.repeat(32),
  at,
  version: 1,
});

/** Seven entries; this pick's are #1 (posted), #3 (revised), #5 (graded). */
const LOG: LogEntry[] = [
  other(40, '2026-11-25T18:00:00Z'),
  entry('posted', '2026-11-25T18:30:00Z', { commitment: V1, version: 1 }),
  other(41, '2026-11-25T18:45:00Z'),
  entry('revised', '2026-11-25T19:00:00Z', { version: 2 }),
  other(43, '2026-11-25T20:00:00Z'),
  entry('graded', '2026-11-26T03:00:00Z', { result: 'win', unitsWon: 0.91, unitsRisked: 1 }),
  other(44, '2026-11-26T04:00:00Z'),
];

const REFS: PickLogRef[] = [
  { index: 1, type: 'posted', at: '2026-11-25T18:30:00Z', title: 'Sealed — version 1' },
  { index: 3, type: 'revised', at: '2026-11-25T19:00:00Z', title: 'Revised — version 2' },
  { index: 5, type: 'graded', at: '2026-11-26T03:00:00Z', title: 'Graded: Won +0.9u' },
];

const GRADED_PICK: PickLogSubject = {
  videoId: VIDEO_ID,
  commitment: V2,
  status: 'graded',
  removed: null,
  versions: [
    { version: 1, commitment: V1, postedAt: '2026-11-25T18:30:00Z' },
    { version: 2, commitment: V2, postedAt: '2026-11-25T19:00:00Z' },
  ],
  log: REFS,
};

type Tree = {
  bytes: Uint8Array[];
  proof: (index: number, size: number) => Promise<string[]>;
  root: (size: number) => Promise<Uint8Array>;
};

async function buildTree(entries: readonly LogEntry[]): Promise<Tree> {
  const bytes = entries.map(entryBytes);
  const leaves = await Promise.all(bytes.map((b) => leafHash(b, sha256)));
  const nodes = new Map<string, Uint8Array>();
  for (const node of await appendNodes(0, [], leaves, sha256))
    nodes.set(`${node.level}:${node.index}`, node.hash);
  const lookup = (id: NodeId) => nodes.get(`${id.level}:${id.index}`)!;
  return {
    bytes,
    proof: async (index, size) =>
      (await proofFromPlan(inclusionProofPlan(index, size), lookup, sha256)).map(toBase64),
    root: (size) => rootFromFrontier(rangeNodes(0, size).map(lookup), sha256),
  };
}

async function signedNote(
  origin: string,
  size: number,
  rootHash: Uint8Array,
  { signer = logKey.privateKey, keyName = ORIGIN } = {},
): Promise<string> {
  const text = formatCheckpoint({ origin, size, rootHash, extensions: [] });
  const signature = new Uint8Array(sign(null, new TextEncoder().encode(text), signer));
  const keyId = await ed25519KeyId(keyName, logKey.publicKey, sha256);
  return formatSignedNote(text, [{ keyName, keyId, signature }]);
}

type Server = {
  tree: Tree;
  /** The checkpoint notes served, one per fetch (the last repeats). */
  notes: string[];
  /** Entry bytes as served (a dishonest server changes them). */
  served?: (index: number) => Uint8Array;
  proof?: (index: number, size: number) => Promise<string[]>;
  reveal?: SealedPick;
};

let requests: string[] = [];

/** The endpoints as pick-log.md gives them, answering from `server`. */
function serve(server: Server, key: string): void {
  let checkpointFetches = 0;
  requests = [];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://pickreel.test');
    requests.push(`${url.pathname}${url.search}`);
    const query = (name: string) => Number(url.searchParams.get(name));
    switch (url.pathname) {
      case '/api/log/key':
        return new Response(`${key}\n`, { headers: { 'Content-Type': 'text/plain' } });
      case '/api/log/checkpoint': {
        const note = server.notes[Math.min(checkpointFetches++, server.notes.length - 1)]!;
        return new Response(note, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
      }
      case '/api/log/entries': {
        const start = query('start');
        const end = query('end');
        const bytes = Array.from({ length: end - start }, (_, i) =>
          server.served ? server.served(start + i) : server.tree.bytes[start + i]!,
        );
        return json({ entries: bytes.map(toBase64) });
      }
      case '/api/log/proof/inclusion': {
        const index = query('index');
        const treeSize = query('treeSize');
        const hashes = await (server.proof ?? server.tree.proof)(index, treeSize);
        return json({ index, treeSize, hashes });
      }
      case `/api/picks/${VIDEO_ID}/reveal`: {
        const sealed = server.reveal ?? sealedV2;
        return json({ sealed, commitment: V2 });
      }
      default:
        return json({ message: 'Not found' }, 404);
    }
  });
}

async function honestServer(entries: readonly LogEntry[] = LOG, size = entries.length): Promise<Server> {
  const tree = await buildTree(entries);
  return { tree, notes: [await signedNote(ORIGIN, size, await tree.root(size))] };
}

const verifierKey = () => formatVerifierKey(ORIGIN, logKey.publicKey, sha256);
const noWait = vi.fn(async () => {});

afterEach(() => {
  vi.unstubAllGlobals();
  noWait.mockClear();
});

describe('verifyPickLog', () => {
  it('passes an honest log: every entry in the signed tree, saying what the page says, and the reveal', async () => {
    serve(await honestServer(), await verifierKey());
    const progress: VerifyProgress[] = [];
    const result = await verifyPickLog(GRADED_PICK, { onProgress: (p) => progress.push(p), wait: noWait });

    expect(result.entries).toEqual([
      expect.objectContaining({ index: 1, type: 'posted', status: 'verified' }),
      expect.objectContaining({ index: 3, type: 'revised', status: 'verified' }),
      expect.objectContaining({ index: 5, type: 'graded', status: 'verified' }),
    ]);
    expect(result.reveal).toEqual(expect.objectContaining({ status: 'matched', computed: V2 }));
    expect(result.status).toBe('verified');
    expect(result.summary).toBe(
      "All 3 entries are in the log's signed checkpoint of 7 entries and say what this page says, and the revealed pick hashes to the logged commitment.",
    );
    const tree = await buildTree(LOG);
    expect(result.checkpoint).toEqual({
      origin: ORIGIN,
      size: 7,
      rootHash: toBase64(await tree.root(7)),
      keyName: ORIGIN,
      keyId: Buffer.from(await ed25519KeyId(ORIGIN, logKey.publicKey, sha256)).toString('hex'),
    });
    // Each entry fetched alone, its proof at the checkpoint's size.
    expect(requests).toContain('/api/log/entries?start=3&end=4');
    expect(requests).toContain('/api/log/proof/inclusion?index=3&treeSize=7');
    // Progress climbs one step at a time to the end.
    expect(progress.at(-1)).toEqual({ done: 7, total: 7, step: 'Done' });
    for (const [i, p] of progress.entries())
      if (i > 0) expect(p.done).toBeGreaterThanOrEqual(progress[i - 1]!.done);
    expect(noWait).not.toHaveBeenCalled();
  });

  it('does not ask for the reveal before the pick is graded', async () => {
    serve(await honestServer(LOG.slice(0, 5)), await verifierKey());
    const open: PickLogSubject = { ...GRADED_PICK, status: 'open', log: REFS.slice(0, 2) };
    const result = await verifyPickLog(open, { wait: noWait });
    expect(result.status).toBe('verified');
    expect(result.reveal).toBeNull();
    expect(requests.some((r) => r.endsWith('/reveal'))).toBe(false);
  });

  it('fails an entry whose bytes were changed after it was logged', async () => {
    const server = await honestServer();
    const tampered = entryBytes({ ...(LOG[3] as PickEntry), commitment: V1 });
    serve({ ...server, served: (i) => (i === 3 ? tampered : server.tree.bytes[i]!) }, await verifierKey());
    const result = await verifyPickLog(GRADED_PICK, { wait: noWait });
    expect(result.status).toBe('failed');
    expect(result.entries.map((e) => e.status)).toEqual(['verified', 'failed', 'verified']);
    expect(result.entries[1]!.message).toBe(
      "Entry #3 is not in the signed log: its inclusion proof does not lead to the checkpoint's root.",
    );
    expect(result.summary).toMatch(/^1 of 3 entries failed: Entry #3 is not in the signed log/);
  });

  it('fails an entry whose proof is wrong', async () => {
    const server = await honestServer();
    // The proof of another leaf: right length, wrong path.
    serve(
      { ...server, proof: (index, size) => server.tree.proof(index === 5 ? 4 : index, size) },
      await verifierKey(),
    );
    const result = await verifyPickLog(GRADED_PICK, { wait: noWait });
    expect(result.status).toBe('failed');
    expect(result.entries[2]).toEqual(
      expect.objectContaining({
        index: 5,
        status: 'failed',
        message:
          "Entry #5 is not in the signed log: its inclusion proof does not lead to the checkpoint's root.",
      }),
    );
  });

  it('fails everything when the checkpoint is signed by another key under the log name', async () => {
    const server = await honestServer();
    const forged = await signedNote(ORIGIN, 7, await server.tree.root(7), {
      signer: ed25519Pair().privateKey,
    });
    serve({ ...server, notes: [forged] }, await verifierKey());
    const result = await verifyPickLog(GRADED_PICK, { wait: noWait });
    expect(result.status).toBe('failed');
    expect(result.summary).toMatch(
      new RegExp(`^The checkpoint's signature does not verify with the log's key ${ORIGIN}: `),
    );
    expect(result.checkpoint).toBeNull();
    expect(result.entries.every((e) => e.status === 'unchecked')).toBe(true);
    expect(requests.some((r) => r.startsWith('/api/log/entries'))).toBe(false);
  });

  it("fails a checkpoint of another log, even signed by this log's key", async () => {
    const server = await honestServer();
    const elsewhere = await signedNote('elsewhere.example/pick-log', 7, await server.tree.root(7));
    serve({ ...server, notes: [elsewhere] }, await verifierKey());
    const result = await verifyPickLog(GRADED_PICK, { wait: noWait });
    expect(result.status).toBe('failed');
    expect(result.summary).toBe(
      `The checkpoint is for another log: its origin is "elsewhere.example/pick-log", but the log's key is named "${ORIGIN}".`,
    );
    expect(result.entries.every((e) => e.status === 'unchecked')).toBe(true);
  });

  it('fails an entry in the log that says something else than the page', async () => {
    serve(await honestServer(), await verifierKey());
    // The page claims #4 (another video's entry) as this pick's revision.
    const result = await verifyPickLog(
      { ...GRADED_PICK, log: [REFS[0]!, { ...REFS[1]!, index: 4 }, REFS[2]!] },
      { wait: noWait },
    );
    expect(result.status).toBe('failed');
    expect(result.entries[1]!.message).toBe(
      'Entry #4 is logged as "posted", but this page lists it as "revised".',
    );
  });

  it("fails an entry whose commitment is not the pick's version's", async () => {
    serve(await honestServer(), await verifierKey());
    const versions = [GRADED_PICK.versions[0]!, { ...GRADED_PICK.versions[1]!, commitment: 'd4'.repeat(32) }];
    const result = await verifyPickLog({ ...GRADED_PICK, versions }, { wait: noWait });
    expect(result.entries[1]!.message).toBe(
      `Entry #3 logs the commitment ${V2.slice(0, 12)}…, but version 2's commitment is d4d4d4d4d4d4….`,
    );
  });

  it('fails when the revealed pick does not hash to the logged commitment', async () => {
    const server = await honestServer();
    serve({ ...server, reveal: { ...sealedV2, selections: 'Celtics +3.5' } }, await verifierKey());
    const result = await verifyPickLog(GRADED_PICK, { wait: noWait });
    expect(result.entries.every((e) => e.status === 'verified')).toBe(true);
    expect(result.reveal?.status).toBe('mismatched');
    expect(result.status).toBe('failed');
    expect(result.summary).toMatch(
      /^The revealed pick hashes to [0-9a-f]{12}…, not to the logged commitment /,
    );
  });

  it('says "not yet signed", not failed, for an entry appended after the latest checkpoint', async () => {
    serve(await honestServer(LOG, 5), await verifierKey());
    const result = await verifyPickLog(GRADED_PICK, { wait: noWait, signingRetries: 2 });
    expect(noWait).toHaveBeenCalledTimes(2);
    expect(result.entries.map((e) => e.status)).toEqual(['verified', 'verified', 'unsigned']);
    expect(result.entries[2]!.message).toBe(
      'Not yet signed: entry #5 was appended after the latest checkpoint (size 5).',
    );
    expect(result.status).toBe('unsigned');
    // Never asked for entries beyond the signed tree (a 400).
    expect(requests).not.toContain('/api/log/entries?start=5&end=6');
  });

  it('waits for the next checkpoint when an entry was appended a moment ago', async () => {
    const server = await honestServer(LOG, 5);
    const later = await signedNote(ORIGIN, 7, await server.tree.root(7));
    serve({ ...server, notes: [...server.notes, later] }, await verifierKey());
    const result = await verifyPickLog(GRADED_PICK, { wait: noWait });
    expect(noWait).toHaveBeenCalledTimes(1);
    expect(result.status).toBe('verified');
    expect(result.checkpoint?.size).toBe(7);
  });
});

describe("the pick's grade, recomputed from the logged score", () => {
  // Lakers -3.5 at -105 (version 2): Lakers 110, Celtics 100 makes it a win of 0.95u.
  const settled = (homeScore: number): SettledEntry => ({
    v: 2,
    type: 'settled',
    at: '2026-11-26T03:00:00Z',
    event: 7,
    game: null,
    league: 'NBA',
    home: 'Lakers',
    away: 'Celtics',
    startsAt: '2026-11-26T00:30:00Z',
    status: 'final',
    homeScore,
    awayScore: 100,
    source: 'admin',
  });
  const hashOf = (entry: LogEntry) => createHash('sha256').update(entryBytes(entry)).digest('hex');

  function logWith(outcome: SettledEntry, grade: { result: 'win' | 'loss'; unitsWon: number }) {
    const graded = entry('graded', '2026-11-26T03:00:00Z', {
      v: 2,
      ...grade,
      unitsRisked: 1,
      bets: { win: 0, loss: 0, push: 0, void: 0, [grade.result]: 1 },
      selfReported: true,
      sealed: sealedV2,
      legs: [{ result: grade.result, basis: 'score', settled: hashOf(outcome) }],
    });
    const log: LogEntry[] = [...LOG.slice(0, 5), outcome, graded];
    const refs: PickLogRef[] = [
      ...REFS.slice(0, 2),
      { index: 5, type: 'settled', at: outcome.at, title: 'Settled' },
      { index: 6, type: 'graded', at: graded.at, title: 'Graded' },
    ];
    return { log, refs };
  }

  it('matches when the logged score gives the logged grade, the one the page shows', async () => {
    const { log, refs } = logWith(settled(110), { result: 'win', unitsWon: 0.95 });
    serve(await honestServer(log), await verifierKey());
    const result = await verifyPickLog(
      { ...GRADED_PICK, log: refs, result: 'win', unitsWon: 0.95 },
      { wait: noWait },
    );
    expect(result.grade).toEqual({
      status: 'matched',
      message:
        'The grade (win, +0.95u) follows from the logged score: Celtics 100, Lakers 110 (final) (entry #5).',
    });
    expect(result.status).toBe('verified');
    expect(result.summary).toMatch(/; the logged scores give its grade\.$/);
  });

  it('fails a grade the logged score denies, naming the score', async () => {
    // Lakers by 2 do not cover -3.5: a loss, logged as a win.
    const { log, refs } = logWith(settled(102), { result: 'win', unitsWon: 0.95 });
    serve(await honestServer(log), await verifierKey());
    const result = await verifyPickLog({ ...GRADED_PICK, log: refs }, { wait: noWait });
    expect(result.grade?.status).toBe('mismatched');
    expect(result.status).toBe('failed');
    expect(result.summary).toBe(
      'Leg 1 is graded win, but the logged score (Celtics 100, Lakers 102 (final), entry #5) makes it a loss.',
    );
  });

  it('fails when the page shows another grade than the log', async () => {
    const { log, refs } = logWith(settled(110), { result: 'win', unitsWon: 0.95 });
    serve(await honestServer(log), await verifierKey());
    const result = await verifyPickLog(
      { ...GRADED_PICK, log: refs, result: 'win', unitsWon: 2 },
      { wait: noWait },
    );
    expect(result.summary).toBe('This page shows win +2.00u, but the log grades the pick win +0.95u.');
  });

  it('says a grade logged before grades carried their scores cannot be recomputed, without failing', async () => {
    serve(await honestServer(), await verifierKey());
    const result = await verifyPickLog(GRADED_PICK, { wait: noWait });
    expect(result.grade?.status).toBe('unprovable');
    expect(result.status).toBe('verified');
  });
});
