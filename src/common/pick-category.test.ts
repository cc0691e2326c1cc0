import { describe, expect, it } from 'vitest';
import { legsCategory } from './pick-category.js';

describe('legsCategory', () => {
  it('is null without legs: the video keeps its own category', () => {
    expect(legsCategory([])).toBeNull();
  });

  it('is the league of a single leg, and of legs all in one league (a one-league parlay too)', () => {
    expect(legsCategory([{ league: 'NBA' }])).toBe('NBA');
    expect(legsCategory([{ league: 'College Basketball' }, { league: 'College Basketball' }])).toBe(
      'College Basketball',
    );
  });

  it('is Parlays across leagues', () => {
    expect(legsCategory([{ league: 'NBA' }, { league: 'College Basketball' }])).toBe('Parlays');
    expect(legsCategory([{ league: 'NFL' }, { league: 'NFL' }, { league: 'NHL' }])).toBe('Parlays');
  });
});
