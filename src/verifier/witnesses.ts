// Requiring witnesses (docs/decisions/026): `--witness <key>` (repeatable) and `--witnesses-needed N`. The
// checkpoint is accepted only with recent cosignatures (C2SP tlog-cosignature, cosignature/v1) over exactly
// its text from N distinct witnesses the user trusts, first run included: a log rewritten and re-signed with
// its own key, or rolled back, is then caught without any remembered state.
import {
  parseCosignerKey,
  sameVerifierKey,
  verifyCosignature,
  webCryptoEd25519Verify,
  type Checkpoint,
  type VerifierKey,
} from '../common/pick-log/index.js';
import type { Sha256 } from '../common/pick-seal.js';
import { VerificationError, messageOf } from './verification-error.js';

/**
 * A cosignature older than this does not count. The site asks its witnesses again every few minutes even
 * when the log has not grown (tlog-cosignature: the time is when the witness last saw the log no larger).
 */
export const DEFAULT_WITNESS_MAX_AGE_SECONDS = 3600;
/** Clocks differ: a cosignature dated this far ahead of ours still counts. */
const CLOCK_SKEW_SECONDS = 600;

export interface WitnessOptions {
  /** Verifier keys of the witnesses the user trusts (`--witness`). */
  witnesses?: readonly string[];
  /** How many of them must have cosigned the checkpoint (`--witnesses-needed`); all of them by default. */
  witnessesNeeded?: number;
  /** The oldest cosignature that counts, in seconds (`--witness-max-age`). */
  witnessMaxAge?: number;
}

export interface WitnessRequirement {
  witnesses: { text: string; key: VerifierKey }[];
  needed: number;
  maxAgeSeconds: number;
}

const fail = (message: string) => new VerificationError('witness', message);

/** The witnesses required, their keys parsed; null when none are. */
export async function witnessRequirement(
  options: WitnessOptions,
  sha256: Sha256,
): Promise<WitnessRequirement | null> {
  const texts = (options.witnesses ?? []).map((text) => text.trim());
  if (!texts.length) {
    if (options.witnessesNeeded !== undefined)
      throw fail('--witnesses-needed needs the witnesses: --witness <key>');
    return null;
  }
  const witnesses: WitnessRequirement['witnesses'] = [];
  for (const text of texts) {
    let key: VerifierKey;
    try {
      key = await parseCosignerKey(text, sha256);
    } catch (error) {
      throw fail(
        `the witness key given with --witness (${text.slice(0, 200)}) is not a witness's key: ${messageOf(error)}`,
      );
    }
    if (witnesses.some((witness) => sameVerifierKey(witness.key, key)))
      throw fail(`the witness key ${text} is given twice: each witness counts once`);
    witnesses.push({ text, key });
  }
  const needed = options.witnessesNeeded ?? witnesses.length;
  if (!Number.isInteger(needed) || needed < 1 || needed > witnesses.length)
    throw fail(
      `--witnesses-needed must be from 1 to the ${witnesses.length} witness keys given, not ${needed}`,
    );
  const maxAgeSeconds = options.witnessMaxAge ?? DEFAULT_WITNESS_MAX_AGE_SECONDS;
  if (!(maxAgeSeconds > 0))
    throw fail(`--witness-max-age must be a positive number of seconds, not ${maxAgeSeconds}`);
  return { witnesses, needed, maxAgeSeconds };
}

/**
 * Checks the note's cosignatures: at least `needed` distinct required witnesses, each with a valid, recent
 * cosignature of exactly the note's text. Returns the names of those that count; throws VerificationError
 * ('witness') naming the ones that do not.
 */
export async function checkCosignatures(
  note: string,
  checkpoint: Checkpoint,
  requirement: WitnessRequirement,
  now = Date.now(),
): Promise<string[]> {
  const counted: string[] = [];
  const problems: string[] = [];
  const oldest = now / 1000 - requirement.maxAgeSeconds;
  for (const { key } of requirement.witnesses) {
    let timestamp: number;
    try {
      ({ timestamp } = await verifyCosignature(note, key, webCryptoEd25519Verify));
    } catch (error) {
      problems.push(`${key.name}: ${messageOf(error).replace(/ by the witness \S+/, '')}`);
      continue;
    }
    const at = new Date(timestamp * 1000).toISOString();
    if (timestamp < oldest)
      problems.push(
        `${key.name}: its cosignature is from ${at}, older than ${requirement.maxAgeSeconds} s (--witness-max-age): it has seen nothing of the log since`,
      );
    else if (timestamp > now / 1000 + CLOCK_SKEW_SECONDS)
      problems.push(`${key.name}: its cosignature is dated ${at}, in the future`);
    else counted.push(key.name);
  }
  const entries = `${checkpoint.size.toLocaleString('en-US')} ${checkpoint.size === 1 ? 'entry' : 'entries'}`;
  if (counted.length < requirement.needed)
    throw fail(
      `the checkpoint of ${entries} is cosigned by ${counted.length} of the ${requirement.needed} witnesses needed (${problems.join('; ')})`,
    );
  return counted;
}
