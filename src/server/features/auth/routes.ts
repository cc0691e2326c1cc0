import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageSchema } from '#common/schemas/api.js';
import { LoginSchema, RegisterSchema, SessionSchema, UserSchema } from '#common/schemas/auth.js';
import type { Db } from '#server/db/client.js';
import { unauthorized } from '#server/lib/http-errors.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { INVALID_CREDENTIALS, authenticate, registerUser } from './auth-service.js';
import { issueDevice, readDevice } from './device-cookie.js';
import { confirmationKey } from './email-confirmation.js';
import { linkOrigin } from './email-routes.js';
import { clearSessionCookie } from './session.js';
import { AuthThrottle, type AuthRateLimits } from './throttle.js';
import { backfillUsernameKeys, toPublicUser } from './users-repository.js';

export { DEFAULT_AUTH_RATE_LIMITS, type AuthRateLimits } from './throttle.js';

const THROTTLE_SWEEP_MS = 10 * 60_000;

export async function authRoutes(
  app: FastifyInstance,
  options: { db: Db; limits: AuthRateLimits; sessionSecret: string; publicUrl: string | undefined },
) {
  const { db, limits } = options;
  const linkKey = confirmationKey(options.sessionSecret);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new AuthThrottle(db, limits);
  tagRoutes(app, 'Accounts');

  // Accounts made before usernames had keys get a key and skeleton before anyone signs in.
  const filled = await backfillUsernameKeys(db);
  if (filled > 0) app.log.info({ users: filled }, 'username keys backfilled');

  // Counters whose window has ended are dead; sweep them so the table holds only live ones.
  const sweep = setInterval(() => {
    throttle.sweep().catch((err: unknown) => app.log.warn({ err }, 'sign-in counter sweep failed'));
  }, THROTTLE_SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  api.get(
    '/api/user',
    {
      schema: {
        summary: 'The signed-in user',
        description: 'spec 7: a 401 means signed out. The client asks GET /api/session instead.',
        response: { 200: UserSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      if (!request.user) throw unauthorized('Not signed in.');
      return toPublicUser(request.user);
    },
  );

  // The session probe the client makes on every page load: nobody signed in is an answer, not an
  // error, because browsers log every 4xx as a console error. GET /api/user keeps spec 7's 401.
  api.get(
    '/api/session',
    { schema: { summary: 'Who is signed in, if anyone', response: { 200: SessionSchema } } },
    async (request) => ({ user: request.user ? toPublicUser(request.user) : null }),
  );

  api.post(
    '/api/register',
    {
      schema: {
        summary: 'Register, and sign in as the new user',
        description:
          'Sets the session cookie. At most 30 registrations a minute from one address. An e-mail address given is mailed a confirmation link.',
        body: RegisterSchema,
        response: { 201: UserSchema, ...errorResponses(429) },
      },
      // Before validation: malformed attempts count too.
      preValidation: (request) => throttle.chargeClient('register', request.ip),
    },
    async (request, reply) => {
      const user = await registerUser(db, request.body, {
        key: linkKey,
        origin: linkOrigin(options.publicUrl, request),
      });
      await app.sessions.end(request);
      await app.sessions.start(reply, request, user.id);
      issueDevice(reply, request, user.id);
      request.log.info({ userId: user.id }, 'user registered');
      return reply.code(201).send(toPublicUser(user));
    },
  );

  api.post(
    '/api/login',
    {
      schema: {
        summary: 'Sign in',
        description: 'Sets a new session cookie. Failed attempts are limited per address and per account.',
        body: LoginSchema,
        response: { 200: UserSchema, ...errorResponses(401, 429) },
      },
      preValidation: (request) => throttle.chargeClient('login', request.ip),
    },
    async (request, reply) => {
      const user = await authenticate(db, throttle, request.body, readDevice(request));
      if (!user) throw unauthorized(INVALID_CREDENTIALS);
      // A new session id on every login: an id planted before sign-in must not survive it (fixation).
      await app.sessions.end(request);
      await app.sessions.start(reply, request, user.id);
      issueDevice(reply, request, user.id);
      return toPublicUser(user);
    },
  );

  api.post(
    '/api/logout',
    { schema: { summary: 'Sign out', response: { 200: MessageSchema } } },
    async (request, reply) => {
      await app.sessions.end(request);
      clearSessionCookie(reply, request);
      return { message: 'Logged out' };
    },
  );
}
