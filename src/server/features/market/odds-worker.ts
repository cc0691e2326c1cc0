// The odds worker's thread (odds-worker-client.ts): fetches a league's odds from The Odds API and prepares
// them to write (prices.ts prepareOdds), so that parsing megabytes of JSON and building every game's
// snapshot never holds the server's event loop.
import { parentPort } from 'node:worker_threads';
import { OddsApiProvider } from './odds-api-provider.js';
import type { OddsWorkerAnswer, OddsWorkerRequest } from './odds-worker-client.js';
import { prepareOdds } from './prices.js';
import { MarketProviderError } from './provider.js';

parentPort!.on('message', (request: OddsWorkerRequest) => {
  const answer = async (): Promise<OddsWorkerAnswer> => {
    try {
      const provider = new OddsApiProvider(request.options);
      return { id: request.id, prepared: prepareOdds(await provider.odds(request.league)) };
    } catch (error) {
      const failed = error instanceof MarketProviderError ? error : null;
      return {
        id: request.id,
        error: {
          message: error instanceof Error ? error.message : String(error),
          status: failed?.status ?? null,
          quotaExhausted: failed?.quotaExhausted ?? false,
        },
      };
    }
  };
  // The prepared bytes are moved to the serving thread, not copied.
  void answer().then((message) =>
    parentPort!.postMessage(
      message,
      'prepared' in message
        ? [message.prepared.games, ...message.prepared.priceChunks].map(
            (bytes) => bytes.buffer as ArrayBuffer,
          )
        : [],
    ),
  );
});
