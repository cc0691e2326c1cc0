// The two per-entry checks that dominate a million-entry run (issue 15 bench: ≤ 30 s), done natively
// where the common formats' portable versions (which also run in browsers) are slower.
import { canonicalBytes } from '../common/pick-seal.js';

/**
 * Standard padded base64, strictly: Node's decoder skips what it does not know, so the text must also be
 * exactly what encoding the bytes again gives (one text per byte string, as fromBase64 requires).
 */
export function entryFromBase64(text: string): Uint8Array | null {
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// A surrogate, raw or escaped (JSON.stringify escapes a lone one, which JCS refuses instead).
const SURROGATE = /[\uD800-\uDFFF]|\\u[dD][89a-fA-F]/;

/**
 * Whether `bytes` are the RFC 8785 canonical form of `entry` (the value parsed from them). A flat object
 * (what log entries are) is written here: keys sorted by UTF-16 code units, strings and numbers as
 * JSON.stringify writes them, which is what RFC 8785 §3.2.2 prescribes. Anything else, or text with
 * surrogates (JCS refuses lone ones), goes through the common canonicaliser.
 */
export function isCanonical(entry: object, bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return false;
  }
  const flat = SURROGATE.test(text) ? undefined : flatCanonicalText(entry as Record<string, unknown>);
  if (flat !== undefined) return flat === text;
  const canonical = canonicalBytes(entry);
  return Buffer.from(canonical.buffer, canonical.byteOffset, canonical.byteLength).equals(bytes);
}

function flatCanonicalText(object: Record<string, unknown>): string | undefined {
  if (Array.isArray(object)) return undefined;
  const keys = Object.keys(object).sort();
  let text = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = object[key];
    if (typeof value === 'object' && value !== null) return undefined;
    if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
    text += (i === 0 ? '' : ',') + JSON.stringify(key) + ':' + JSON.stringify(value);
  }
  return text + '}';
}
