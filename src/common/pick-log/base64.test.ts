import { describe, expect, it } from 'vitest';
import { bytesEqual, concatBytes, fromBase64, toBase64 } from './base64.js';

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('base64', () => {
  it('encodes and decodes the RFC 4648 §10 test vectors', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, encoded] of vectors) {
      expect(toBase64(ascii(text))).toBe(encoded);
      expect(new TextDecoder().decode(fromBase64(encoded))).toBe(text);
    }
  });

  it('matches Node for every byte value and every length up to 70', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => (i * 167) & 255);
    for (let length = 0; length <= 70; length++) {
      const part = bytes.subarray(length, length * 2 + 50);
      const expected = Buffer.from(part).toString('base64');
      expect(toBase64(part)).toBe(expected);
      expect(bytesEqual(fromBase64(expected), part)).toBe(true);
    }
  });

  it('refuses what is not standard padded base64', () => {
    for (const bad of [
      'Zg',
      'Zg=',
      'Zm8',
      'Z===',
      'Zg==Zg==',
      'Zm9v\n',
      ' Zm9v',
      'Zm-_',
      'Zh==',
      'Zm9=',
      '====',
    ]) {
      expect(() => fromBase64(bad), bad).toThrow(/base64/);
    }
  });

  it('concatenates and compares bytes', () => {
    expect(concatBytes(ascii('ab'), new Uint8Array(0), ascii('c'))).toEqual(ascii('abc'));
    expect(concatBytes()).toEqual(new Uint8Array(0));
    expect(bytesEqual(ascii('abc'), ascii('abc'))).toBe(true);
    expect(bytesEqual(ascii('abc'), ascii('abd'))).toBe(false);
    expect(bytesEqual(ascii('abc'), ascii('ab'))).toBe(false);
  });
});
