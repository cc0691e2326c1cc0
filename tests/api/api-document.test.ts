// The API document: GET /api/openapi.json describes every route, from the routes' own schemas
// (the reference page at /api/docs: api-docs-route.test.ts). That every response of the suite matches it is
// checked for every test (tests/setup/api-contract.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

type Operation = {
  summary?: string;
  tags?: string[];
  responses: Record<string, { description?: string; content?: Record<string, { schema: unknown }> }>;
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

let t: TestApp;
let document: Document;

beforeAll(async () => {
  t = await createTestApp();
  const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = response.json<Document>();
});
afterAll(async () => {
  await t?.close();
});

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'];
const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, path, method, operation })),
  );

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document of the PickReel API', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('PickReel API');
  });

  it("describes every route of spec 7, tus, the sandbox's and Stripe's routes, and those added since", () => {
    const expected = [
      // spec 7
      'GET /api/user',
      'POST /api/login',
      'POST /api/register',
      'POST /api/logout',
      'GET /api/videos',
      'GET /api/videos/{id}',
      'GET /api/videos/featured',
      'GET /api/videos/{id}/purchased',
      'GET /api/user/videos',
      'GET /api/user/purchases',
      'GET /api/user/sales',
      'DELETE /api/videos/{id}',
      'POST /api/payout-request',
      'POST /api/create-payment-intent',
      'POST /api/payment-complete',
      'POST /api/videos',
      'GET /api/admin/users',
      'DELETE /api/admin/videos/{id}',
      'DELETE /api/admin/users/{id}',
      'PATCH /api/admin/users/{userId}/earnings',
      // the chunked upload (tus)
      'POST /api/uploads',
      'HEAD /api/uploads/{id}',
      'PATCH /api/uploads/{id}',
      'DELETE /api/uploads/{id}',
      'GET /api/uploads/{id}/video',
      // the card providers: both, whichever is in use
      'POST /api/payments/sandbox/confirm',
      'POST /api/stripe/webhook',
      // added since
      'GET /api/health',
      'GET /api/session',
      'PATCH /api/videos/{id}',
      'POST /api/videos/{id}/view',
      'POST /api/videos/{id}/share',
      'POST /api/videos/{id}/retry',
      'GET /api/admin/videos',
      'GET /api/admin/audit-log',
      'GET /api/admin/payouts',
      'PATCH /api/admin/payouts/{id}',
      'GET /api/user/earnings',
      'GET /api/user/analytics',
      'GET /api/user/payouts',
      'GET /api/user/refunds',
      'GET /media/{path}',
      'HEAD /media/{path}',
      // verified picks
      'GET /api/picks/{id}',
      'GET /api/picks/{id}/reveal',
      'GET /api/picks/{id}/legs',
      'GET /api/events',
      'GET /api/events/{id}/prices',
      'POST /api/admin/market/refresh',
      'GET /api/admin/results',
      'GET /api/admin/results/settled',
      'GET /api/admin/results/props',
      'POST /api/admin/events/{id}/result',
      'PUT /api/admin/events/{id}/result',
      'POST /api/admin/legs/{id}/grade',
      'POST /api/admin/results/import',
      // a capper's record
      'GET /api/cappers/{username}',
      // finding cappers by name
      'GET /api/cappers',
      'GET /api/leaderboard',
      // The public pick log (pick-log.md 'Endpoints').
      'GET /api/log/checkpoint',
      'GET /api/log/entries',
      'GET /api/log/key',
      'GET /api/log/picks',
      'GET /api/log/proof/consistency',
      'GET /api/log/proof/inclusion',
      'GET /api/log/tile/{level}/{path}',
      'GET /api/log/tile/entries/{path}',
      'GET /api/records',
      // a purchase's receipt
      'GET /api/purchases/{id}',
      'GET /api/user/sales/by-video',
      // a capper's own profile settings, and the avatars they upload
      'GET /api/profile',
      'PATCH /api/profile',
      'PUT /api/profile/avatar',
      'DELETE /api/profile/avatar',
      'GET /media/avatars/{path}',
      'HEAD /media/avatars/{path}',
      // the account's e-mail address and its confirmation link; the admin's outbox
      'PUT /api/profile/email',
      'GET /api/profile/email/confirm',
      'GET /api/admin/mail',
      // the demo seed's graded history, through the server that holds the database
      'POST /api/demo/history',
      // following cappers, and the alerts of their new picks
      'GET /api/cappers/{username}/follow',
      'POST /api/cappers/{username}/follow',
      'DELETE /api/cappers/{username}/follow',
      'GET /api/following',
      'GET /api/following/cappers',
      'GET /api/notifications',
      'POST /api/notifications/read',
      'GET /api/notifications/stream',
      // Web Push alerts
      'GET /api/push/key',
      'POST /api/push/subscriptions',
      'DELETE /api/push/subscriptions',
      'GET /api/admin/push',
      // a capper's promo codes, and checking one at checkout
      'GET /api/cappers/{username}/promo-codes',
      'POST /api/cappers/{username}/promo-codes',
      'POST /api/cappers/{username}/promo-codes/{id}/retire',
      'POST /api/promo-codes/check',
      // capper subscriptions and the sandbox's test clock
      'GET /api/cappers/{username}/plans',
      'POST /api/cappers/{username}/plans',
      'POST /api/cappers/{username}/plans/{id}/retire',
      'GET /api/cappers/{username}/subscribers',
      'POST /api/plans/{id}/subscribe',
      'GET /api/subscriptions',
      'POST /api/subscriptions/{id}/cancel',
      'PUT /api/subscriptions/{id}/card',
      'POST /api/payments/sandbox/clock',
      'GET /api/notifications/preferences',
      'PUT /api/notifications/preferences',
      'PUT /api/cappers/{username}/alerts',
      'GET /api/unsubscribe',
      'GET /api/unsubscribe/link',
      'POST /api/unsubscribe',
      'POST /api/plans/{id}/subscribe/stripe',
      'POST /api/billing/portal',
      'POST /api/billing/subscriptions/{providerSubscriptionId}/refresh',
    ];
    expect(
      operations()
        .map((o) => o.key)
        .sort(),
    ).toEqual([...expected].sort());
  });

  it('names only routes the server has', () => {
    for (const { key, path, method } of operations()) {
      const url = path.replace(/\{path\}$/, '*').replace(/\{(\w+)\}/g, ':$1');
      expect(t.app.hasRoute({ method: method.toUpperCase() as 'GET', url }), key).toBe(true);
    }
  });

  it('gives each operation a summary, a tag, its success answer and the { message } of its errors', () => {
    for (const { key, operation } of operations()) {
      expect(operation.summary, key).toBeTruthy();
      expect(operation.tags?.length, key).toBe(1);
      const statuses = Object.keys(operation.responses);
      // A link followed from a mail succeeds with a redirect (the confirmation link's 302).
      expect(
        statuses.some((status) => status.startsWith('2') || status === '302'),
        `${key}: a success answer`,
      ).toBe(true);
      // Any route may meet input it cannot take, or fail.
      expect(statuses, key).toEqual(expect.arrayContaining(['400', '500']));
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.description, `${key} ${status}`).toBeTruthy();
        if (Number(status) >= 400) {
          expect(response.content?.['application/json']?.schema, `${key} ${status}`).toEqual({
            $ref: '#/components/schemas/Message',
          });
        }
      }
    }
  });

  it('refers only to schemas it defines', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
    }
  });

  it('describes a video with the winning selections as optional, and no field the server does not send', () => {
    const video = document.components.schemas.Video as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(video.additionalProperties).toBe(false);
    expect(video.properties).toHaveProperty('emailInformation');
    expect(video.required).not.toContain('emailInformation');
    expect(video.required).not.toContain('originalUrl');
  });
});

describe('the response schemas', () => {
  it('leave out what a route does not declare: the user never carries a password or its hash', async () => {
    const user = await registerUser(t.app, {}, '10.13.0.1');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { cookie: user.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(
      Object.keys((document.components.schemas.User as { properties: object }).properties).sort(),
    );
  });
});
