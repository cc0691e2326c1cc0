// At start: one line telling how to get demo content when the catalog is empty, or with SEED_DEMO
// the demo seed run against this very server once it listens, in the background. Nothing here may take the
// server down: a failure is logged, and an interrupted seed is finished by the next start or seed:demo.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.js';
import { runDemoMarketPicks } from './demo-market-picks.js';
import { catalogContents } from './demo-repository.js';
import { localUrl, seedDemo } from './demo-seed.js';
import { readDemoToken } from './demo-token.js';

export const EMPTY_CATALOG_HINT =
  'The catalog is empty. For demo content (cappers with graded picks, bettors, playable videos, purchases), start with ' +
  'SEED_DEMO=true, or run `npm run seed:demo` beside this server.';

export interface DemoOnStartOptions {
  db: Db;
  seedDemo: boolean;
  /** The address the server listens on (HOST); its port is read from the server. */
  host: string;
  /** Whether the app has a market: the demo cappers then post market picks while the server runs. */
  market: boolean;
  /** The server's DATA_DIR, which holds the demo token. */
  dataDir: string;
}

/**
 * Registers what the start needs before the server listens (a shutdown stops a seed under way) and returns
 * what main.ts calls once it listens.
 */
export function prepareDemoOnStart(app: FastifyInstance, options: DemoOnStartOptions): () => Promise<void> {
  const stop = new AbortController();
  app.addHook('preClose', async () => stop.abort());
  return () => offerDemoContent(app, options, stop.signal);
}

/** The hint, or the seed through `app`'s own address once it listens. Never rejects. */
export async function offerDemoContent(
  app: FastifyInstance,
  options: DemoOnStartOptions,
  signal: AbortSignal,
): Promise<void> {
  const log = app.log.child({ demo: true });
  try {
    const catalog = await catalogContents(options.db);
    if (!options.seedDemo) {
      if (!catalog.any) log.info(EMPTY_CATALOG_HINT);
      return;
    }
    // Videos of anyone but the demo's accounts: a real catalog, which the demo would only clutter.
    if (catalog.others) {
      log.info('SEED_DEMO: the catalog has videos of other accounts; demo content not added');
      return;
    }
    const port = (app.server.address() as AddressInfo).port;
    const baseUrl = localUrl(options.host, port);
    log.info('SEED_DEMO: adding the demo content through this server, in the background');
    // The graded history comes with it, through POST /api/demo/history.
    await seedDemo(baseUrl, { log: (line) => log.info(line), signal, token: readDemoToken(options.dataDir) });
    // Market picks on the games starting soon, through the API, now and while the server runs.
    if (options.market) runDemoMarketPicks(baseUrl, { log: (line) => log.info(line), signal });
  } catch (err) {
    if (signal.aborted) log.info('demo seed stopped by the shutdown; the next start finishes it');
    else log.error({ err }, 'demo seed failed; the server runs on, and the next start tries again');
  }
}
