// C2SP tlog-checkpoint inside a C2SP signed note, with Ed25519 (pick-log.md 'The checkpoint').
import type { Sha256 } from '../pick-seal.js';

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

/** The checkpoint's text: origin, size, base64 root, each line ending in a newline, then extension lines. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  throw new Error('not implemented');
}

/** Parses a checkpoint's text (the note's text); throws an Error saying what is wrong. */
export function parseCheckpoint(text: string): Checkpoint {
  throw new Error('not implemented');
}

/** A key name as the signed-note format allows it: non-empty, no whitespace, no '+'. */
export function isValidKeyName(name: string): boolean {
  throw new Error('not implemented');
}

/** First 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ publicKey). */
export function ed25519KeyId(name: string, publicKey: Uint8Array, sha256: Sha256): Promise<Uint8Array> {
  throw new Error('not implemented');
}

/** `<name>+<key id, 8 lowercase hex>+<base64(0x01 ‖ publicKey)>`. */
export function formatVerifierKey(name: string, publicKey: Uint8Array, sha256: Sha256): Promise<string> {
  throw new Error('not implemented');
}

/** Parses a verifier key string and checks that its key id matches its name and key; throws if not. */
export function parseVerifierKey(text: string, sha256: Sha256): Promise<VerifierKey> {
  throw new Error('not implemented');
}

/** The note: text, one empty line, one `— <name> <base64(keyId ‖ signature)>` line per signature. */
export function formatSignedNote(text: string, signatures: readonly NoteSignature[]): string {
  throw new Error('not implemented');
}

/** Splits a signed note into its text (final newline included) and signature lines; throws if malformed. */
export function parseSignedNote(note: string): { text: string; signatures: NoteSignature[] } {
  throw new Error('not implemented');
}

/**
 * Verifies a signed note with one key: some signature line must carry the key's name and id and verify
 * over the text's UTF-8 bytes. Returns the text; throws an Error saying what failed.
 */
export function verifySignedNote(note: string, key: VerifierKey, verify: Ed25519Verify): Promise<string> {
  throw new Error('not implemented');
}

/** Ed25519 verification through Web Crypto (`globalThis.crypto.subtle`), in browsers and in Node. */
export const webCryptoEd25519Verify: Ed25519Verify = async () => {
  throw new Error('not implemented');
};

/** SHA-256 through Web Crypto. */
export const webCryptoSha256: Sha256 = async () => {
  throw new Error('not implemented');
};
