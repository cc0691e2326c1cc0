// The pick log's public entry: the picks feature appends to it inside its own transactions; the app
// registers its endpoints, its checkpoint signer and its subscription to the events that append.
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.js';
import { eventBus, type EventType } from '#server/events/index.js';
import { loadLogKey } from './log-key.js';
import { CheckpointCache, onLogAppend } from './log-service.js';
import { BATCH, LogWriter } from './log-writer.js';
import { pickLogRoutes } from './routes.js';
import { CosignedCheckpoints, WitnessSender, type PickLogWitness } from './witnesses.js';

export { appendEvidence, appendToLog, lockEmptyLog, logRefsOf, type LogAppend } from './log-service.js';
export { LogKeyError } from './log-key.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public pick log: `flush` numbers every entry committed so far (tests, tools). */
    pickLog: { flush: () => Promise<void> };
  }
}

export interface PickLogSettings {
  dataDir: string;
  keyFile: string | undefined;
  origin: string | undefined;
  acceptNewKey: boolean;
  /** PICK_LOG_WITNESSES (docs/decisions/026). */
  witnesses: readonly PickLogWitness[];
}

/**
 * The events of requests that append to the log in their transaction (ticks and imports append too, and
 * are numbered at the writer's next run without waiting for it).
 */
const LOG_APPENDED_BY = [
  'pick.posted',
  'pick.revised',
  'pick.removed',
  'game.settled',
  'leg.graded',
  'user.deleted',
] as const satisfies readonly EventType[];

/** The log's key, its endpoints and its signer; fails start-up on a key that is not the log's. */
export async function registerPickLog(app: FastifyInstance, options: { db: Db; settings: PickLogSettings }) {
  const { db, settings } = options;
  const key = await loadLogKey(db, {
    keyFile: settings.keyFile ?? path.join(settings.dataDir, 'pick-log-key.pem'),
    origin: settings.origin,
    defaultOrigin: `${os.hostname()}/pick-log`,
    acceptNewKey: settings.acceptNewKey,
  });
  const checkpoints = new CheckpointCache(db);
  const cosigned = new CosignedCheckpoints(db);
  const witnesses = new WitnessSender(db, settings.witnesses, app.log, (size) => cosigned.stored(size));
  await witnesses.start();
  const writer = new LogWriter(
    db,
    key,
    checkpoints,
    (err) => app.log.warn({ err }, 'pick log: numbering or signing failed; retrying'),
    (checkpoint) => witnesses.signed(checkpoint),
  );
  await writer.start();
  let appended = 0;
  let flushedUpTo = 0;
  const stopListening = onLogAppend(db, (count) => {
    appended += count;
    writer.wake();
  });
  app.decorate('pickLog', { flush: () => writer.flush() });
  // A change that appended returns (and so answers) once its entries have their numbers, so the pick's page
  // that follows lists them: an after-commit subscriber, which the committing call awaits. Concurrent changes
  // share one numbering run (a group commit for the log). Unless more than one numbering batch waits (an
  // event's grading, thousands of entries): that change is not held for the seconds of numbering; its
  // entries are committed with it and numbered right after, the checkpoint following as for any append. A
  // small change answered meanwhile may then reach its page before its entries' numbers (the page shows
  // them once numbered).
  const stopFlushing = eventBus(db).afterCommit(LOG_APPENDED_BY, async () => {
    if (appended === flushedUpTo) return;
    const upTo = appended;
    const flushed = writer.flush().then(() => {
      flushedUpTo = Math.max(flushedUpTo, upTo);
    });
    if (upTo - flushedUpTo > BATCH) {
      flushed.catch(() => undefined); // the writer logs its own failures and tries again
      return;
    }
    await flushed;
  });
  app.addHook('onClose', async () => {
    stopFlushing();
    stopListening();
    await writer.stop();
    await witnesses.stop();
  });
  await app.register(pickLogRoutes, {
    db,
    key,
    checkpoints,
    // Without witnesses there are no lines to read: the checkpoint is served as signed, with no query.
    servedNote: settings.witnesses.length
      ? (latest) => cosigned.noteOf(witnesses.served(latest))
      : async (latest) => latest.note,
  });
}
