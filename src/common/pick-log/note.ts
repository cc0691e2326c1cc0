// C2SP tlog-checkpoint inside a C2SP signed note, with Ed25519 (pick-log.md 'The checkpoint').
import { toHex, type Sha256 } from '../pick-seal.js';
import { bytesEqual, concatBytes, fromBase64, toBase64 } from './base64.js';

export interface Checkpoint {
  origin: string;
  size: number;
  rootHash: Uint8Array;
  /** Extension lines, without their newline. */
  extensions: string[];
}

export interface NoteSignature {
  keyName: string;
  /** The 4-byte key id. */
  keyId: Uint8Array;
  signature: Uint8Array;
}

export interface VerifierKey {
  name: string;
  keyId: Uint8Array;
  /** The 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
}

/** Ed25519 verification, injected: Web Crypto in browsers and Node (webCryptoEd25519Verify). */
export type Ed25519Verify = (
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
) => Promise<boolean>;

const NEWLINE = 0x0a;
const ED25519 = 0x01;
const ED25519_KEY_LENGTH = 32;
const ED25519_SIGNATURE_LENGTH = 64;
const ROOT_HASH_LENGTH = 32;
const SIGNATURE_PREFIX = '\u2014 ';
/** C2SP signed-note: at least 16 must be accepted; Go's sumdb/note stops at 100, and so do we. */
export const MAX_NOTE_SIGNATURES = 100;

const utf8 = new TextEncoder();
// C2SP signed-note: no ASCII control character but newline; lone surrogates would not be UTF-8.
const LONE_SURROGATE = /\p{Cs}/u;
function hasForbiddenCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== NEWLINE) return true;
  }
  return LONE_SURROGATE.test(text);
}
// Go's unicode.IsSpace (which has U+0085) and JavaScript's \s (which has U+FEFF), control characters, '+'.
const KEY_NAME = /^[^\s\u0085\p{Z}\p{Cc}\p{Cs}+]+$/u;
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
const KEY_ID_HEX = /^[0-9a-f]{8}$/;

function keyLabel(name: string, keyId: Uint8Array): string {
  return `${name}+${toHex(keyId)}`;
}

/** The checkpoint's text: origin, size, base64 root, each line ending in a newline, then extension lines. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, rootHash, extensions } = checkpoint;
  if (origin === '' || origin.includes('\n') || hasForbiddenCharacter(origin))
    throw new Error('checkpoint: the origin must be one non-empty line without control characters');
  if (!Number.isSafeInteger(size) || size < 0)
    throw new Error(`checkpoint: the tree size must be a non-negative safe integer, not ${String(size)}`);
  if (rootHash.length !== ROOT_HASH_LENGTH)
    throw new Error(`checkpoint: the root hash must be ${ROOT_HASH_LENGTH} bytes, not ${rootHash.length}`);
  for (const line of extensions)
    if (line === '' || line.includes('\n') || hasForbiddenCharacter(line))
      throw new Error('checkpoint: an extension line must be one non-empty line without control characters');
  return [origin, String(size), toBase64(rootHash), ...extensions].map((line) => `${line}\n`).join('');
}

/** Parses a checkpoint's text (the note's text); throws an Error saying what is wrong. */
export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new Error('checkpoint: the text does not end with a newline');
  if (hasForbiddenCharacter(text))
    throw new Error('checkpoint: the text has a control character or is not UTF-8');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw new Error('checkpoint: fewer than three lines (origin, tree size, root hash)');
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin === '') throw new Error('checkpoint: the origin line is empty');
  if (!DECIMAL.test(sizeText))
    throw new Error('checkpoint: the tree size is not a decimal number without leading zeros');
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) throw new Error('checkpoint: the tree size is too large');
  let rootHash: Uint8Array;
  try {
    rootHash = fromBase64(rootText);
  } catch {
    throw new Error('checkpoint: the root hash is not standard base64');
  }
  if (rootHash.length !== ROOT_HASH_LENGTH)
    throw new Error(`checkpoint: the root hash is ${rootHash.length} bytes, not ${ROOT_HASH_LENGTH}`);
  if (extensions.some((line) => line === '')) throw new Error('checkpoint: an extension line is empty');
  return { origin, size, rootHash, extensions };
}

/** A key name as the signed-note format allows it: non-empty, no whitespace, no '+'. */
export function isValidKeyName(name: string): boolean {
  return typeof name === 'string' && KEY_NAME.test(name);
}

