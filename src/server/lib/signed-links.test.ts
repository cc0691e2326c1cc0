import { describe, expect, it } from 'vitest';
import { signLink, verifyLink } from './signed-links.js';

const SECRET = 'a-secret-long-enough-for-the-tests-0123456789';
const inOneHour = () => new Date(Date.now() + 60 * 60 * 1000);

describe('signed links', () => {
  it('gives back the payload of a token it signed', () => {
    const token = signLink(SECRET, { u: 42, e: 'ann@example.com' }, inOneHour());
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/);
    const result = verifyLink(SECRET, token);
    expect(result).toMatchObject({ ok: true, payload: { u: 42, e: 'ann@example.com' } });
  });

  it('refuses a token signed with another secret', () => {
    const token = signLink('another-secret-entirely-0123456789abcdef', { u: 1 }, inOneHour());
    expect(verifyLink(SECRET, token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a token whose payload was changed', () => {
    const token = signLink(SECRET, { u: 1 }, inOneHour());
    const [, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ u: 2, x: Math.floor(inOneHour().getTime() / 1000) }));
    expect(verifyLink(SECRET, `${forged.toString('base64url')}.${signature}`)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refuses a token whose signature was changed or cut', () => {
    const token = signLink(SECRET, { u: 1 }, inOneHour());
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(verifyLink(SECRET, token.slice(0, -1) + last)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyLink(SECRET, token.slice(0, -4))).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses another spelling of the same signature: its last character with a spare bit changed', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const token = signLink(SECRET, { u: 1 }, inOneHour());
    // A 32-byte MAC is 43 characters: the last one carries 4 bits, its 2 lowest are spare.
    const last = alphabet.indexOf(token.at(-1)!);
    const respelled = token.slice(0, -1) + alphabet[last ^ 1];
    const [, signature] = respelled.split('.');
    expect(Buffer.from(signature!, 'base64url')).toEqual(Buffer.from(token.split('.')[1]!, 'base64url'));
    expect(verifyLink(SECRET, respelled)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses garbage', () => {
    for (const token of ['', '.', 'abc', 'a.b.c', 'not base64!.x'])
      expect(verifyLink(SECRET, token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('says an expired token is expired, once its time has passed', () => {
    const expiresAt = new Date('2030-01-01T00:00:00Z');
    const token = signLink(SECRET, { u: 1 }, expiresAt);
    expect(verifyLink(SECRET, token, new Date('2029-12-31T23:59:59Z')).ok).toBe(true);
    expect(verifyLink(SECRET, token, new Date('2030-01-01T00:00:00Z'))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('keeps the expiry name for itself', () => {
    expect(() => signLink(SECRET, { x: 1 }, inOneHour())).toThrow(/expiry/);
  });
});
