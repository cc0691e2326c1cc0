// Standard base64 (RFC 4648 §4, with padding), the same in Node and browsers.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Map<string, number>([...ALPHABET].map((char, value) => [char, value]));
// Whole quads, then at most one padded quad whose unused bits are zero: one text per byte string, so a
// signature line or a root hash cannot be written two ways.
const STANDARD = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/;

export function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = i + 1 < bytes.length ? bytes[i + 1]! : 0;
    const c = i + 2 < bytes.length ? bytes[i + 2]! : 0;
    text += ALPHABET[a >> 2]! + ALPHABET[((a & 3) << 4) | (b >> 4)]!;
    text += i + 1 < bytes.length ? ALPHABET[((b & 15) << 2) | (c >> 6)]! : '=';
    text += i + 2 < bytes.length ? ALPHABET[c & 63]! : '=';
  }
  return text;
}

/** Throws on anything that is not standard padded base64. */
export function fromBase64(text: string): Uint8Array {
  if (typeof text !== 'string' || !STANDARD.test(text)) throw new Error('not standard padded base64');
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let out = 0;
  for (let i = 0; i < text.length; i += 4) {
    const quad =
      (VALUES.get(text[i]!)! << 18) |
      (VALUES.get(text[i + 1]!)! << 12) |
      ((VALUES.get(text[i + 2]!) ?? 0) << 6) |
      (VALUES.get(text[i + 3]!) ?? 0);
    bytes[out++] = quad >> 16;
    if (out < bytes.length) bytes[out++] = (quad >> 8) & 255;
    if (out < bytes.length) bytes[out++] = quad & 255;
  }
  return bytes;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