/** What a key id hashes (C2SP signed-note 'Signatures'): name ‖ 0x0A ‖ signature type ‖ public key. */
export function keyIdInput(name: string, signatureType: number, publicKey: Uint8Array): Uint8Array {
  return concatBytes(utf8.encode(name), new Uint8Array([NEWLINE, signatureType]), publicKey);
}

/** First 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ publicKey). */
export async function ed25519KeyId(name: string, publicKey: Uint8Array, sha256: Sha256): Promise<Uint8Array> {
  if (publicKey.length !== ED25519_KEY_LENGTH)
    throw new Error(`an Ed25519 public key is ${ED25519_KEY_LENGTH} bytes, not ${publicKey.length}`);
  const digest = await sha256(keyIdInput(name, ED25519, publicKey));
  return digest.slice(0, 4);
}

/** `<name>+<key id, 8 lowercase hex>+<base64(0x01 ‖ publicKey)>`. */
export async function formatVerifierKey(
  name: string,
  publicKey: Uint8Array,
  sha256: Sha256,
): Promise<string> {
  if (!isValidKeyName(name)) throw new Error(`verifier key: ${JSON.stringify(name)} is not a valid key name`);
  const keyId = await ed25519KeyId(name, publicKey, sha256);
  return verifierKeyText(name, keyId, ED25519, publicKey);
}

/** `<name>+<key id, 8 lowercase hex>+<base64(signature type ‖ publicKey)>`, for any signature type. */
export function verifierKeyText(
  name: string,
  keyId: Uint8Array,
  signatureType: number,
  publicKey: Uint8Array,
): string {
  return `${keyLabel(name, keyId)}+${toBase64(concatBytes(new Uint8Array([signatureType]), publicKey))}`;
}

/** Parses a verifier key string and checks that its key id matches its name and key; throws if not. */
export async function parseVerifierKey(text: string, sha256: Sha256): Promise<VerifierKey> {
  const { name, keyIdHex, publicKey } = splitVerifierKey(text, ED25519, 'an Ed25519 key');
  const keyId = await ed25519KeyId(name, publicKey, sha256);
  if (toHex(keyId) !== keyIdHex) throw new Error('verifier key: the key id does not match the name and key');
  return { name, keyId, publicKey };
}

/**
 * A verifier key string's parts, checked for form and for its signature type (a 32-byte key follows the
 * type byte); the caller checks the key id, which depends on the type. Throws saying what is wrong.
 */
export function splitVerifierKey(
  text: string,
  signatureType: number,
  kind: string,
): { name: string; keyIdHex: string; publicKey: Uint8Array } {
  // The base64 key may itself hold '+': split at the first two only.
  const first = text.indexOf('+');
  const second = text.indexOf('+', first + 1);
  if (first < 0 || second < 0) throw new Error('verifier key: not of the form <name>+<key id>+<key>');
  const [name, keyIdHex, keyText] = [
    text.slice(0, first),
    text.slice(first + 1, second),
    text.slice(second + 1),
  ];
  if (!isValidKeyName(name)) throw new Error('verifier key: the key name is empty or has a space');
  if (!KEY_ID_HEX.test(keyIdHex)) throw new Error('verifier key: the key id is not 8 lowercase hex digits');
  let key: Uint8Array;
  try {
    key = fromBase64(keyText);
  } catch {
    throw new Error('verifier key: the key is not standard base64');
  }
  const typeHex = `0x${signatureType.toString(16).padStart(2, '0')}`;
  if (key[0] !== signatureType)
    throw new Error(`verifier key: not ${kind} (its first byte is not ${typeHex})`);
  if (key.length !== 1 + ED25519_KEY_LENGTH)
    throw new Error(`verifier key: ${kind} is ${ED25519_KEY_LENGTH} bytes, not ${key.length - 1}`);
  return { name, keyIdHex, publicKey: key.slice(1) };
}

/** The note: text, one empty line, one `— <name> <base64(keyId ‖ signature)>` line per signature. */
export function formatSignedNote(text: string, signatures: readonly NoteSignature[]): string {
  if (!text.endsWith('\n')) throw new Error('signed note: the text does not end with a newline');
  if (hasForbiddenCharacter(text))
    throw new Error('signed note: the text has a control character or is not UTF-8');
  if (signatures.length === 0) throw new Error('signed note: no signature');
  if (signatures.length > MAX_NOTE_SIGNATURES) throw new Error('signed note: too many signatures');
  return `${text}\n${signatures.map(signatureLine).join('')}`;
}

