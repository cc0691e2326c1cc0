// Appending to the public pick log and proving what it holds (docs/decisions/021). Every append
// runs inside the transaction of the action it records: the entry and the action commit or vanish together.
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import {
  entryBytes,
  LOG_FORMAT_VERSION,
  parseEntry,
  type EvidenceEntry,
  type LogEntryType,
  type LoggedBets,
  type LoggedLeg,
  type LoggedResult,
  type PickEntry,
  type PickEntryType,
} from '#common/pick-log/entry.js';
import {
  appendNodes,
  consistencyProofPlan,
  inclusionProofPlan,
  leafHash,
  planNodes,
  proofFromPlan,
  rangeNodes,
  rootFromFrontier,
  type NodeId,
} from '#common/pick-log/merkle.js';
import { entryTitle } from '#common/pick-log/entry-title.js';
import { isoSeconds, type SealedPick } from '#common/pick-seal.js';
import { LOG_ENTRIES_PAGE, type ConsistencyProof, type InclusionProof } from '#common/schemas/pick-log.js';
import type { PickLogRef } from '#common/schemas/pick-views.js';
import type { Db, Executor } from '#server/db/client.js';
import { databaseOf } from '#server/db/after-commit.js';
import { badRequest } from '#server/lib/http-errors.js';
import {
  entriesOfVideo,
  insertEntries,
  insertNodes,
  latestCheckpoint,
  nodeKey,
  deletePending,
  hasPending,
  insertPending,
  type PendingEntryRow,
  lockLogSize,
  oldestPending,
  readEntryBytes,
  readNodes,
  setLogSize,
  type CheckpointRow,
} from './log-repository.js';

/** Entries built between two turns of the event loop when one action appends many (a grading). */
const APPEND_SLICE = 500;

export const sha256 = (bytes: Uint8Array): Uint8Array => createHash('sha256').update(bytes).digest();

/**
 * Standard padded base64, the same text as the common toBase64, by Node's own encoder: the strings toBase64
 * builds a character at a time cost the response serializer dearly to flatten, on every page of entries.
 */
const toBase64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** What a pick's action appends; `at` is when the action happened (a grade's time, a post's time). */
export interface LogAppend {
  type: PickEntryType;
  videoId: number;
  capper: string;
  commitment: string;
  at: Date;
  version?: number;
  result?: LoggedResult | null;
  unitsWon?: number | null;
  unitsRisked?: number | null;
  bets?: LoggedBets | null;
  selfReported?: boolean;
  reason?: 'moderation' | 'capper';
  /** A graded entry's revealed pick and its legs' grounds (docs/pick-log.md 'Entries'). */
  sealed?: SealedPick;
  legs?: LoggedLeg[];
}

// Per database: two apps in one process (the tests build several) each hear only their own appends.
const appendListeners = new WeakMap<Db, Set<(count: number) => void>>();

/**
 * Called after every append to `db` (in any of its transactions) with its number of entries (the checkpoint
 * signer wakes up; the append's transaction may not have committed yet).
 */
