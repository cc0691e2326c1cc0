import type { FastifyInstance } from 'fastify';
import { containsNulCharacter, NUL_CHARACTER_MESSAGE } from '#common/schemas/text.js';
import { badRequest } from '../lib/http-errors.js';

/** Whether any string in a parsed query, params or JSON body holds a NUL; raw bodies (the Stripe webhook) are not text we store. */
export function containsNul(value: unknown): boolean {
  return containsNulCharacter(value, (object) => Buffer.isBuffer(object));
}

/**
 * PostgreSQL cannot store U+0000 in text or jsonb: a NUL reaching a query would come back as a 500.
 * Every parsed query string, route param and JSON body is checked here, once, before the
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
