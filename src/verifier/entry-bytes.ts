// The per-entry checks that dominate a large run, done natively where the common formats' portable versions
// (which also run in browsers) are slower.
import { hash } from 'node:crypto';
import { canonicalBytes, type SealedPick } from '../common/pick-seal.js';

// Standard padded base64 once its length is a multiple of four: the alphabet, then at most two pads.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Standard padded base64, strictly: Node's decoder skips what it does not know, so the text must be exactly
 * what encoding the bytes again gives (one text per byte string, as fromBase64 requires). Checked by shape
 * and by the padding's unused bits being zero, which is the same thing without writing the text again.
 */
export function entryFromBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
  if (text.endsWith('==')) {
    if (ALPHABET.indexOf(text[text.length - 3]!) & 0x0f) return null;
  } else if (text.endsWith('=')) {
    if (ALPHABET.indexOf(text[text.length - 2]!) & 0x03) return null;
  }
  return Buffer.from(text, 'base64');
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// A surrogate, raw or escaped (JSON.stringify escapes a lone one, which JCS refuses instead).
const SURROGATE = /[\uD800-\uDFFF]|\\u[dD][89a-fA-F]/;

/** The bytes as UTF-8 text; null when they are not UTF-8. */
export function entryText(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Whether `bytes` are the RFC 8785 canonical form of `entry` (the value parsed from them). */
export function isCanonical(entry: object, bytes: Uint8Array): boolean {
  const text = entryText(bytes);
  return text !== null && isCanonicalText(entry, text);
}

/**
 * Whether `text` is the RFC 8785 canonical form of `entry` (the value parsed from it). Written here with
 * keys sorted by UTF-16 code units and strings and numbers as JSON.stringify writes them, which is what
 * RFC 8785 §3.2.2 prescribes; text with surrogates (JCS refuses lone ones) goes through the common
 * canonicaliser.
 */
export function isCanonicalText(entry: object, text: string): boolean {
  if (!SURROGATE.test(text))
    return (keysSorted(entry) && JSON.stringify(entry) === text) || canonicalText(entry) === text;
  const canonical = canonicalBytes(entry);
  return Buffer.from(canonical.buffer, canonical.byteOffset, canonical.byteLength).toString() === text;
}

/**
 * Whether every object in `value` enumerates its keys in RFC 8785's order: then JSON.stringify writes its
 * canonical text natively. (An object with integer-like keys may not, as V8 lists those first: it takes
 * canonicalText's way.)
 */
function keysSorted(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!keysSorted(item)) return false;
    return true;
  }
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
    if (!keysSorted((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * RFC 8785 text of a parsed JSON value without surrogates in its strings (the caller checks: JSON.stringify
 * would escape a lone one where JCS refuses it); undefined for what JSON cannot hold.
 */
export function canonicalText(value: unknown): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : undefined;
  if (typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      const item = canonicalText(value[i]);
      if (item === undefined) return undefined;
      text += (i === 0 ? '' : ',') + item;
    }
    return text + ']';
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let text = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = canonicalText(object[key]);
    if (item === undefined) return undefined;
    text += (i === 0 ? '' : ',') + JSON.stringify(key) + ':' + item;
  }
  return text + '}';
}

/** The commitment to a sealed pick (lowercase hex SHA-256 of its canonical bytes), as pick-seal computes it. */
export function sealedCommitment(sealed: SealedPick): string {
  const text = keysSorted(sealed) ? JSON.stringify(sealed) : canonicalText(sealed);
  if (text !== undefined && !SURROGATE.test(text)) return hash('sha256', text, 'hex');
  return hash('sha256', canonicalBytes(sealed), 'hex');
}