export function onLogAppend(db: Db, listener: (count: number) => void): () => void {
  let listeners = appendListeners.get(db);
  if (!listeners) appendListeners.set(db, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function appended(executor: Executor, count: number): void {
  for (const listener of appendListeners.get(databaseOf(executor)) ?? []) listener(count);
}

function toEntry(item: LogAppend): PickEntry {
  const entry: PickEntry = {
    v: LOG_FORMAT_VERSION,
    type: item.type,
    videoId: item.videoId,
    capper: item.capper,
    commitment: item.commitment,
    at: isoSeconds(item.at),
  };
  if (item.version !== undefined) entry.version = item.version;
  if (item.type === 'graded') {
    entry.result = item.result ?? null;
    entry.unitsWon = item.unitsWon ?? null;
    entry.unitsRisked = item.unitsRisked ?? null;
    if (item.bets !== undefined) entry.bets = item.bets;
    if (item.selfReported !== undefined) entry.selfReported = item.selfReported;
    if (item.sealed && item.legs) {
      entry.sealed = item.sealed;
      entry.legs = item.legs;
    }
  }
  if (item.reason) entry.reason = item.reason;
  return entry;
}

/**
 * Appends entries, in order, in the caller's transaction: they commit or vanish with the action. The
 * sequencer (log-writer.ts) numbers committed entries moments later, in the order they were written, so
 * that concurrent actions never wait on one another for the log.
 */
export async function appendToLog(db: Executor, items: readonly LogAppend[]): Promise<void> {
  if (!items.length) return;
  const rows: PendingEntryRow[] = [];
  for (let i = 0; i < items.length; i++) {
    // A grading appends thousands: other requests get a turn between slices ("without stalling").
    if (i > 0 && i % APPEND_SLICE === 0) await nextTurn();
    const item = items[i]!;
    rows.push({
      type: item.type,
      videoId: item.videoId,
      capper: item.capper,
      eventId: null,
      at: item.at,
      // Checked and canonical now: a malformed entry fails its action, never the sequencer.
      bytes: entryBytes(toEntry(item)),
    });
  }
  await insertPending(db, rows);
  appended(db, rows.length);
}

/**
 * Appends evidence entries (a game's outcome, correction or closing prices) in the caller's transaction, and
 * returns the SHA-256 of each entry's bytes: what a later entry names it by, since an entry's index is known
 * only once the sequencer numbers it, after its transaction commits.
 */
export async function appendEvidence(db: Executor, entries: readonly EvidenceEntry[]): Promise<Uint8Array[]> {
  if (!entries.length) return [];
  const rows: PendingEntryRow[] = [];
  const hashes: Uint8Array[] = [];
  for (const entry of entries) {
    const bytes = entryBytes(entry);
    hashes.push(sha256(bytes));
    rows.push({
      type: entry.type,
      videoId: 'videoId' in entry ? entry.videoId : null,
      capper: 'capper' in entry ? entry.capper : null,
      eventId: 'event' in entry ? entry.event : null,
      at: new Date(entry.at),
      bytes,
    });
  }
  await insertPending(db, rows);
  appended(db, rows.length);
  return hashes;
}

/**
 * Locks the log's size for the rest of the transaction and says whether the log is empty: no entry
 * numbered, none waiting (the backfill of picks sealed before the log existed runs only then).
 */
export async function lockEmptyLog(db: Executor): Promise<boolean> {
  return (await lockLogSize(db)) === 0 && !(await hasPending(db));
}

/**
 * Numbers up to `limit` waiting entries after the last one, in one transaction: their tree nodes are
 * computed from the left frontier and stored, and the log's size moves. Returns how many it numbered.
 */
export async function sequencePending(db: Db, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const start = await lockLogSize(tx);
    const pending = await oldestPending(tx, limit);
    if (!pending.length) return 0;
    const frontierIds = rangeNodes(0, start);
    const stored = await readNodes(tx, frontierIds);
    const frontier = frontierIds.map((id) => stored.get(nodeKey(id))!);
    const leaves = await Promise.all(pending.map((entry) => leafHash(entry.bytes, sha256)));
    const nodes = await appendNodes(start, frontier, leaves, sha256);
    await insertEntries(
      tx,
      pending.map((entry, i) => ({ ...entry, idx: start + i })),
    );
    await insertNodes(tx, nodes);
    await deletePending(
      tx,
      pending.map((entry) => entry.id),
    );
    await setLogSize(tx, start + pending.length);
    return pending.length;
  });
}

/** The root of the first `size` entries, from the stored perfect subtrees (at most log2(size) rows). */
export async function rootAt(db: Executor, size: number): Promise<Uint8Array> {
  const ids = rangeNodes(0, size);
  const stored = await readNodes(db, ids);
  return rootFromFrontier(
    ids.map((id) => stored.get(nodeKey(id))!),
    sha256,
  );
}

/** The latest signed checkpoint, read at most every quarter second (proofs are asked for far more often). */
export class CheckpointCache {
  private cached: { row: CheckpointRow | null; at: number } | null = null;
  private loading: Promise<CheckpointRow | null> | null = null;

  constructor(
    private readonly db: Executor,
    private readonly maxAgeMs = 250,
  ) {}

  set(row: CheckpointRow): void {
    if (!this.cached?.row || this.cached.row.size <= row.size) this.cached = { row, at: Date.now() };
  }

