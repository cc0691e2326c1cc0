import { describe, expect, it } from 'vitest';
import { containsNul } from './input-text.js';

describe('containsNul (text PostgreSQL cannot store)', () => {
  it('finds a NUL in any string, key or value, however deep', () => {
    expect(containsNul('a\0b')).toBe(true);
    expect(containsNul({ a: [{ b: ['x', 'y\0'] }] })).toBe(true);
    expect(containsNul({ ['k\0']: 1 })).toBe(true);
    expect(containsNul({ a: 'fine', b: [1, null, true, { c: 'also fine' }] })).toBe(false);
    expect(containsNul(undefined)).toBe(false);
    expect(containsNul(Buffer.from('a\0b'))).toBe(false);
  });

  it('walks a deeply nested value without recursion', () => {
    let deep: unknown = 'x\0';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(containsNul(deep)).toBe(true);
  });
});
