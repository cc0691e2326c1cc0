// The pick log's public entry (issue 15): the picks feature appends to it inside its own transactions; the
// app registers its endpoints and its checkpoint signer.
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.js';
import { loadLogKey } from './log-key.js';
import { CheckpointCache, onLogAppend } from './log-service.js';
import { CheckpointSigner } from './log-signer.js';
import { pickLogRoutes } from './routes.js';

export { appendToLog, logRefsOf, type LogAppend } from './log-service.js';
export { LogKeyError } from './log-key.js';

export interface PickLogSettings {
  dataDir: string;
  keyFile: string | undefined;
  origin: string | undefined;
  acceptNewKey: boolean;
}

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
  const signer = new CheckpointSigner(db, key, checkpoints, (err) =>
    app.log.warn({ err }, 'pick log: signing a checkpoint failed'),
  );
  await signer.start();
  const stopListening = onLogAppend(() => signer.wake());
  app.addHook('onClose', async () => {
    stopListening();
    await signer.stop();
  });
  await app.register(pickLogRoutes, { db, key, checkpoints });
}
