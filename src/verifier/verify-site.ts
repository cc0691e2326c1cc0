// The independent verifier (docs/pick-log.md): checks a PickReel site's public pick log
// without trusting the site. It shares only the common formats with the server, never its code.
import { hash } from 'node:crypto';
import {
  bytesEqual,
  fromBase64,
  parseCheckpoint,
  parseEntryText,
  parseVerifierKey,
  toBase64,
  verifyConsistency,
  verifySignedNote,
  webCryptoEd25519Verify,
  type Checkpoint,
  type LogEntry,
  type VerifierKey,
} from '../common/pick-log/index.js';
import { commitmentOf, isSealedPick, type Sha256 } from '../common/pick-seal.js';
import { entryFromBase64, entryText, isCanonicalText } from './entry-bytes.js';
import { SiteClient, type Fetch } from './http.js';
import { PickHistories, type PickHistory } from './pick-history.js';
import { checkServedFigures, type ServedFiguresResult } from './served-figures.js';
import { LeafHashes, OwnTree, checkServedTree } from './served-tree.js';
import {
  counted,
  countedPicks,
  recordDifferences,
  recordOf,
  recordTable,
  sameUsername,
  type CapperRecord,
  type ProfileClaim,
} from './record.js';
import { loadState, rememberSite, rememberedSite } from './state.js';
import { VerificationError, messageOf } from './verification-error.js';
import { checkCosignatures, witnessRequirement, type WitnessOptions } from './witnesses.js';

/** The format page's cap on one entries request. */
export const MAX_PAGE = 1000;

export interface VerifyOptions extends WitnessOptions {
  /** Recompute this capper's record from the log and compare it with their profile; check their reveals. */
  capper?: string;
  /** A verifier key string the site's key must equal (instead of, or replacing, the remembered one). */
  key?: string;
  /** Check the reveal of every graded pick, not only the capper's. */
  reveals?: boolean;
  /** Entries asked for per request (at most 1,000). */
  pageSize?: number;
  /** Entries requests in flight at once. */
  concurrency?: number;
  /** Check every profile, leaderboard and badge the site serves (default true). */
  figures?: boolean;
}

export interface VerifyIo {
  /** Where the trust-on-first-use state lives (state.ts defaultStateDir). */
  stateDir: string;
  fetch?: Fetch;
  /** Entries checked so far of the checkpoint's size: once with 0 when the size is known, then per page. */
  progress?: (done: number, total: number) => void;
  /** Output for the person running it (the record table). */
  print?: (text: string) => void;
  /** Remarks on the way (trusting a key for the first time). */
  note?: (text: string) => void;
}

export interface VerifyResult {
  /** The site URL's origin: what the state is kept by. */
  origin: string;
  keyName: string;
  size: number;
  /** The verified root hash, standard base64. */
  root: string;
  /** The checkpoint this run started from, if one was remembered. */
  previous: { size: number; root: string } | null;
  /** No key was remembered for this site and none was given: the key is trusted on first use. */
  firstUse: boolean;
  /** The required witnesses (--witness) whose cosignatures of the checkpoint counted. */
  cosigners: string[];
  picks: number;
  revealsChecked: number;
  capper: { username: string; log: CapperRecord; claim: ProfileClaim } | null;
  /** What of the served figures was checked; null when not asked to. */
  served: ServedFiguresResult | null;
}

/** node:crypto's synchronous one-shot SHA-256: a million entries hash in seconds, without a promise per hash. */
export const nodeSha256: Sha256 = (bytes) => hash('sha256', bytes, 'buffer');

const REVEAL_CONCURRENCY = 8;

