// GET /api/cappers?q=: cappers found by username or display name (the /videos search's "Cappers" row).
import { z } from 'zod';
import { RecordSummarySchema } from './cappers.js';

export const CAPPER_SEARCH_LIMIT = 10;
export const CAPPER_SEARCH_MAX_LENGTH = 100;

export const CapperSearchQuerySchema = z.object({
  q: z
    .string({ error: 'Please type a name to search for' })
    .trim()
    .min(1, 'Please type a name to search for')
    .max(CAPPER_SEARCH_MAX_LENGTH, `Search text must be at most ${CAPPER_SEARCH_MAX_LENGTH} characters`),
});
export type CapperSearchQuery = z.infer<typeof CapperSearchQuerySchema>;

export const CapperMatchSchema = z
  .object({
    username: z.string(),
    displayName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    record: RecordSummarySchema.nullable().meta({
      description: 'The all-time verified record; null before the first graded verified pick',
    }),
  })
  .meta({ id: 'CapperMatch' });
export type CapperMatch = z.infer<typeof CapperMatchSchema>;

export const CapperMatchesSchema = z.array(CapperMatchSchema);
