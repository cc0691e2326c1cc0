// Alert preferences and one-click unsubscribe (docs/decisions/040). The unsubscribe POST is RFC 8058's:
// a mail client sends it without a cookie from no page of ours, so it is exempt from the CSRF check and
// takes the form body `List-Unsubscribe=One-Click`; the signed token in its URL is its only credential.
// A GET never unsubscribes (mail scanners follow links): it leads to the page that asks first.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AlertPreferencesSchema,
  AlertPreferencesUpdateSchema,
  CapperAlertsSchema,
  CapperAlertsUpdateSchema,
  UnsubscribedSchema,
  UnsubscribeLinkSchema,
  UnsubscribeQuerySchema,
} from '#common/schemas/alert-preferences.js';
import { NoBodySchema } from '#common/schemas/api.js';
import { CapperParamsSchema } from '#common/schemas/cappers.js';
import type { Db } from '#server/db/client.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '../auth/index.js';
import {
  alertPreferences,
  describeUnsubscribe,
  unsubscribe,
  updateAlertPreferences,
  updateCapperAlerts,
} from './alert-preferences-service.js';

export const UNSUBSCRIBE_PATH = '/api/unsubscribe';
/** The client's page that shows what a link turns off, with a button. */
export const UNSUBSCRIBE_PAGE = '/unsubscribe';

export async function alertPreferenceRoutes(
  app: FastifyInstance,
  options: { db: Db; unsubscribeKey: string },
) {
  const { db, unsubscribeKey } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Notifications');
  // RFC 8058 section 3.1: the one-click POST is a form. Only this plugin's routes read one.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  api.get(
    '/api/notifications/preferences',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Your alert preferences',
        description:
          'Per channel (in_app, email, push) and kind (new_pick, graded, subscription): on or off; everything is on until you turn it off. E-mail reaches only a confirmed address; push only browsers where you turned it on. Also the cappers you follow or muted, with the channels each reaches you on.',
        response: { 200: AlertPreferencesSchema, ...errorResponses(401) },
      },
    },
    async (request) => alertPreferences(db, currentUser(request).id),
  );

  api.put(
    '/api/notifications/preferences',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Change your alert preferences',
        description:
          'Only the switches given change, e.g. `{ "channels": { "email": { "new_pick": false } } }`. Answers all of them.',
        body: AlertPreferencesUpdateSchema,
        response: { 200: AlertPreferencesSchema, ...errorResponses(401) },
      },
    },
    async (request) => updateAlertPreferences(db, currentUser(request).id, request.body),
  );

  api.put(
    '/api/cappers/:username/alerts',
    {
      preHandler: requireUser,
      schema: {
        summary: "Mute or unmute a capper's alerts per channel",
        description:
          '`{ "email": false }` mutes the capper on e-mail and keeps the other channels as they were; true unmutes. A muted capper sends you no alert of any kind on that channel.',
        params: CapperParamsSchema,
        body: CapperAlertsUpdateSchema,
        response: { 200: CapperAlertsSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => updateCapperAlerts(db, currentUser(request).id, request.params.username, request.body),
  );

  api.get(
    UNSUBSCRIBE_PATH,
    {
      schema: {
        summary: 'An unsubscribe link opened in a browser',
        description: `Redirects to the page ${UNSUBSCRIBE_PAGE}?token=… that says what the link turns off and asks before doing it: a link followed by a mail scanner changes nothing.`,
        querystring: UnsubscribeQuerySchema,
        response: { 302: NoBodySchema.describe('Location is the unsubscribe page') },
      },
    },
    async (request, reply) =>
      reply.redirect(`${UNSUBSCRIBE_PAGE}?token=${encodeURIComponent(request.query.token)}`, 302),
  );

  api.get(
    `${UNSUBSCRIBE_PATH}/link`,
    {
      schema: {
        summary: 'What an unsubscribe link turns off',
        description:
          'Needs no session (the link may be opened anywhere). 400 for a link that is not ours or has expired.',
        querystring: UnsubscribeQuerySchema,
        response: { 200: UnsubscribeLinkSchema },
      },
    },
    async (request) => describeUnsubscribe(db, unsubscribeKey, request.query.token),
  );

  api.post(
    UNSUBSCRIBE_PATH,
    {
      schema: {
        summary: 'Unsubscribe in one click (RFC 8058)',
        description:
          "The URL of a mail's List-Unsubscribe header, with the body `List-Unsubscribe=One-Click` (a form) or none. Turns off e-mail from the capper the link names, or e-mail of its kind. Needs no session and no same-site request: the signed token is the credential. Doing it again is the same.",
        querystring: UnsubscribeQuerySchema,
        body: z
          .object({ 'List-Unsubscribe': z.string().optional() })
          .nullish()
          .describe('application/x-www-form-urlencoded `List-Unsubscribe=One-Click`, or JSON, or nothing'),
        response: { 200: UnsubscribedSchema },
      },
    },
    async (request) => ({
      unsubscribed: true as const,
      description: await unsubscribe(db, unsubscribeKey, request.query.token),
    }),
  );
}
