// POST /api/demo/history: the demo cappers' graded history, put in by the server that holds the database.
import { z } from 'zod';

export const DemoHistoryResultSchema = z
  .object({
    posted: z.number().int().describe('Demo picks this call added.'),
    settled: z.number().int().describe('Past games it settled with their final scores.'),
    graded: z.number().int().describe('Picks it graded from those scores.'),
  })
  .meta({ id: 'DemoHistoryResult' });
export type DemoHistoryResult = z.infer<typeof DemoHistoryResultSchema>;
