// Signed tokens for links sent by mail (confirm an address, unsubscribe): the payload travels in the link,
// so nothing is stored; HMAC-SHA256 proves the server made it and an expiry bounds how long it works.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type LinkPayload = Record<string, string | number>;

export type VerifiedLink =
  { ok: true; payload: LinkPayload; expiresAt: Date } | { ok: false; reason: 'invalid' | 'expired' };

const mac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest();

/**
 * `<base64url(JSON payload with its expiry in seconds as "x")>.<base64url(HMAC-SHA256)>`. The payload is
 * readable by whoever holds the link: put ids in it, never secrets.
 */
export function signLink(secret: string, payload: LinkPayload, expiresAt: Date): string {
  if ('x' in payload) throw new Error('"x" is the expiry: a payload may not use that name');
  const body = Buffer.from(
    JSON.stringify({ ...payload, x: Math.floor(expiresAt.getTime() / 1000) }),
  ).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/** The payload when the token is the server's own and unexpired; why not otherwise. */
export function verifyLink(secret: string, token: string, now = new Date()): VerifiedLink {
  const parts = token.split('.');
  if (parts.length !== 2 || !/^[\w-]+$/.test(parts[0]!) || !/^[\w-]+$/.test(parts[1]!))
    return { ok: false, reason: 'invalid' };
  const [body, signature] = parts as [string, string];
  // Compared as text: decoding would ignore the last character's spare bits, so another spelling of the
  // same signature would pass. Constant time: it must not tell how many leading characters were right.
  const expected = Buffer.from(mac(secret, body).toString('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded))
    return { ok: false, reason: 'invalid' };
  const { x, ...payload } = decoded as Record<string, unknown>;
  if (typeof x !== 'number' || !Number.isFinite(x)) return { ok: false, reason: 'invalid' };
  if (x * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  for (const value of Object.values(payload))
    if (typeof value !== 'string' && typeof value !== 'number') return { ok: false, reason: 'invalid' };
  return { ok: true, payload: payload as LinkPayload, expiresAt: new Date(x * 1000) };
}