export async function verifySite(
  siteUrl: string,
  options: VerifyOptions,
  io: VerifyIo,
): Promise<VerifyResult> {
  const site = parseSiteUrl(siteUrl);
  const client = new SiteClient(site, io.fetch ?? globalThis.fetch);
  const sha256 = nodeSha256;
  const state = await loadState(io.stateDir);
  const remembered = rememberedSite(state, site.origin) ?? null;

  // 1. The key: the one given, else the one remembered, else trusted on first use.
  const keyText = (await client.text('/api/log/key')).trim();
  const key = await parseKey(keyText, sha256, 'the site serves a key that is not a verifier key');
  const given = options.key
    ? await parseKey(options.key.trim(), sha256, 'the key given with --key is not a verifier key')
    : null;
  if (given && !sameKey(given, key))
    throw new VerificationError(
      'key',
      `the log's key is ${keyText}, not the key given with --key (${options.key!.trim()})`,
    );
  if (
    !given &&
    remembered &&
    !sameKey(await parseKey(remembered.key, sha256, 'the remembered key is damaged'), key)
  )
    throw new VerificationError(
      'key',
      `the log's key changed: ${site.origin} was verified with ${remembered.key} on ${remembered.verifiedAt}, ` +
        `it now serves ${keyText}. If the site announced a new key, run again with --key <the new key>`,
    );
  const firstUse = !given && !remembered;
  if (firstUse) io.note?.(`first use of ${site.origin}: trusting its key ${keyText}`);

  // 2. The signed checkpoint.
  const witnesses = await witnessRequirement(options, sha256);
  const note = await client.text('/api/log/checkpoint');
  let checkpoint: Checkpoint;
  try {
    checkpoint = parseCheckpoint(await verifySignedNote(note, key, webCryptoEd25519Verify));
  } catch (error) {
    throw new VerificationError(
      'signature',
      `the checkpoint is not signed by the log's key ${key.name}: ${messageOf(error)}`,
    );
  }
  if (checkpoint.origin !== key.name)
    throw new VerificationError(
      'signature',
      `the checkpoint names the log "${checkpoint.origin}", but the key is for "${key.name}"`,
    );
  const root = toBase64(checkpoint.rootHash);
  // 2b. The witnesses required (--witness), before any remembered state: so on a first run too.
  const cosigners = witnesses ? await checkCosignatures(note, checkpoint, witnesses) : [];

  // 3. The checkpoint extends the last one verified from this site.
  const previous = remembered ? remembered.checkpoint : null;
  if (previous) await checkConsistency(client, previous, checkpoint, remembered!.verifiedAt, sha256);

  // 4 and 5. Every entry: its shape, its canonical bytes, the log's rules, and the root they make. A broken
  // rule is told only once the root matches: entries the log never signed are a root mismatch first.
  const histories = new PickHistories();
  const leaves = new LeafHashes(checkpoint.size);
  const leafInput = { buffer: Buffer.alloc(1 + 4096) };
  let broken: VerificationError | null = null;
  io.progress?.(0, checkpoint.size);
  await downloadEntries(client, checkpoint.size, options, async (start, entries) => {
    for (let offset = 0; offset < entries.length; offset++) {
      const bytes = entries[offset]!;
      const index = start + offset;
      if (!broken) {
        try {
          histories.add(index, checkedEntry(index, bytes), bytes);
        } catch (error) {
          if (!(error instanceof VerificationError)) throw error;
          broken = error;
        }
      }
      leaves.push(leafHashOf(bytes, leafInput));
    }
    io.progress?.(start + entries.length, checkpoint.size);
  });
  // Every level of the tree, once: its root here, its tiles and proofs in 5b.
  const tree = new OwnTree(leaves.packed());
  const computedRoot = tree.root();
  if (!bytesEqual(computedRoot, checkpoint.rootHash))
    throw new VerificationError(
      'root',
      `root mismatch: the entries served are not the tree the log signed (they hash to ${toBase64(computedRoot)}, the checkpoint says ${root})`,
    );
  if (broken) throw broken;
  // Every grade is regraded as it streams in; CLV (a close may be logged after a grade) once all are in.
  histories.finish();

  // The tree is the one the log signed: remember it before looking at what the site says about it.
  await rememberSite(io.stateDir, site.origin, {
    key: keyText,
    checkpoint: { size: checkpoint.size, root },
    verifiedAt: new Date().toISOString(),
  });

  // 5b. What the site serves about that tree (tiles, bundles, proofs) against the tree of its entries.
  await checkServedTree(client, tree, checkpoint, { concurrency: options.concurrency });

  // 6. Revealed commitments.
  const toReveal = [...histories.values()].filter(
    (pick) =>
      pick.grade?.result != null &&
      !pick.removedByModeration &&
      (options.reveals || (options.capper !== undefined && sameUsername(pick.capper, options.capper))),
  );
  await inPool(toReveal, REVEAL_CONCURRENCY, (pick) => checkReveal(client, pick, sha256));

  // 7. The capper's record, from the log alone, beside the profile's.
  let capper: VerifyResult['capper'] = null;
  if (options.capper !== undefined) {
    const claim = await fetchProfile(client, options.capper);
    const log = recordOf(countedPicks(histories.values(), options.capper));
    io.print?.(recordTable(claim.username, log, claim));
    const differences = recordDifferences(log, claim);
    if (differences.length > 0)
      throw new VerificationError('record', `${claim.username}'s record: ${differences.join('; ')}`);
    capper = { username: claim.username, log, claim };
  }

  // 8. Every record figure the site serves (profiles, leaderboards, badges), against the log's regrading.
  const served =
    options.figures === false
      ? null
      : await checkServedFigures(client, [...histories.values()], countedPicks(histories.values()), {
          concurrency: options.concurrency,
        });

  return {
    origin: site.origin,
    keyName: key.name,
    size: checkpoint.size,
    root,
    previous,
    firstUse,
    cosigners,
    picks: histories.size,
    revealsChecked: toReveal.length,
    capper,
    served,
  };
}

