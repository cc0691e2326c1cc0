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

/** GET /api/log/picks: the most videos one request may name (two pages of /log's entries). */
export const MAX_LOG_PICKS = 100;
const LOG_PICKS_MESSAGE = `Please give up to ${MAX_LOG_PICKS} video ids, separated by commas`;

export const LogPicksQuerySchema = z.object({
  videoIds: z
    .string({ error: LOG_PICKS_MESSAGE })
    .max(MAX_LOG_PICKS * 12, LOG_PICKS_MESSAGE)
    .regex(/^\d{1,10}(,\d{1,10})*$/, LOG_PICKS_MESSAGE)
    .transform((text) => [...new Set(text.split(',').map(Number))])
    .refine((ids) => ids.length <= MAX_LOG_PICKS, LOG_PICKS_MESSAGE)
    .refine((ids) => ids.every((id) => id >= 1 && id <= 2_147_483_647), LOG_PICKS_MESSAGE),
});

export const LogPicksSchema = z
  .object({
    picks: z.array(
      z.object({
        videoId: z.int(),
        title: z
          .string()
          .nullable()
          .meta({
            description: "The pick's title; null when nothing of it may be shown (removed by moderation)",
          }),
        deleted: z.boolean().meta({ description: 'The video is gone: the entries stay, the page does not' }),
      }),
    ),
  })
  .meta({ id: 'LogPicks' });
export type LogPicks = z.infer<typeof LogPicksSchema>;
