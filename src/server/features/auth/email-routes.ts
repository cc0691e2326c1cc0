// The account's e-mail address (PUT /api/profile/email) and its confirmation link: the auth feature owns
// the users table, so these live here though the profile settings page shows them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NoBodySchema } from '#common/schemas/api.js';
import {
  CONFIRMATION_PROBLEMS,
  EMAIL_CONFIRMATION_PAGE,
  EMAIL_CONFIRMED_PATH,
  type ConfirmationProblem,
  EmailConfirmQuerySchema,
  EmailUpdateSchema,
  ProfileSchema,
} from '#common/schemas/profile.js';
import type { Db } from '#server/db/client.js';
import { HttpError, notFound } from '#server/lib/http-errors.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { confirmationKey, confirmEmail, requestEmailChange } from './email-confirmation.js';
import { currentUser, requireUser } from './session.js';
import { findProfile } from './users-repository.js';

/**
 * Where links in mail point: PUBLIC_URL, or without it (no SMTP server: mail stays in the outbox) the
 * site as the browser reached it (request.protocol and host follow TRUST_PROXY).
 */
export const linkOrigin = (publicUrl: string | undefined, request: FastifyRequest) =>
  publicUrl ?? `${request.protocol}://${request.host}`;

function problemOf(error: unknown): ConfirmationProblem | null {
  if (!(error instanceof HttpError) || error.statusCode !== 400) return null;
  const found = Object.entries(CONFIRMATION_PROBLEMS).find(([, message]) => message === error.message);
  return found ? (found[0] as ConfirmationProblem) : null;
}

export async function emailRoutes(
  app: FastifyInstance,
  options: { db: Db; sessionSecret: string; publicUrl: string | undefined },
) {
  const { db } = options;
  const key = confirmationKey(options.sessionSecret);
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Profile');

  api.put(
    '/api/profile/email',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Set or change your e-mail address',
        description:
          "The address is kept as pending and a confirmation link (valid 24 hours) is mailed to it; it becomes the account's when the link is followed. At most 3 confirmation mails per address an hour (429 with Retry-After).",
        body: EmailUpdateSchema,
        response: { 200: ProfileSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await requestEmailChange(db, user.id, request.body.email, {
        key,
        origin: linkOrigin(options.publicUrl, request),
      });
      const profile = await findProfile(db, user.id);
      if (!profile) throw notFound('Account not found.');
      return profile;
    },
  );

  api.get(
    '/api/profile/email/confirm',
    {
      schema: {
        summary: 'Confirm an e-mail address (the link in the confirmation mail)',
        description: `Redirects to ${EMAIL_CONFIRMED_PATH}; 400 for a link that is invalid, expired, or for an address no longer pending (a browser, asking for text/html, is sent to the page ${EMAIL_CONFIRMATION_PAGE}?problem=invalid|expired|stale instead). Needs no session: the link may be opened in another browser.`,
        querystring: EmailConfirmQuerySchema,
        response: {
          302: NoBodySchema.describe('Confirmed: Location is the profile settings'),
          303: NoBodySchema.describe('Not confirmed, for a browser: Location is the page that says why'),
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      let userId: number;
      try {
        userId = await confirmEmail(db, request.query.token, key);
      } catch (error) {
        // A person's browser gets a page in words; an API client keeps the JSON 400.
        const problem = problemOf(error);
        if (problem && request.headers.accept?.includes('text/html'))
          return reply.redirect(`${EMAIL_CONFIRMATION_PAGE}?problem=${problem}`, 303);
        throw error;
      }
      // The signed-in session's cached user carries the address: drop it so the next read shows the new one.
      app.sessions.invalidateUser(userId);
      return reply.redirect(EMAIL_CONFIRMED_PATH, 302);
    },
  );
}
