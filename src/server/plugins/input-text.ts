import type { FastifyInstance } from 'fastify';
import { hasNulCharacter, NUL_CHARACTER_MESSAGE } from '#common/schemas/text.js';
import { badRequest } from '../lib/http-errors.js';

/**
 * Whether any string in a parsed value (query, params, JSON body), key or value, holds a NUL. Iterative,
 * so a deeply nested body cannot overflow the stack; each string is looked at once.
 */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return hasNulCharacter(value);
  if (value === null || typeof value !== 'object') return false;
  const pending: object[] = [value];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (Array.isArray(current)) {
      for (const item of current) {
        if (typeof item === 'string') {
          if (hasNulCharacter(item)) return true;
        } else if (item !== null && typeof item === 'object') pending.push(item as object);
      }
      continue;
    }
    if (Buffer.isBuffer(current)) continue; // raw bodies (the Stripe webhook) are not text we store
    for (const key in current) {
      if (hasNulCharacter(key)) return true;
      const item = (current as Record<string, unknown>)[key];
      if (typeof item === 'string') {
        if (hasNulCharacter(item)) return true;
      } else if (item !== null && typeof item === 'object') pending.push(item);
    }
  }
  return false;
}

/**
 * PostgreSQL cannot store U+0000 in text or jsonb: a NUL used to reach a query and come back as a 500
 * (issue 11). Every parsed query string, route param and JSON body is checked here, once, before the
 * route's schema; multipart fields and tus metadata are read by their routes, which check them too.
 */
export function registerInputTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (containsNul(request.query) || containsNul(request.params) || containsNul(request.body)) {
      done(badRequest(NUL_CHARACTER_MESSAGE));
      return;
    }
    done();
  });
}