  async get(): Promise<CheckpointRow | null> {
    if (this.cached && Date.now() - this.cached.at < this.maxAgeMs) return this.cached.row;
    this.loading ??= latestCheckpoint(this.db)
      .then((row) => {
        this.cached = { row, at: Date.now() };
        return row;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  /** The latest checkpoint's tree size; 0 before the first is signed. */
  async size(): Promise<number> {
    return (await this.get())?.size ?? 0;
  }
}

export const NO_CHECKPOINT_MESSAGE = 'The pick log has no signed checkpoint yet. Try again in a second.';

function pastCheckpoint(name: string, value: number, size: number): never {
  throw badRequest(
    `${name} ${value} is past the latest checkpoint's tree size (${size}): fetch /api/log/checkpoint first.`,
  );
}

export async function entriesBetween(
  db: Executor,
  checkpoints: CheckpointCache,
  start: number,
  end: number,
): Promise<{ entries: string[] }> {
  const size = await checkpoints.size();
  if (end > size) pastCheckpoint('end', end, size);
  if (start >= end) throw badRequest('start must be less than end.');
  const last = Math.min(end, start + LOG_ENTRIES_PAGE);
  const bytes = await readEntryBytes(db, start, last);
  return { entries: bytes.map(toBase64) };
}

/**
 * Stored nodes of level 8 and up (each covers 256 entries or more), kept once read: a node never changes
 * once written, and these are the ones every proof shares, so a proof reads a few rows instead of one per
 * level (bench/README.md, `pick-log`). About 2 of every 256 nodes; past a bound, the least used go.
 */
export class UpperNodes {
  static readonly LEVEL = 8;
  private readonly nodes: LRUCache<string, Uint8Array>;

  constructor(max = 50_000) {
    this.nodes = new LRUCache({ max });
  }

  async read(db: Executor, ids: readonly NodeId[]): Promise<Map<string, Uint8Array>> {
    const found = new Map<string, Uint8Array>();
    const missing: NodeId[] = [];
    for (const id of ids) {
      const hash = id.level >= UpperNodes.LEVEL ? this.nodes.get(nodeKey(id)) : undefined;
      if (hash) found.set(nodeKey(id), hash);
      else missing.push(id);
    }
    if (!missing.length) return found;
    const stored = await readNodes(db, missing);
    for (const id of missing) {
      const key = nodeKey(id);
      const hash = stored.get(key)!;
      found.set(key, hash);
      if (id.level >= UpperNodes.LEVEL) this.nodes.set(key, hash);
    }
    return found;
  }
}

async function proofHashes(db: Executor, plan: NodeId[][], upper: UpperNodes): Promise<string[]> {
  const stored = await upper.read(db, planNodes([plan]));
  const hashes = await proofFromPlan(plan, (id) => stored.get(nodeKey(id))!, sha256);
  return hashes.map(toBase64);
}

export async function inclusionProof(
  db: Executor,
  checkpoints: CheckpointCache,
  upper: UpperNodes,
  index: number,
  treeSize: number,
): Promise<InclusionProof> {
  const size = await checkpoints.size();
  if (treeSize > size) pastCheckpoint('treeSize', treeSize, size);
  if (index >= treeSize)
    throw badRequest(`index ${index} is outside a tree of ${treeSize} entries (indices start at 0).`);
  return { index, treeSize, hashes: await proofHashes(db, inclusionProofPlan(index, treeSize), upper) };
}

export async function consistencyProof(
  db: Executor,
  checkpoints: CheckpointCache,
  upper: UpperNodes,
  first: number,
  second: number,
): Promise<ConsistencyProof> {
  const size = await checkpoints.size();
  if (second > size) pastCheckpoint('second', second, size);
  if (first > second) throw badRequest(`first (${first}) must not be larger than second (${second}).`);
  return { first, second, hashes: await proofHashes(db, consistencyProofPlan(first, second), upper) };
}

/** A pick's entries in the log, for its page (GET /api/picks/{videoId}). */
export async function logRefsOf(db: Executor, videoId: number): Promise<PickLogRef[]> {
  const rows = await entriesOfVideo(db, videoId);
  return rows.map((row) => ({
    index: row.idx,
    type: row.type as LogEntryType,
    at: isoSeconds(row.at),
    title: titleOf(row.bytes, row.type as LogEntryType),
  }));
}

/** The entry's title from its bytes; an entry this server cannot read (never expected) is named by type. */
function titleOf(bytes: Uint8Array, type: LogEntryType): string {
  try {
    return entryTitle(parseEntry(bytes));
  } catch {
    return type;
  }
}
