// The video page's Verify (docs/pick-log.md): checks a pick's log entries in this browser
// (Web Crypto) against the log's signed checkpoint, so nothing rests on the server's word but the key, whose
// name and id are shown for comparison with what others see.
import {
  fromBase64,
  leafHash,
  parseCheckpoint,
  isPickEntry,
  parseEntry,
  parseVerifierKey,
  toBase64,
  verifyInclusion,
  verifySignedNote,
  webCryptoEd25519Verify,
  webCryptoSha256,
  type Checkpoint,
  type LogEntry,
  type LogEntryType,
  type PickEntry,
  type SettledEntry,
  type VerifierKey,
} from '#common/pick-log/index.js';
import { gradePick, gradeScoredLeg, type GradedLeg, type ScoredMarket } from '#common/pick-grading.js';
import { canonicalBytes, toHex } from '#common/pick-seal.js';
import { SCORED_MARKETS } from '#common/leagues.js';
import type { PickLogRef } from '#common/schemas/pick-views.js';
import { errorMessage } from '#client/lib/error-message.ts';
import { getPickReveal, verifyCommitment, type PickView } from '#client/features/picks/index.ts';
import { getInclusionProof } from '../api/get-inclusion-proof';
import { getLogCheckpoint } from '../api/get-log-checkpoint';
import { getLogEntries } from '../api/get-log-entries';
import { getLogKey } from '../api/get-log-key';
import { entryLabel, gameOutcomeLabel } from './log-format';

/** What Verify needs of the pick: its log refs as the page shows them, and what they must say. */
export type PickLogSubject = Pick<
  PickView,
  'videoId' | 'commitment' | 'versions' | 'status' | 'removed' | 'result' | 'unitsWon'
> & {
  log: PickLogRef[];
};

export type EntryCheck = {
  index: number;
  type: LogEntryType;
  /**
   * verified: in the signed tree and says what the page says; unsigned: appended after the latest checkpoint
   * (signed within a second); unchecked: the checkpoint itself failed, so nothing could be checked.
   */
  status: 'verified' | 'failed' | 'unsigned' | 'unchecked';
  message: string;
};

/** The checkpoint every entry was checked against, as a careful buyer would compare it with others'. */
export type CheckedCheckpoint = {
  origin: string;
  size: number;
  /** Standard base64, as in the note. */
  rootHash: string;
  keyName: string;
  /** 8 lowercase hex, as in the verifier key string. */
  keyId: string;
};

export type RevealCheck = {
  status: 'matched' | 'mismatched' | 'failed';
  message: string;
  /** What this browser computed from the revealed pick. */
  computed?: string;
};

/** The pick's grade recomputed here from its logged evidence: the revealed pick and its games' scores. */
export type GradeCheck = {
  /** matched: the logged scores give the logged grade, and the page shows it; unprovable: logged before grades carried their evidence. */
  status: 'matched' | 'mismatched' | 'unprovable';
  message: string;
};

export type PickLogVerification = {
  status: 'verified' | 'failed' | 'unsigned';
  summary: string;
  checkpoint: CheckedCheckpoint | null;
  entries: EntryCheck[];
  /** Once the pick is graded (and not removed by moderation): the commitment recomputed from the reveal. */
  reveal: RevealCheck | null;
  /** Once the pick is graded: its grade recomputed from the logged scores. */
  grade: GradeCheck | null;
};

export type VerifyProgress = { done: number; total: number; step: string };

export type VerifyOptions = {
  onProgress?: (progress: VerifyProgress) => void;
  /** How to wait between fetches of the checkpoint while an entry is not yet signed (tests pass their own). */
  wait?: (ms: number) => Promise<void>;
  /** Fetches of the checkpoint again, a second apart, before an entry counts as not yet signed. */
  signingRetries?: number;
};

/** pick-log.md 'Endpoints': a checkpoint is signed within a second of an append. */
const SIGNING_INTERVAL_MS = 1000;

