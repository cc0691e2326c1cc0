// Standard base64 (RFC 4648 §4, with padding), the same in Node and browsers.

export function toBase64(bytes: Uint8Array): string {
  throw new Error('not implemented');
}

/** Throws on anything that is not standard padded base64. */
export function fromBase64(text: string): Uint8Array {
  throw new Error('not implemented');
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  throw new Error('not implemented');
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  throw new Error('not implemented');
}
