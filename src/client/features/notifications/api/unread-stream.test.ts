import { describe, expect, it } from 'vitest';
import { parseUnread } from './unread-stream';

describe('parseUnread', () => {
  it('reads the count of an unread event', () => {
    expect(parseUnread('{"unread":3}')).toBe(3);
    expect(parseUnread('{"unread":0}')).toBe(0);
  });
  it('ignores data that is not a whole, non-negative count', () => {
    expect(parseUnread('{"unread":-1}')).toBeNull();
    expect(parseUnread('{"unread":1.5}')).toBeNull();
    expect(parseUnread('{"unread":"3"}')).toBeNull();
    expect(parseUnread('{}')).toBeNull();
    expect(parseUnread('not json')).toBeNull();
    expect(parseUnread(undefined)).toBeNull();
  });
});
