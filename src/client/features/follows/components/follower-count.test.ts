import { describe, expect, it } from 'vitest';
import { formatFollowers } from './follower-count';

describe('formatFollowers', () => {
  it('says follower for one and groups thousands', () => {
    expect(formatFollowers(0)).toBe('0 followers');
    expect(formatFollowers(1)).toBe('1 follower');
    expect(formatFollowers(2)).toBe('2 followers');
    expect(formatFollowers(1234)).toBe('1,234 followers');
    expect(formatFollowers(1_234_567)).toBe('1,234,567 followers');
  });
});
