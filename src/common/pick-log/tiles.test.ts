import { describe, expect, it } from 'vitest';
import {
  decodeEntryBundle,
  encodeEntryBundle,
  parseTileLevel,
  parseTileRefPath,
  tileIndexPath,
  tileRefPath,
  tileWidthIn,
} from './tiles.js';

describe('tile paths (C2SP tlog-tiles)', () => {
  it('writes an index in groups of three digits, x before all but the last', () => {
    expect(tileIndexPath(0)).toBe('000');
    expect(tileIndexPath(5)).toBe('005');
    expect(tileIndexPath(999)).toBe('999');
    expect(tileIndexPath(1000)).toBe('x001/000');
    expect(tileIndexPath(1234067)).toBe('x001/x234/067');
    expect(tileRefPath({ index: 1234067, width: 256 })).toBe('x001/x234/067');
    expect(tileRefPath({ index: 3, width: 112 })).toBe('003.p/112');
  });

  it('reads back what it writes, and nothing else', () => {
    for (const ref of [
      { index: 0, width: 256 },
      { index: 1234067, width: 256 },
      { index: 1000, width: 1 },
      { index: 42, width: 255 },
    ])
      expect(parseTileRefPath(tileRefPath(ref))).toEqual(ref);
    for (const path of [
      '',
      '0',
      '05',
      '0005',
      'x000/005', // one path per tile: no empty group in front
      '001/002',
      'x001',
      '001.p/0',
      '001.p/256',
      '001.p/012',
      '001.p/',
      '001.p',
      '001/',
      '-01',
      '1e3',
      'x001/x234/067.p/12/',
      '../001',
    ])
      expect(parseTileRefPath(path), path).toBeNull();
  });

  it('reads a level from 0 to 63 without leading zeroes', () => {
    expect(parseTileLevel('0')).toBe(0);
    expect(parseTileLevel('7')).toBe(7);
    expect(parseTileLevel('63')).toBe(63);
    for (const text of ['', '00', '01', '64', '100', '-1', 'a', ' 1'])
      expect(parseTileLevel(text), text).toBeNull();
  });
});

describe('which tiles a tree holds', () => {
  it('follows the specification’s example: a tree of 70,000 entries', () => {
    expect(tileWidthIn(70_000, 0, 272)).toBe(256);
    expect(tileWidthIn(70_000, 0, 273)).toBe(112);
    expect(tileWidthIn(70_000, 0, 274)).toBe(0);
    expect(tileWidthIn(70_000, 1, 0)).toBe(256);
    expect(tileWidthIn(70_000, 1, 1)).toBe(17);
    expect(tileWidthIn(70_000, 2, 0)).toBe(1);
    expect(tileWidthIn(70_000, 3, 0)).toBe(0);
  });

  it('and a tree of 256: one full level-0 tile, a level-1 tile of width 1', () => {
    expect(tileWidthIn(256, 0, 0)).toBe(256);
    expect(tileWidthIn(256, 0, 1)).toBe(0);
    expect(tileWidthIn(256, 1, 0)).toBe(1);
    expect(tileWidthIn(0, 0, 0)).toBe(0);
  });
});

describe('entry bundles', () => {
  it('are big-endian uint16 lengths, each before its entry, and read back', () => {
    const entries = [new Uint8Array([1, 2, 3]), new Uint8Array(0), new Uint8Array(300).fill(7)];
    const bundle = encodeEntryBundle(entries);
    expect([...bundle.subarray(0, 5)]).toEqual([0, 3, 1, 2, 3]);
    expect([...bundle.subarray(5, 7)]).toEqual([0, 0]);
    expect([...bundle.subarray(7, 9)]).toEqual([1, 44]);
    expect(bundle.byteLength).toBe(2 + 3 + 2 + 2 + 300);
    expect(decodeEntryBundle(bundle)).toEqual(entries);
  });

  it('refuses an entry too long to bundle, and a bundle cut short', () => {
    expect(() => encodeEntryBundle([new Uint8Array(65_536)])).toThrow();
    expect(() => decodeEntryBundle(new Uint8Array([0, 5, 1, 2]))).toThrow('cut short');
    expect(() => decodeEntryBundle(new Uint8Array([0]))).toThrow('cut short');
  });
});
