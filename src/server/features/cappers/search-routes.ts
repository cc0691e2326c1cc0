import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CAPPER_SEARCH_LIMIT,
  CapperMatchesSchema,
  CapperSearchQuerySchema,
  type CapperMatch,
} from '#common/schemas/capper-search.js';
import type { Db } from '#server/db/client.js';
import { recordsOf } from './record/record-service.js';
import { searchCappers } from './search-repository.js';

/** GET /api/cappers?q=: the /videos search's "Cappers" row, with each capper's cached all-time record. */
export async function capperSearchRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/cappers',
    {
      schema: {
        summary: 'Find cappers by name',
        description: `Cappers with at least one ready video whose username or display name holds the text (any case; % and _ are literal): an exact username first, then names starting with it. At most ${CAPPER_SEARCH_LIMIT}.`,
        querystring: CapperSearchQuerySchema,
        response: { 200: CapperMatchesSchema },
      },
    },
    async (request): Promise<CapperMatch[]> => {
      const rows = await searchCappers(db, request.query.q, CAPPER_SEARCH_LIMIT);
      if (rows.length === 0) return [];
      const records = await recordsOf(
        db,
        rows.map((row) => row.username),
      );
      // A record with no graded verified pick is no record: the row shows none rather than 0-0.
      return rows.map((row) => {
        const record = records[row.username];
        return { ...row, record: record && record.picks > 0 ? record : null };
      });
    },
  );
}