/** A failure of the key or the checkpoint: nothing can be checked against it. */
class CheckpointFailure extends Error {}

function shortHex(hex: string): string {
  return `${hex.slice(0, 12)}…`;
}

export async function verifyPickLog(
  pick: PickLogSubject,
  { onProgress, wait = sleep, signingRetries = 3 }: VerifyOptions = {},
): Promise<PickLogVerification> {
  const refs = [...pick.log].sort((a, b) => a.index - b.index);
  const revealExpected = pick.status === 'graded' && pick.removed !== 'moderation';
  const total = 3 + refs.length + (revealExpected ? 1 : 0);
  let done = 0;
  const step = (label: string) => onProgress?.({ done, total, step: label });
  const stepDone = () => {
    done++;
  };

  let key: VerifierKey;
  let checkpoint: Checkpoint;
  try {
    step("Fetching the log's public key");
    key = await fetchKey();
    stepDone();
    step('Fetching the latest signed checkpoint');
    const latest = Math.max(-1, ...refs.map((ref) => ref.index));
    checkpoint = await fetchCheckpoint(key);
    stepDone();
    step("Checking the checkpoint's signature");
    // An entry appended a moment ago is signed within a second: ask again a few times before saying so.
    for (let attempt = 0; attempt < signingRetries && latest >= checkpoint.size; attempt++) {
      step('Waiting for the log to sign the newest entry');
      await wait(SIGNING_INTERVAL_MS);
      checkpoint = await fetchCheckpoint(key);
    }
    stepDone();
  } catch (error) {
    if (!(error instanceof CheckpointFailure)) throw error;
    onProgress?.({ done: total, total, step: 'Done' });
    return {
      status: 'failed',
      summary: error.message,
      checkpoint: null,
      entries: refs.map((ref) => ({
        index: ref.index,
        type: ref.type,
        status: 'unchecked',
        message: 'Not checked: the checkpoint did not verify.',
      })),
      reveal: null,
      grade: null,
    };
  }

  const entries: EntryCheck[] = [];
  const verified: VerifiedEntry[] = [];
  let revisions = 0;
  for (const [i, ref] of refs.entries()) {
    step(`Checking entry ${entryLabel(ref.index)} (${i + 1} of ${refs.length})`);
    const expected = expectedCommitment(pick, ref, revisions);
    if (ref.type === 'revised') revisions++;
    entries.push(await checkEntry(pick, ref, expected, checkpoint, verified));
    stepDone();
  }
  // Regraded from entries all proven: an entry not yet signed (or failed) is reported as it is.
  const allVerified = entries.every((check) => check.status === 'verified');
  const grade = revealExpected && allVerified ? await checkGrade(pick, verified) : null;

  let reveal: RevealCheck | null = null;
  if (revealExpected) {
    step('Recomputing the commitment from the revealed pick');
    reveal = await checkReveal(pick);
    stepDone();
  }
  onProgress?.({ done: total, total, step: 'Done' });

  return {
    ...overall(entries, reveal, grade, checkpoint),
    checkpoint: {
      origin: checkpoint.origin,
      size: checkpoint.size,
      rootHash: toBase64(checkpoint.rootHash),
      keyName: key.name,
      keyId: toHex(key.keyId),
    },
    entries,
    reveal,
    grade,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function fetchKey(): Promise<VerifierKey> {
  let text: string;
  try {
    text = await getLogKey();
  } catch (error) {
    throw new CheckpointFailure(`Could not fetch the log's key: ${errorMessage(error)}`);
  }
  try {
    return await parseVerifierKey(text, webCryptoSha256);
  } catch (error) {
    throw new CheckpointFailure(`The log's key is not a valid verifier key: ${errorMessage(error)}`);
  }
}

/** The latest checkpoint, its signature verified with `key` and its origin the key's name. */
async function fetchCheckpoint(key: VerifierKey): Promise<Checkpoint> {
  let note: string;
  try {
    note = await getLogCheckpoint();
  } catch (error) {
    throw new CheckpointFailure(`Could not fetch the log's checkpoint: ${errorMessage(error)}`);
  }
  let text: string;
  try {
    text = await verifySignedNote(note, key, webCryptoEd25519Verify);
  } catch (error) {
    throw new CheckpointFailure(
      `The checkpoint's signature does not verify with the log's key ${key.name}: ${errorMessage(error)}`,
    );
  }
  let checkpoint: Checkpoint;
  try {
    checkpoint = parseCheckpoint(text);
  } catch (error) {
    throw new CheckpointFailure(`The signed checkpoint is malformed: ${errorMessage(error)}`);
  }
  // pick-log.md: the log's key name is its origin; a checkpoint of another log proves nothing about this one.
  if (checkpoint.origin !== key.name) {
    throw new CheckpointFailure(
      `The checkpoint is for another log: its origin is "${checkpoint.origin}", but the log's key is named "${key.name}".`,
    );
  }
  return checkpoint;
}

type ExpectedCommitment = { commitment: string; what: string } | null;

/**
 * The commitment an entry must carry: a posted or revised entry, its version's (the entry's `version` when
 * it says, else versions in order); a graded or removed entry, the pick's current one.
 */
function expectedCommitment(pick: PickLogSubject, ref: PickLogRef, revisionsBefore: number) {
  return (entry: LogEntry): ExpectedCommitment => {
    if (ref.type === 'graded' || ref.type === 'removed')
      return { commitment: pick.commitment, what: "this pick's current commitment" };
    if (!isPickEntry(entry)) return null;
    const version = entry.version ?? (ref.type === 'posted' ? 1 : revisionsBefore + 2);
    const found = pick.versions.find((v) => v.version === version);
    return found ? { commitment: found.commitment, what: `version ${version}'s commitment` } : null;
  };
}

/** An entry proven in the signed tree that says what the page says: what the grade is recomputed from. */
type VerifiedEntry = { index: number; entry: LogEntry; hash: string };

async function checkEntry(
  pick: PickLogSubject,
  ref: PickLogRef,
  expected: (entry: LogEntry) => ExpectedCommitment,
  checkpoint: Checkpoint,
  verified: VerifiedEntry[],
): Promise<EntryCheck> {
  const label = entryLabel(ref.index);
  const result = (status: EntryCheck['status'], message: string): EntryCheck => ({
    index: ref.index,
    type: ref.type,
    status,
    message,
  });
  if (ref.index >= checkpoint.size)
    return result(
      'unsigned',
      `Not yet signed: entry ${label} was appended after the latest checkpoint (size ${checkpoint.size.toLocaleString('en-US')}).`,
    );

  let bytes: Uint8Array;
  let proofHashes: Uint8Array[];
  try {
    const { entries } = await getLogEntries(ref.index, ref.index + 1);
    if (entries.length !== 1)
      return result('failed', `The log answered ${entries.length} entries for ${label} instead of one.`);
    bytes = fromBase64(entries[0]!);
    const proof = await getInclusionProof(ref.index, checkpoint.size);
    if (proof.index !== ref.index || proof.treeSize !== checkpoint.size)
      return result('failed', `The log answered a proof for another entry or tree size than ${label}'s.`);
    proofHashes = proof.hashes.map((hash) => fromBase64(hash));
  } catch (error) {
    return result('failed', `Could not fetch entry ${label} and its proof: ${errorMessage(error)}`);
  }

  const leaf = await leafHash(bytes, webCryptoSha256);
  const included = await verifyInclusion(
    leaf,
    ref.index,
    checkpoint.size,
    proofHashes,
    checkpoint.rootHash,
    webCryptoSha256,
  );
  if (!included)
    return result(
      'failed',
      `Entry ${label} is not in the signed log: its inclusion proof does not lead to the checkpoint's root.`,
    );

  let entry: LogEntry;
  try {
    entry = parseEntry(bytes);
  } catch (error) {
    return result('failed', `Entry ${label} is in the log but is not a valid entry: ${errorMessage(error)}`);
  }
  const mismatch = contentMismatch(pick, ref, entry, expected(entry));
  if (mismatch) return result('failed', `Entry ${label} ${mismatch}`);
  verified.push({ index: ref.index, entry, hash: toHex(await webCryptoSha256(bytes)) });
  return result('verified', `Entry ${label} is in the signed log and says what this page says.`);
}

/** What the logged entry says differently from the page, as the end of a sentence; null when it agrees. */
function contentMismatch(
  pick: PickLogSubject,
  ref: PickLogRef,
  entry: LogEntry,
  expected: ExpectedCommitment,
): string | null {
  if (entry.type !== ref.type)
    return `is logged as "${entry.type}", but this page lists it as "${ref.type}".`;
  if (Date.parse(entry.at) !== Date.parse(ref.at))
    return `is dated ${entry.at}, but this page says ${ref.at}.`;
  // A game's outcome or closing prices: what they say is checked against the grade (checkGrade).
  if (!('videoId' in entry)) return null;
  if (entry.videoId !== pick.videoId)
    return `is about video ${entry.videoId}, not this one (video ${pick.videoId}).`;
  if (entry.type === 'corrected') return null;
  if (!expected) return `names version ${entry.version ?? '?'}, which this pick does not have.`;
  if (entry.commitment !== expected.commitment.trim().toLowerCase())
    return `logs the commitment ${shortHex(entry.commitment)}, but ${expected.what} is ${shortHex(expected.commitment)}.`;
  return null;
}

async function checkReveal(pick: PickLogSubject): Promise<RevealCheck> {
  try {
    const { sealed } = await getPickReveal(pick.videoId);
    const result = await verifyCommitment(sealed, pick.commitment);
    return result.status === 'matched'
      ? {
          status: 'matched',
          computed: result.computed,
          message: 'The revealed pick hashes to the logged commitment.',
        }
      : {
          status: 'mismatched',
          computed: result.computed,
          message: `The revealed pick hashes to ${shortHex(result.computed)}, not to the logged commitment ${shortHex(result.expected)}.`,
        };
  } catch (error) {
    return { status: 'failed', message: `Could not recompute the commitment: ${errorMessage(error)}` };
  }
}

function overall(
  entries: EntryCheck[],
  reveal: RevealCheck | null,
  grade: GradeCheck | null,
  checkpoint: Checkpoint,
): Pick<PickLogVerification, 'status' | 'summary'> {
  const failed = entries.filter((entry) => entry.status === 'failed');
  if (failed.length > 0)
    return {
      status: 'failed',
      summary: `${failed.length} of ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} failed: ${failed[0]!.message}`,
    };
  if (reveal && reveal.status !== 'matched') return { status: 'failed', summary: reveal.message };
  if (grade?.status === 'mismatched') return { status: 'failed', summary: grade.message };
  const unsigned = entries.filter((entry) => entry.status === 'unsigned').length;
  if (unsigned > 0)
    return {
      status: 'unsigned',
      summary: `${unsigned} ${unsigned === 1 ? 'entry is' : 'entries are'} not yet in a signed checkpoint (the log signs within a second): verify again in a moment.`,
    };
  if (entries.length === 0) return { status: 'failed', summary: 'This page lists no log entries to check.' };
  const size = checkpoint.size.toLocaleString('en-US');
  const all = entries.length === 1 ? 'The entry is' : `All ${entries.length} entries are`;
  return {
    status: 'verified',
    summary: `${all} in the log's signed checkpoint of ${size} entries and ${entries.length === 1 ? 'says' : 'say'} what this page says${reveal ? ', and the revealed pick hashes to the logged commitment' : ''}${grade?.status === 'matched' ? '; the logged scores give its grade' : ''}.`,
  };
}

const units = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(2)}u`;

/**
 * The pick's latest logged grade, recomputed here: its revealed pick (hashing to its commitment) and, for
 * each leg graded by the score, the logged outcome it names (an entry this page listed and Verify proved),
 * by the published rules; then the same grade on this page.
 */
async function checkGrade(pick: PickLogSubject, verified: readonly VerifiedEntry[]): Promise<GradeCheck> {
  const graded = verified.filter((item) => item.entry.type === 'graded' && isPickEntry(item.entry)).at(-1);
  if (!graded) return { status: 'mismatched', message: 'No graded entry of this pick could be verified.' };
  const entry = graded.entry as PickEntry;
  const label = entryLabel(graded.index);
  if (!entry.sealed || !entry.legs)
    return {
      status: 'unprovable',
      message: `Entry ${label} was logged before grades carried their scores: this grade cannot be recomputed from the log.`,
    };
  const computed = toHex(await webCryptoSha256(canonicalBytes(entry.sealed)));
  if (computed !== entry.commitment)
    return {
      status: 'mismatched',
      message: `The pick revealed in entry ${label} does not hash to its commitment.`,
    };
  const outcomes = new Map(
    verified
      .filter(
        (item) => item.entry.type === 'settled' || (item.entry.type === 'corrected' && 'event' in item.entry),
      )
      .map((item) => [item.hash, item]),
  );
  const legs: GradedLeg[] = [];
  const scores: string[] = [];
  for (const [i, ground] of entry.legs.entries()) {
    const leg = entry.sealed.legs[i]!;
    if (ground.result === null)
      return { status: 'mismatched', message: `Leg ${i + 1} has no result in entry ${label}.` };
    if (ground.basis === 'score') {
      const found = ground.settled ? outcomes.get(ground.settled) : undefined;
      if (!found)
        return {
          status: 'mismatched',
          message: `Leg ${i + 1}'s grade rests on a score this page does not list.`,
        };
      const outcome = found.entry as SettledEntry;
      let expected: string;
      try {
        expected =
          outcome.status !== 'final'
            ? 'void'
            : SCORED_MARKETS.includes(leg.market)
              ? gradeScoredLeg(
                  {
                    market: leg.market as ScoredMarket,
                    side: leg.side,
                    line: leg.line,
                    home: outcome.home,
                    away: outcome.away,
                  },
                  { home: outcome.homeScore!, away: outcome.awayScore! },
                )
              : 'not by the score';
      } catch {
        expected = 'not by the score';
      }
      if (expected !== ground.result)
        return {
          status: 'mismatched',
          message: `Leg ${i + 1} is graded ${ground.result}, but the logged score (${gameOutcomeLabel(outcome)}, entry ${entryLabel(found.index)}) makes it ${expected === 'not by the score' ? 'ungradable by the score' : `a ${expected}`}.`,
        };
      scores.push(`${gameOutcomeLabel(outcome)} (entry ${entryLabel(found.index)})`);
    }
    legs.push({ result: ground.result, odds: leg.odds, units: leg.units });
  }
  const regraded = gradePick(legs, entry.sealed.parlay);
  if (!regraded || regraded.result !== entry.result || regraded.unitsWon !== entry.unitsWon)
    return {
      status: 'mismatched',
      message: `Entry ${label} grades the pick ${entry.result ?? 'nothing'} ${units(entry.unitsWon ?? 0)}, but its legs as logged give ${regraded ? `${regraded.result} ${units(regraded.unitsWon)}` : 'no grade'}.`,
    };
  if (pick.result !== undefined && (pick.result !== regraded.result || pick.unitsWon !== regraded.unitsWon))
    return {
      status: 'mismatched',
      message: `This page shows ${pick.result} ${units(pick.unitsWon ?? 0)}, but the log grades the pick ${regraded.result} ${units(regraded.unitsWon)}.`,
    };
  return {
    status: 'matched',
    message: `The grade (${regraded.result}, ${units(regraded.unitsWon)}) follows from ${scores.length ? `the logged ${scores.length === 1 ? 'score' : 'scores'}: ${scores.join('; ')}` : 'its logged legs'}.`,
  };
}