const entryCount = (count: number) => counted(count, 'entry', 'entries');

function parseSiteUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new VerificationError(
      'network',
      `"${text}" is not a URL; give the site's address, like https://pickreel.example`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new VerificationError('network', `"${text}" is not an http(s) address`);
  return url;
}

async function parseKey(text: string, sha256: Sha256, what: string): Promise<VerifierKey> {
  try {
    return await parseVerifierKey(text, sha256);
  } catch (error) {
    throw new VerificationError('key', `${what} (${text.slice(0, 200)}): ${messageOf(error)}`);
  }
}

function sameKey(a: VerifierKey, b: VerifierKey): boolean {
  return a.name === b.name && bytesEqual(a.keyId, b.keyId) && bytesEqual(a.publicKey, b.publicKey);
}

async function checkConsistency(
  client: SiteClient,
  previous: { size: number; root: string },
  checkpoint: Checkpoint,
  verifiedAt: string,
  sha256: Sha256,
): Promise<void> {
  const was = `${entryCount(previous.size)} (root ${previous.root}, verified ${verifiedAt})`;
  const rewritten = (why: string) => new VerificationError('consistency', `the log was rewritten: ${why}`);
  const size = entryCount(checkpoint.size);
  if (checkpoint.size < previous.size) throw rewritten(`it now has ${size}, it had ${was}`);
  const previousRoot = fromBase64(previous.root);
  if (checkpoint.size === previous.size) {
    if (!bytesEqual(previousRoot, checkpoint.rootHash))
      throw rewritten(
        `it still has ${size}, but their root is now ${toBase64(checkpoint.rootHash)}; it had ${was}`,
      );
    return;
  }
  // Every tree extends the empty one.
  if (previous.size === 0) return;
  const path = `/api/log/proof/consistency?first=${previous.size}&second=${checkpoint.size}`;
  const answer = await client.json(path);
  if (
    !isObject(answer) ||
    answer.first !== previous.size ||
    answer.second !== checkpoint.size ||
    !isStringArray(answer.hashes)
  )
    throw rewritten(`GET ${path} did not answer a consistency proof between those sizes`);
  let proof: Uint8Array[];
  try {
    proof = answer.hashes.map(fromBase64);
  } catch (error) {
    throw rewritten(`the consistency proof's hashes are not base64 (${messageOf(error)})`);
  }
  if (
    !(await verifyConsistency(
      previous.size,
      checkpoint.size,
      previousRoot,
      checkpoint.rootHash,
      proof,
      sha256,
    ))
  )
    throw rewritten(`the checkpoint of ${size} does not extend the one of ${was}`);
}

/**
 * Fetches [0, size) in windows of pageSize, a few windows in flight, and hands each window to `onWindow` in
 * order. A server may answer fewer entries than asked: the window continues from where the answer stopped.
 */
async function downloadEntries(
  client: SiteClient,
  size: number,
  options: VerifyOptions,
  onWindow: (start: number, entries: Uint8Array[]) => Promise<void>,
): Promise<void> {
  const pageSize = Math.min(MAX_PAGE, Math.max(1, options.pageSize ?? MAX_PAGE));
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const windows = Math.ceil(size / pageSize);
  const abort = new AbortController();
  const pending: Promise<Uint8Array[]>[] = [];
  let launched = 0;
  const launch = () => {
    if (launched >= windows) return;
    const start = launched++ * pageSize;
    const fetched = fetchWindow(client, start, Math.min(size, start + pageSize), size, abort.signal);
    // Awaited in order later; until then a failure must not count as unhandled.
    fetched.catch(() => undefined);
    pending.push(fetched);
  };
  try {
    for (let i = 0; i < concurrency; i++) launch();
    for (let window = 0; window < windows; window++) {
      const entries = await pending.shift()!;
      launch();
      await onWindow(window * pageSize, entries);
    }
  } finally {
    abort.abort();
  }
}

async function fetchWindow(
  client: SiteClient,
  start: number,
  end: number,
  size: number,
  signal: AbortSignal,
): Promise<Uint8Array[]> {
  const entries: Uint8Array[] = [];
  while (start + entries.length < end) {
    const from = start + entries.length;
    const path = `/api/log/entries?start=${from}&end=${end}`;
    const answer = await client.json(path, signal);
    if (!isObject(answer) || !isStringArray(answer.entries))
      throw new VerificationError('network', `GET ${path} did not answer {"entries": [base64, ...]}`);
    if (answer.entries.length === 0)
      throw new VerificationError(
        'root',
        `root mismatch: the log signed a tree of ${entryCount(size)}, but GET ${path} answered none`,
      );
    if (answer.entries.length > end - from)
      throw new VerificationError(
        'entry',
        `GET ${path} answered ${answer.entries.length} entries for ${end - from} indices`,
      );
    for (const [offset, text] of answer.entries.entries()) {
      const bytes = entryFromBase64(text);
      if (!bytes)
        throw new VerificationError('entry', `entry ${from + offset} is not standard padded base64`);
      entries.push(bytes);
    }
  }
  return entries;
}

