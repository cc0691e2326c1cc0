// OWASP "device cookies" (Credential Stuffing cheat sheet): a browser that has signed in to an
// account carries a signed cookie naming that account, and keeps its own failure count for it, so a
// stranger's wrong passwords that lock the account for unknown devices do not lock its owner out.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const DEVICE_COOKIE = 'pickreel_device';
const DEVICE_TTL_MS = 365 * 24 * 60 * 60 * 1000;

export interface Device {
  userId: number;
  /** Random, new at every sign-in; names this browser's own failure counter. */
  id: string;
}

/** The request's device cookie, when it is one we signed; anything else is an unknown device. */
export function readDevice(request: FastifyRequest): Device | null {
  const raw = request.cookies[DEVICE_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{16,64})$/.exec(unsigned.value);
  if (!match) return null;
  return { userId: Number(match[1]), id: match[2]! };
}

/** Marks this browser as a known device of the user (at every successful sign-in or registration). */
export function issueDevice(reply: FastifyReply, request: FastifyRequest, userId: number): void {
  // Sent only to the sign-in endpoint: nothing else needs it.
  reply.setCookie(DEVICE_COOKIE, `${userId}.${randomBytes(18).toString('base64url')}`, {
    path: '/api/login',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    signed: true,
    expires: new Date(Date.now() + DEVICE_TTL_MS),
  });
}
