import { describe, expect, it } from 'vitest';
import { alertHref, timeAgo } from './notification-text';

describe('timeAgo', () => {
  const now = Date.parse('2026-12-07T12:00:00Z');
  it('says how long ago, in the largest whole unit, then the date after a week', () => {
    expect(timeAgo('2026-12-07T11:59:30Z', now)).toBe('just now');
    expect(timeAgo('2026-12-07T11:55:00Z', now)).toBe('5 minutes ago');
    expect(timeAgo('2026-12-07T09:00:00Z', now)).toBe('3 hours ago');
    expect(timeAgo('2026-12-06T11:00:00Z', now)).toBe('yesterday');
    expect(timeAgo('2026-12-03T12:00:00Z', now)).toBe('4 days ago');
    expect(timeAgo('2026-11-01T12:00:00Z', now)).toBe('Nov 1, 2026');
  });
  it('reads a clock slightly ahead of this one as just now, and nonsense as nothing', () => {
    expect(timeAgo('2026-12-07T12:00:05Z', now)).toBe('just now');
    expect(timeAgo('not a date', now)).toBe('');
  });
});

describe('alertHref', () => {
  it('keeps paths of this site and sends anything else to the notifications page', () => {
    expect(alertHref('/video/12')).toBe('/video/12');
    expect(alertHref('//evil.example/x')).toBe('/notifications');
    expect(alertHref('/\\evil.example')).toBe('/notifications');
    expect(alertHref('https://evil.example/')).toBe('/notifications');
    expect(alertHref('javascript:alert(1)')).toBe('/notifications');
  });
});