/** The entry's fields, checked; its bytes must be the canonical form, so one entry has exactly one hash. */
function checkedEntry(index: number, bytes: Uint8Array): LogEntry {
  const text = entryText(bytes);
  let entry: LogEntry;
  try {
    if (text === null) throw new Error('log entry: not UTF-8');
    // The whole object, fields beyond the format page's list included (parseEntryText keeps them).
    entry = parseEntryText(text);
  } catch (error) {
    throw new VerificationError('entry', `entry ${index} is not a log entry: ${messageOf(error)}`);
  }
  if (!isCanonicalText(entry, text))
    throw new VerificationError(
      'entry',
      `entry ${index} is not in RFC 8785 canonical form (the log's entries must be)`,
    );
  return entry;
}

/** RFC 9162's leaf hash, SHA-256(0x00 ‖ entry), through one reused buffer rather than a new one per entry. */
function leafHashOf(bytes: Uint8Array, input: { buffer: Buffer }): Buffer {
  if (input.buffer.length < 1 + bytes.length) input.buffer = Buffer.alloc(2 * (1 + bytes.length));
  input.buffer[0] = 0;
  input.buffer.set(bytes, 1);
  return hash('sha256', input.buffer.subarray(0, 1 + bytes.length), 'buffer');
}

async function checkReveal(client: SiteClient, pick: PickHistory, sha256: Sha256): Promise<void> {
  const path = `/api/picks/${pick.videoId}/reveal`;
  const response = await client.get(path);
  const graded = `video ${pick.videoId} is graded in the log (entry ${pick.grade!.index})`;
  if (response.status === 403 || response.status === 404) {
    const failure = await client.failure(path, response);
    throw new VerificationError('reveal', `${graded}, but its reveal is refused: ${failure.message}`);
  }
  if (!response.ok) throw await client.failure(path, response);
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw new VerificationError('network', `GET ${path} did not answer JSON`);
  }
  if (!isObject(answer) || !isSealedPick(answer.sealed) || typeof answer.commitment !== 'string')
    throw new VerificationError(
      'reveal',
      `${graded}, but its reveal is not a sealed pick and its commitment`,
    );
  if (answer.sealed.videoId !== pick.videoId)
    throw new VerificationError(
      'reveal',
      `${graded}, but its reveal is the sealed pick of video ${answer.sealed.videoId}`,
    );
  const computed = await commitmentOf(answer.sealed, sha256);
  if (computed !== pick.commitment)
    throw new VerificationError(
      'reveal',
      `video ${pick.videoId}'s revealed pick hashes to ${computed}, but the log commits to ${pick.commitment}`,
    );
  if (answer.commitment !== pick.commitment)
    throw new VerificationError(
      'reveal',
      `the site says video ${pick.videoId}'s commitment is ${answer.commitment}, the log says ${pick.commitment}`,
    );
}

async function fetchProfile(client: SiteClient, username: string): Promise<ProfileClaim> {
  const path = `/api/cappers/${encodeURIComponent(username)}?limit=1`;
  const answer = await client.json(path);
  const all = isObject(answer) && isObject(answer.records) ? answer.records.all : undefined;
  const counts = ['wins', 'losses', 'pushes', 'voids', 'graded', 'picks'] as const;
  const ok =
    isObject(answer) &&
    isObject(answer.capper) &&
    typeof answer.capper.username === 'string' &&
    Number.isSafeInteger(answer.gradedTotal) &&
    isObject(all) &&
    counts.every((name) => Number.isSafeInteger(all[name])) &&
    typeof all.unitsWon === 'number' &&
    typeof all.unitsRisked === 'number' &&
    (all.roi === null || typeof all.roi === 'number') &&
    (all.winPct === null || typeof all.winPct === 'number') &&
    (all.clv === null || isObject(all.clv));
  if (!ok)
    throw new VerificationError('network', `GET ${path} did not answer a capper profile with records.all`);
  const record = all as unknown as CapperRecord;
  return {
    username: (answer.capper as { username: string }).username,
    gradedTotal: answer.gradedTotal as number,
    record: {
      wins: record.wins,
      losses: record.losses,
      pushes: record.pushes,
      voids: record.voids,
      graded: record.graded,
      picks: record.picks,
      unitsWon: record.unitsWon,
      unitsRisked: record.unitsRisked,
      roi: record.roi,
      winPct: record.winPct,
      clv: record.clv,
    },
  };
}

/** Runs `task` over `items`, at most `limit` at once; the first failure wins. */
async function inPool<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
