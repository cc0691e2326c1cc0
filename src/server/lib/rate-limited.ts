// The answer of a route-level limit (`app.createRateLimit`): a clear 429 saying how long to wait.
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-errors.js';

type LimitCheck = (
  request: FastifyRequest,
) => Promise<{ isAllowed: true } | { isAllowed: false; isExceeded: boolean; ttlInSeconds: number }>;

/** A preHandler: 429 "Too many <what>. Please wait N seconds…" with Retry-After once `check` refuses. */
export function rateLimited(check: LimitCheck, what: string) {
  return async (request: FastifyRequest): Promise<void> => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      const wait = Math.max(1, Math.ceil(result.ttlInSeconds));
      throw new HttpError(429, `Too many ${what}. Please wait ${wait} seconds and try again.`, {
        'retry-after': String(wait),
      });
    }
  };
}
