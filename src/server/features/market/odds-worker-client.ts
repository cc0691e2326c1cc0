// One worker thread per process for the odds of a full slate (odds-worker.ts): started at the first fetch,
// stopped after a minute without one, never keeping the process alive. A fetch it cannot make (the worker
// died) fails as the provider's would, and the next one starts a new worker.
import { Worker } from 'node:worker_threads';
import type { League } from '#common/schemas/picks.js';
import { workerEntry } from '#server/lib/worker-entry.js';
import type { OddsApiProviderOptions } from './odds-api-provider.js';
import { MarketProviderError, type PreparedOdds } from './provider.js';

export interface OddsWorkerRequest {
  id: number;
  options: OddsApiProviderOptions;
  league: League;
}

export type OddsWorkerAnswer =
  | { id: number; prepared: PreparedOdds }
  | { id: number; error: { message: string; status: number | null; quotaExhausted: boolean } };

const IDLE_MS = 60_000;

class OddsWorkerClient {
  #worker: Worker | null = null;
  #next = 1;
  readonly #pending = new Map<
    number,
    { resolve: (odds: PreparedOdds) => void; reject: (error: Error) => void }
  >();
  #idle: NodeJS.Timeout | null = null;

  run(options: OddsApiProviderOptions, league: League): Promise<PreparedOdds> {
    const worker = this.#started();
    if (this.#idle) clearTimeout(this.#idle);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, options, league } satisfies OddsWorkerRequest);
    });
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const entry = workerEntry(import.meta.url, 'odds-worker');
    // Its heap holds one answer being parsed (a few MB of JSON, its objects) and the prepared text.
    const worker = new Worker(entry.source, {
      eval: entry.eval,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 16 },
    });
    worker.unref();
    worker.on('message', (answer: OddsWorkerAnswer) => {
      const waiting = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      if ('prepared' in answer) waiting?.resolve(answer.prepared);
      else
        waiting?.reject(
          new MarketProviderError(answer.error.message, answer.error.status, answer.error.quotaExhausted),
        );
      if (!this.#pending.size) this.#idleSoon();
    });
    const fail = (error: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      for (const waiting of this.#pending.values())
        waiting.reject(new MarketProviderError(`the odds worker stopped: ${error.message}`));
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.#worker = worker;
    return worker;
  }

  #idleSoon(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      const worker = this.#worker;
      this.#worker = null;
      void worker?.terminate();
    }, IDLE_MS);
    this.#idle.unref();
  }
}

const shared = new OddsWorkerClient();

/** A league's odds fetched and prepared on the odds worker's thread. */
export function prepareOddsOffThread(options: OddsApiProviderOptions, league: League): Promise<PreparedOdds> {
  return shared.run(options, league);
}
