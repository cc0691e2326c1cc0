// Capper subscriptions through the API, as the subscriptions, promo and alert test files drive them: a plan,
// the sandbox's test clock, and the invoices a subscription was charged.
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Plan } from '#common/schemas/subscriptions.js';
import type { Db } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';

/** A plan made by its capper: NBA, $19.99 a month, unless `fields` say otherwise. */
export async function createPlan(
  app: FastifyInstance,
  capper: { username: string; cookie: string },
  fields: object = {},
): Promise<Plan> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/cappers/${capper.username}/plans`,
    headers: { cookie: capper.cookie },
    payload: { name: 'NBA monthly', priceCents: 1999, interval: 'month', leagues: ['NBA'], ...fields },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Plan>();
}

/** Moves the sandbox's test clock on (an admin's request), which runs the renewals then due. */
export async function advanceSandboxClock(app: FastifyInstance, admin: { cookie: string }, seconds: number) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/payments/sandbox/clock',
    headers: { cookie: admin.cookie },
    payload: { advanceSeconds: seconds },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ now: string; renewed: number; failed: number; ended: number }>();
}

/** The amounts a subscription's invoices charged, oldest first. */
export async function invoiceAmounts(db: Db, subscriptionId: number): Promise<number[]> {
  return rowsOf<{ amount_cents: number }>(
    await db.execute(
      sql`select amount_cents from subscription_invoices where subscription_id = ${subscriptionId} order by id`,
    ),
  ).map((row) => Number(row.amount_cents));
}
