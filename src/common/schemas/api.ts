// What the whole API shares: the one error shape, and the health check.
import { z } from 'zod';

/**
 * Every API error, and the confirmations that carry nothing else ('Video deleted'): one sentence for a
 * person (spec 7: the client shows `status: message`).
 */
export const MessageSchema = z
  .object({ message: z.string() })
  .meta({ id: 'Message', description: 'A sentence for a person: an error, or what was done.' });
export type Message = z.infer<typeof MessageSchema>;

/** GET /api/health: the server answers and its database does. */
export const HealthSchema = z.object({ status: z.literal('ok') });

/** An answer without a body: 204, 304. */
export const NoBodySchema = z.null();
