// C2SP tlog-cosignature `cosignature/v1`: a witness's timestamped Ed25519 signature of a checkpoint, carried
// as one more signature line of the checkpoint's signed note (docs/pick-log.md 'Witnesses').
import { toHex, type Sha256 } from '../pick-seal.js';
import { bytesEqual } from './base64.js';
import {
  keyIdInput,
  parseSignedNote,
  signatureLine,
  splitVerifierKey,
  verifierKeyText,
  type Ed25519Verify,
  type NoteSignature,
  type VerifierKey,
} from './note.js';

/** C2SP signed-note's signature type of timestamped Ed25519 checkpoint cosignatures. */
export const COSIGNATURE_V1 = 0x04;
const TIMESTAMP_LENGTH = 8;
const ED25519_SIGNATURE_LENGTH = 64;
/** tlog-cosignature: the timestamp MUST NOT exceed 2^63 - 1. */
const MAX_TIMESTAMP = 2n ** 63n - 1n;
const KIND = 'a cosignature/v1 (timestamped Ed25519) key';

const utf8 = new TextEncoder();

/** A synchronous SHA-256 (node:crypto), for callers that cannot wait: reading settings. */
export type Sha256Sync = (bytes: Uint8Array) => Uint8Array;

function checkTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new Error(
      `cosignature: the timestamp must be a non-negative whole number of seconds, not ${timestamp}`,
    );
}

/**
 * The signed message: `cosignature/v1`, `time <POSIX seconds>`, then the checkpoint's note text (its final
 * newline included, no signature line).
 */
export function cosignatureMessage(checkpointText: string, timestamp: number): Uint8Array {
  checkTimestamp(timestamp);
  if (!checkpointText.endsWith('\n'))
    throw new Error('cosignature: the checkpoint text does not end with a newline');
  return utf8.encode(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);
}

/** First 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x04 ‖ publicKey). */
export async function cosignerKeyId(
  name: string,
  publicKey: Uint8Array,
  sha256: Sha256,
): Promise<Uint8Array> {
  return (await sha256(keyIdInput(name, COSIGNATURE_V1, publicKey))).slice(0, 4);
}

/** The witness's verifier key string: `<name>+<key id>+<base64(0x04 ‖ publicKey)>`. */
export async function formatCosignerKey(
  name: string,
  publicKey: Uint8Array,
  sha256: Sha256,
): Promise<string> {
  // splitVerifierKey checks the name and the key's length the same way a reader will.
  const keyId = await cosignerKeyId(name, publicKey, sha256);
  const text = verifierKeyText(name, keyId, COSIGNATURE_V1, publicKey);
  splitVerifierKey(text, COSIGNATURE_V1, KIND);
  return text;
}

/** Parses a witness's verifier key string and checks its key id; throws saying what is wrong. */
export async function parseCosignerKey(text: string, sha256: Sha256): Promise<VerifierKey> {
  const { name, keyIdHex, publicKey } = splitVerifierKey(text, COSIGNATURE_V1, KIND);
  return checkedKey(name, keyIdHex, publicKey, await cosignerKeyId(name, publicKey, sha256));
}

/** parseCosignerKey with a synchronous SHA-256. */
export function parseCosignerKeySync(text: string, sha256: Sha256Sync): VerifierKey {
  const { name, keyIdHex, publicKey } = splitVerifierKey(text, COSIGNATURE_V1, KIND);
  return checkedKey(
    name,
    keyIdHex,
    publicKey,
    sha256(keyIdInput(name, COSIGNATURE_V1, publicKey)).slice(0, 4),
  );
}

function checkedKey(name: string, keyIdHex: string, publicKey: Uint8Array, keyId: Uint8Array): VerifierKey {
  if (toHex(keyId) !== keyIdHex) throw new Error('verifier key: the key id does not match the name and key');
  return { name, keyId, publicKey };
}

