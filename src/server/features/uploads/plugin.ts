// Uploads, the media job runner and media serving, registered together (issue 4).
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { mediaTools } from '../../media/ffmpeg.js';
import { MediaJobRunner } from '../../media/job-runner.js';
import { mediaRoutes } from '../../media/routes.js';
import type { MediaStorage } from '../../media/storage.js';
import type { CatalogCache } from '../videos/catalog-cache.js';
import { mediaVideoRecords } from '../videos/media-records.js';
import { uploadRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The media job runner: main.ts starts it; tests call runUntilIdle(). */
    mediaJobs: MediaJobRunner;
    /** Runs the upload sweep now (after the one under way, if any); it runs hourly and at start anyway. */
    sweepUploads: () => Promise<void>;
  }
}

export interface MediaOptions {
  db: Db;
  databaseKind: 'pglite' | 'postgres';
  storage: MediaStorage;
  dataDir: string;
  catalog: CatalogCache;
}

export async function registerMediaAndUploads(app: FastifyInstance, options: MediaOptions): Promise<void> {
  const { db, storage, catalog } = options;
  const onVideoChanged = () => catalog.clear();
  const runner = new MediaJobRunner({
    db,
    videos: mediaVideoRecords(db),
    storage,
    tools: mediaTools,
    workRoot: path.join(options.dataDir, 'work'),
    log: app.log,
    onVideoChanged,
    reclaimOnStart: options.databaseKind === 'pglite',
  });
  app.decorate('mediaJobs', runner);
  app.addHook('onClose', async () => runner.stop());
  await app.register(mediaRoutes, { db, storage });
  const sweep = { run: async () => {} };
  app.decorate('sweepUploads', () => sweep.run());
  await app.register(uploadRoutes, {
    sweep,
    db,
    storage,
    uploadsDir: path.join(options.dataDir, 'uploads'),
    onVideoChanged,
    onJobQueued: () => runner.notify(),
  });
}
