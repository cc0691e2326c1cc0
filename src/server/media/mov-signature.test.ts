import { describe, expect, it } from 'vitest';
import { isQuickTime } from './mov-signature.js';

const atom = (size: number, type: string, rest = '') =>
  Buffer.concat([
    Buffer.from([size >>> 24, (size >> 16) & 255, (size >> 8) & 255, size & 255]),
    Buffer.from(type + rest, 'latin1'),
  ]);

describe('isQuickTime', () => {
  it('accepts an ftyp atom with the QuickTime brand', () => {
    expect(isQuickTime(atom(20, 'ftyp', 'qt  \0\0\0\0'))).toBe(true);
  });
  it.each(['moov', 'mdat', 'wide', 'free', 'skip'])('accepts a classic file starting with %s', (type) => {
    expect(isQuickTime(atom(8, type, '\0\0\0\0'))).toBe(true);
  });
  it('refuses an MP4, a PNG, text and nothing', () => {
    expect(isQuickTime(atom(32, 'ftyp', 'isom\0\0\x02\0'))).toBe(false);
    expect(isQuickTime(atom(32, 'ftyp', 'mp42\0\0\0\0'))).toBe(false);
    expect(isQuickTime(Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR', 'latin1'))).toBe(false);
    expect(isQuickTime(Buffer.from('hello world, not a video', 'latin1'))).toBe(false);
    expect(isQuickTime(Buffer.alloc(0))).toBe(false);
  });
  it('refuses a classic atom whose size cannot hold its own header', () => {
    expect(isQuickTime(atom(4, 'moov', '\0\0\0\0'))).toBe(false);
  });
});