/** One signature line, `— <name> <base64(keyId ‖ signature)>`, with its newline. */
export function signatureLine({ keyName, keyId, signature }: NoteSignature): string {
  if (!isValidKeyName(keyName))
    throw new Error(`signed note: ${JSON.stringify(keyName)} is not a valid key name`);
  if (keyId.length !== 4) throw new Error('signed note: a key id is 4 bytes');
  if (signature.length === 0) throw new Error('signed note: an empty signature');
  return `${SIGNATURE_PREFIX}${keyName} ${toBase64(concatBytes(keyId, signature))}\n`;
}

/** Splits a signed note into its text (final newline included) and signature lines; throws if malformed. */
export function parseSignedNote(note: string): { text: string; signatures: NoteSignature[] } {
  if (hasForbiddenCharacter(note)) throw new Error('signed note: it has a control character or is not UTF-8');
  // The text may hold empty lines: the signatures start after the last one.
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new Error('signed note: no empty line before the signatures');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block === '') throw new Error('signed note: no signature line');
  if (!block.endsWith('\n'))
    throw new Error('signed note: the last signature line does not end with a newline');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES)
    throw new Error(`signed note: more than ${MAX_NOTE_SIGNATURES} signature lines`);
  const signatures = lines.map((line, i): NoteSignature => {
    const where = `signed note: signature line ${i + 1}`;
    if (!line.startsWith(SIGNATURE_PREFIX))
      throw new Error(`${where} does not start with an em dash and a space`);
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    if (space < 0) throw new Error(`${where} has no space between the key name and the signature`);
    const keyName = rest.slice(0, space);
    if (!isValidKeyName(keyName)) throw new Error(`${where} has an invalid key name`);
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(rest.slice(space + 1));
    } catch {
      throw new Error(`${where}: the signature is not standard base64`);
    }
    if (bytes.length < 5) throw new Error(`${where}: the signature is shorter than a key id and one byte`);
    return { keyName, keyId: bytes.slice(0, 4), signature: bytes.slice(4) };
  });
  return { text, signatures };
}

/**
 * Verifies a signed note with one key: some signature line must carry the key's name and id and verify
 * over the text's UTF-8 bytes. Returns the text; throws an Error saying what failed.
 */
export async function verifySignedNote(
  note: string,
  key: VerifierKey,
  verify: Ed25519Verify,
): Promise<string> {
  const { text, signatures } = parseSignedNote(note);
  const label = keyLabel(key.name, key.keyId);
  // C2SP signed-note: lines from other keys are ignored (witnesses, a rotated key); a line from this key
  // that does not verify rejects the whole note, as Go's sumdb/note does.
  const ours = signatures.filter((line) => line.keyName === key.name && bytesEqual(line.keyId, key.keyId));
  if (ours.length === 0) throw new Error(`signed note: no signature by the key ${label}`);
  const message = utf8.encode(text);
  for (const { signature } of ours) {
    const valid =
      signature.length === ED25519_SIGNATURE_LENGTH && (await verify(key.publicKey, message, signature));
    if (!valid) throw new Error(`signed note: the signature by the key ${label} does not verify`);
  }
  return text;
}

/** A copy in its own ArrayBuffer: what Web Crypto's BufferSource type accepts everywhere. */
function own(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** Ed25519 verification through Web Crypto (`globalThis.crypto.subtle`), in browsers and in Node. */
export const webCryptoEd25519Verify: Ed25519Verify = async (publicKey, message, signature) => {
  // Wrong lengths are a bad signature, not an error: Web Crypto would throw on the key.
  if (publicKey.length !== ED25519_KEY_LENGTH || signature.length !== ED25519_SIGNATURE_LENGTH) return false;
  const subtle = globalThis.crypto.subtle;
  try {
    const key = await subtle.importKey('raw', own(publicKey), { name: 'Ed25519' }, false, ['verify']);
    return await subtle.verify({ name: 'Ed25519' }, key, own(signature), own(message));
  } catch (error) {
    // A key Web Crypto refuses cannot have signed anything; a browser without Ed25519 is another matter.
    if (error instanceof Error && error.name === 'DataError') return false;
    throw error;
  }
};

/** SHA-256 through Web Crypto. */
export const webCryptoSha256: Sha256 = async (bytes) =>
  new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', own(bytes)));
