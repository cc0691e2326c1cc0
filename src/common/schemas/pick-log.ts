// The public pick log's JSON answers (docs/pick-log.md 'Endpoints'). The checkpoint and
// the key are text/plain, not JSON.
import { z } from 'zod';

/** The most entries one GET /api/log/entries answers (pick-log.md); a longer range gets this many. */
export const LOG_ENTRIES_PAGE = 1000;

const Base64 = z.string().meta({ description: 'Standard base64' });
/** A required whole number in decimal digits (an index or a tree size). */
function count(name: string) {
  const message = `${name} must be a whole number (decimal digits)`;
  return z
    .string({ error: message })
    .regex(/^[0-9]{1,15}$/, message)
    .transform(Number)
    .meta({ description: 'A whole number in decimal digits' });
}

export const LogEntriesQuerySchema = z.object({ start: count('start'), end: count('end') });
export const LogEntriesSchema = z
  .object({
    entries: z
      .array(Base64)
      .meta({ description: 'Entry bytes (RFC 8785 JSON), indices start ≤ i < end, at most 1,000' }),
  })
  .meta({ id: 'LogEntries' });

export const InclusionProofQuerySchema = z.object({ index: count('index'), treeSize: count('treeSize') });
export const InclusionProofSchema = z
  .object({ index: z.int(), treeSize: z.int(), hashes: z.array(Base64) })
  .meta({ id: 'InclusionProof' });
export type InclusionProof = z.infer<typeof InclusionProofSchema>;

export const ConsistencyProofQuerySchema = z.object({ first: count('first'), second: count('second') });
export const ConsistencyProofSchema = z
  .object({ first: z.int(), second: z.int(), hashes: z.array(Base64) })
  .meta({ id: 'ConsistencyProof' });
export type ConsistencyProof = z.infer<typeof ConsistencyProofSchema>;
