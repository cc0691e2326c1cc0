// Web Push (docs/decisions/038): the server's VAPID public key, and a browser's PushSubscription as
// `PushSubscription.toJSON()` gives it. The endpoint's host is checked on the server (the push services'
// allow-list); here only its shape and the keys' lengths.
import { z } from 'zod';

/** At most this many browsers (subscriptions) per account. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 10;

/** base64url of a fixed number of bytes, told by its length (padding dropped); no Buffer in the browser. */
const base64urlOf = (pattern: RegExp, message: string) =>
  z
    .string({ error: message })
    .transform((value) => value.replace(/=+$/, ''))
    .pipe(z.string().regex(pattern, message));

const ENDPOINT_MESSAGE = 'endpoint must be the push service URL the browser gave';

export const PushSubscriptionSchema = z
  .object({
    endpoint: z.string({ error: ENDPOINT_MESSAGE }).min(1, ENDPOINT_MESSAGE).max(2048, ENDPOINT_MESSAGE),
    expirationTime: z.number().nullable().optional(),
    keys: z.object(
      {
        p256dh: base64urlOf(
          // 65 bytes, 0x04 first (an uncompressed point): 87 characters, the first a B.
          /^B[A-Za-z0-9_-]{86}$/,
          'keys.p256dh must be a P-256 public key: 65 bytes (uncompressed), base64url',
        ),
        auth: base64urlOf(/^[A-Za-z0-9_-]{22}$/, 'keys.auth must be 16 bytes, base64url'),
      },
      { error: 'keys must hold p256dh and auth' },
    ),
  })
  .meta({ description: "A browser's PushSubscription, as its toJSON() gives it." });
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionSchema>;

export const PushEndpointSchema = z.object({
  endpoint: z.string({ error: ENDPOINT_MESSAGE }).min(1, ENDPOINT_MESSAGE).max(2048, ENDPOINT_MESSAGE),
});

export const PushKeySchema = z.object({
  publicKey: z
    .string()
    .meta({ description: "The server's VAPID public key (base64url): applicationServerKey." }),
});

export const PushSubscribedSchema = z.object({
  subscribed: z.boolean(),
});

/** What an admin sees of push delivery: counts, and the subscriptions a push service last refused. */
export const AdminPushSchema = z.object({
  subscriptions: z.number().int(),
  deliveries: z.object({
    queued: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    gone: z.number().int(),
  }),
  failing: z.array(
    z.object({
      id: z.number().int(),
      username: z.string(),
      host: z.string(),
      failures: z.number().int(),
      lastError: z.string().nullable(),
    }),
  ),
});
export type AdminPush = z.infer<typeof AdminPushSchema>;
