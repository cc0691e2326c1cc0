// Push subscriptions (docs/decisions/038): a browser's endpoint is stored only when the server may call it
// (https to a listed push service), its keys are a real P-256 point and a 16-byte secret, and the account
// has fewer than PUSH_SUBSCRIPTIONS_PER_USER browsers.
import { createECDH } from 'node:crypto';
import { PUSH_SUBSCRIPTIONS_PER_USER, type PushSubscriptionBody } from '#common/schemas/push.js';
import { lockKey } from '#server/db/advisory-locks.js';
import type { Db } from '#server/db/client.js';
import { endpointRefusal, type PushServiceHosts } from '#server/lib/push-hosts.js';
import {
  countSubscriptions,
  deleteSubscription,
  endpointOwner,
  upsertSubscription,
} from './push-repository.js';

export type SubscribeResult = { ok: true } | { ok: false; status: 400 | 409; message: string };

/** Whether the browser's key is a point on P-256 (the schema checked only its length). */
function isCurvePoint(p256dh: string): boolean {
  try {
    const probe = createECDH('prime256v1');
    probe.generateKeys();
    probe.computeSecret(Buffer.from(p256dh, 'base64url'));
    return true;
  } catch {
    return false;
  }
}

export async function subscribe(
  db: Db,
  userId: number,
  body: PushSubscriptionBody,
  hosts: PushServiceHosts,
): Promise<SubscribeResult> {
  const refusal = endpointRefusal(body.endpoint, hosts);
  if (refusal) return { ok: false, status: 400, message: `The push endpoint ${refusal}.` };
  if (!isCurvePoint(body.keys.p256dh))
    return { ok: false, status: 400, message: 'keys.p256dh is not a P-256 public key.' };
  return db.transaction(async (tx) => {
    // Counted under the user's lock: two browsers subscribing at once cannot both pass the limit.
    await lockKey(tx, 'pushSubscriptions', userId);
    if (
      (await endpointOwner(tx, body.endpoint)) !== userId &&
      (await countSubscriptions(tx, userId)) >= PUSH_SUBSCRIPTIONS_PER_USER
    ) {
      return {
        ok: false,
        status: 409,
        message: `Push alerts are on in ${PUSH_SUBSCRIPTIONS_PER_USER} browsers already: turn them off in one first.`,
      } as const;
    }
    await upsertSubscription(tx, { userId, endpoint: body.endpoint, ...body.keys });
    return { ok: true } as const;
  });
}

/** Forgets the caller's own subscription of that endpoint; another user's is left alone. */
export async function unsubscribe(db: Db, userId: number, endpoint: string): Promise<void> {
  await deleteSubscription(db, userId, endpoint);
}
