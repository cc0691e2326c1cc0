import { describe, expect, it } from 'vitest';
import { LoginSchema, RegisterSchema } from './auth.js';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('LoginSchema', () => {
  it('carries the messages of spec section 5', () => {
    expect(messages(LoginSchema.safeParse({ username: 'ab', password: '12345' }))).toEqual([
      'Username must be at least 3 characters.',
      'Password must be at least 6 characters.',
    ]);
    expect(LoginSchema.safeParse({ username: 'abc', password: '123456' }).success).toBe(true);
  });
});

describe('RegisterSchema', () => {
  it('treats an empty phone as not given and a short one as an error', () => {
    expect(
      RegisterSchema.parse({ username: 'abc', password: '123456', phoneNumber: '' }).phoneNumber,
    ).toBeUndefined();
    expect(
      messages(RegisterSchema.safeParse({ username: 'abc', password: '123456', phoneNumber: '12345' })),
    ).toEqual(['Phone number must be at least 10 digits.']);
  });

  it('accepts the fields the form sends, empty bio and avatar included', () => {
    const parsed = RegisterSchema.parse({
      username: ' spaced ',
      password: 'secret1',
      phoneNumber: '5550100199',
      bio: '',
      avatarUrl: '',
    });
    expect(parsed).toEqual({ username: 'spaced', password: 'secret1', phoneNumber: '5550100199' });
  });

  it('refuses usernames with spaces or markup and avatar URLs that are not http(s)', () => {
    expect(RegisterSchema.safeParse({ username: 'a b c', password: 'secret1' }).success).toBe(false);
    expect(RegisterSchema.safeParse({ username: '<b>x</b>', password: 'secret1' }).success).toBe(false);
    expect(
      RegisterSchema.safeParse({ username: 'abc', password: 'secret1', avatarUrl: 'javascript:alert(1)' })
        .success,
    ).toBe(false);
  });
});
