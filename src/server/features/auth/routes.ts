import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LoginSchema, RegisterSchema } from '../../../common/schemas/auth.js';
import type { Db } from '../../db/client.js';
import { HttpError, unauthorized } from '../../lib/http-errors.js';
import { INVALID_CREDENTIALS, authenticate, registerUser } from './auth-service.js';
import { clearSessionCookie } from './session.js';
import { toPublicUser } from './users-repository.js';

export interface AuthRateLimits {
  /** Attempts per IP per minute, per route (login, register). */
  perIpPerMinute: number;
  /** Failed logins per username per 15 minutes. */
  failedLoginsPerUsername: number;
}

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = { perIpPerMinute: 30, failedLoginsPerUsername: 10 };

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

function tooMany(seconds: number): HttpError {
  const wait = Math.max(1, Math.ceil(seconds));
  return new HttpError(429, `Too many attempts. Please wait ${wait} seconds and try again.`, {
    'retry-after': String(wait),
  });
}

/** Counts this request against the limit; 429 once it is over. */
async function consume(limiter: Limiter, request: FastifyRequest): Promise<void> {
  const result = await limiter(request);
  if (!result.isAllowed && result.isExceeded) throw tooMany(result.ttlInSeconds);
}

/** 429 when the limit is already used up, without counting this request. */
async function ensureNotSpent(limiter: Limiter, request: FastifyRequest): Promise<void> {
  const result = await limiter(request, { increment: false });
  if (!result.isAllowed && result.remaining <= 0) throw tooMany(result.ttlInSeconds);
}

export async function authRoutes(app: FastifyInstance, options: { db: Db; limits: AuthRateLimits }) {
  const { db, limits } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();

  const perIp = (name: string) =>
    app.createRateLimit({
      max: limits.perIpPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => `${name}:ip:${request.ip}`,
    });
  const loginPerIp = perIp('login');
  const registerPerIp = perIp('register');
  // Only failures count against a username, so its owner is not locked out by their own sign-ins.
  const loginFailuresPerUsername = app.createRateLimit({
    max: limits.failedLoginsPerUsername,
    timeWindow: 15 * 60_000,
    keyGenerator: (request) => {
      const body = request.body as { username?: unknown } | undefined;
      return `login:user:${String(body?.username ?? '')
        .trim()
        .toLowerCase()}`;
    },
  });

  api.get('/api/user', async (request) => {
    if (!request.user) throw unauthorized('Not signed in.');
    return toPublicUser(request.user);
  });

  api.post(
    '/api/register',
    { schema: { body: RegisterSchema }, preValidation: (request) => consume(registerPerIp, request) },
    async (request, reply) => {
      const user = await registerUser(db, request.body);
      await app.sessions.end(request);
      await app.sessions.start(reply, request, user.id);
      request.log.info({ userId: user.id }, 'user registered');
      return reply.code(201).send(toPublicUser(user));
    },
  );

  api.post(
    '/api/login',
    { schema: { body: LoginSchema }, preValidation: (request) => consume(loginPerIp, request) },
    async (request, reply) => {
      await ensureNotSpent(loginFailuresPerUsername, request);
      const user = await authenticate(db, request.body);
      if (!user) {
        await consume(loginFailuresPerUsername, request);
        throw unauthorized(INVALID_CREDENTIALS);
      }
      // A new session id on every login: an id planted before sign-in must not survive it (fixation).
      await app.sessions.end(request);
      await app.sessions.start(reply, request, user.id);
      return toPublicUser(user);
    },
  );

  api.post('/api/logout', async (request, reply) => {
    await app.sessions.end(request);
    clearSessionCookie(reply, request);
    return { message: 'Logged out' };
  });
}