/** The signature bytes: the timestamp as a big-endian u64, then the 64-byte Ed25519 signature. */
export function timestampedSignature(timestamp: number, signature: Uint8Array): Uint8Array {
  checkTimestamp(timestamp);
  if (signature.length !== ED25519_SIGNATURE_LENGTH)
    throw new Error(`cosignature: an Ed25519 signature is 64 bytes, not ${signature.length}`);
  const bytes = new Uint8Array(TIMESTAMP_LENGTH + ED25519_SIGNATURE_LENGTH);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(timestamp));
  bytes.set(signature, TIMESTAMP_LENGTH);
  return bytes;
}

/** Splits timestamped_signature bytes; null when they are not one (wrong length, timestamp past 2^63 - 1). */
export function parseTimestampedSignature(
  bytes: Uint8Array,
): { timestamp: number; signature: Uint8Array } | null {
  if (bytes.length !== TIMESTAMP_LENGTH + ED25519_SIGNATURE_LENGTH) return null;
  const timestamp = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0);
  // Past 2^53 seconds is some 285 million years away: no honest witness writes it.
  if (timestamp > MAX_TIMESTAMP || timestamp > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return { timestamp: Number(timestamp), signature: bytes.slice(TIMESTAMP_LENGTH) };
}

/** A witness's identity as its signature lines carry it. */
export interface Cosigner {
  name: string;
  keyId: Uint8Array;
}

/**
 * Cosigns a checkpoint's note text: the signature line (with its newline) a witness answers. `sign` is
 * Ed25519 with the witness's private key (node:crypto on the witness).
 */
export async function cosignatureLine(
  checkpointText: string,
  cosigner: Cosigner,
  timestamp: number,
  sign: (message: Uint8Array) => Uint8Array | Promise<Uint8Array>,
): Promise<string> {
  const signature = await sign(cosignatureMessage(checkpointText, timestamp));
  return signatureLine({
    keyName: cosigner.name,
    keyId: cosigner.keyId,
    signature: timestampedSignature(timestamp, signature),
  });
}

const isFrom = (key: VerifierKey) => (line: NoteSignature) =>
  line.keyName === key.name && bytesEqual(line.keyId, key.keyId);

/**
 * Verifies a witness's cosignature on a signed checkpoint note: some signature line must carry the witness
 * key's name and id and verify as cosignature/v1 over the note's text. Returns the text and the cosignature's
 * time (the latest, when the witness signed the note twice); throws an Error saying what failed.
 */
export async function verifyCosignature(
  note: string,
  key: VerifierKey,
  verify: Ed25519Verify,
): Promise<{ text: string; timestamp: number }> {
  const { text, signatures } = parseSignedNote(note);
  const label = keyLabelOf(key);
  const lines = signatures.filter(isFrom(key));
  if (lines.length === 0) throw new Error(`no cosignature by the witness ${label}`);
  let latest = -1;
  // C2SP signed-note: a line from a known key that does not verify rejects the whole note.
  for (const line of lines) {
    const parsed = parseTimestampedSignature(line.signature);
    if (
      !parsed ||
      !(await verify(key.publicKey, cosignatureMessage(text, parsed.timestamp), parsed.signature))
    )
      throw new Error(`the cosignature by the witness ${label} does not verify`);
    latest = Math.max(latest, parsed.timestamp);
  }
  return { text, timestamp: latest };
}

/** The signature lines of a note, each with its newline, that name this key (its name and id). */
export function signatureLinesOf(note: string, key: VerifierKey): string[] {
  return parseSignedNote(note).signatures.filter(isFrom(key)).map(signatureLine);
}

/** A key's name and id as signature lines and messages show them: `<name>+<key id hex>`. */
export function keyLabelOf(key: Cosigner): string {
  return `${key.name}+${toHex(key.keyId)}`;
}

/** Whether two verifier keys are the same key (name, id and public key). */
export function sameVerifierKey(a: VerifierKey, b: VerifierKey): boolean {
  return a.name === b.name && bytesEqual(a.keyId, b.keyId) && bytesEqual(a.publicKey, b.publicKey);
}
