// POST /api/demo/history: the demo seed's graded history (picks on past games, which the pick routes refuse)
// goes in through the server that holds the database, so `npm run seed:demo` beside a running server adds
// what it adds on its own. Only a demo capper may ask, with the token in the server's DATA_DIR (a seed on the
// server's machine), and only while the catalog holds nothing but the demo's: a real catalog is never touched.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DemoHistoryResultSchema } from '#common/schemas/demo.js';
import type { Db } from '#server/db/client.js';
import { conflict, forbidden } from '#server/lib/http-errors.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '#server/features/auth/index.js';
import { DEMO_CAPPERS } from './demo-content.js';
import { seedDemoPicks } from './demo-picks-seed.js';
import { catalogContents } from './demo-repository.js';
import { DEMO_TOKEN_HEADER } from './demo-seed.js';
import { sameToken } from './demo-token.js';

export async function demoRoutes(app: FastifyInstance, options: { db: Db; token: string }) {
  const { db, token } = options;
  tagRoutes(app, 'Service');
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/demo/history',
    {
      preHandler: requireUser,
      schema: {
        summary: "The demo cappers' graded history",
        description:
          "Adds the demo cappers' picks on past games with their final scores and grades (self-reported), and settles those whose games have since been played; adds nothing twice. For a demo capper only, with the token kept in the server's DATA_DIR, while the catalog holds no other account's videos.",
        response: { 200: DemoHistoryResultSchema, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!DEMO_CAPPERS.some((capper) => capper.username === user.username))
        throw forbidden('Only a demo capper can add the demo history.');
      const given = request.headers[DEMO_TOKEN_HEADER];
      if (!sameToken(token, typeof given === 'string' ? given : undefined))
        throw forbidden(
          "The demo history is added only by a seed on the server's own machine (its DATA_DIR).",
        );
      if ((await catalogContents(db)).others)
        throw conflict('The catalog holds videos of other accounts: no demo history is added to it.');
      const lines: string[] = [];
      const result = await seedDemoPicks(db, { log: (line) => lines.push(line) });
      request.log.info({ demo: true }, lines.join(' '));
      return result;
    },
  );
}
