// The upload sweep: hourly where the background work runs (a recurring job, docs/decisions/029), and when
// app.sweepUploads() asks (docs/decisions/007).
import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { DataStore } from '@tus/utils';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.js';
import type { JobRunner } from '#server/jobs/index.js';
import type { MediaStorage } from '#server/media/storage.js';
import { deleteExpiredUploads } from './uploads-repository.js';
import { INCOMING_PREFIX } from './uploads-service.js';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Multipart leftovers (files or folders) under uploads/incoming older than this belong to dead requests. */
const INCOMING_STALE_MS = 24 * 60 * 60 * 1000;

export function scheduleUploadSweeps(
  app: FastifyInstance,
  options: {
    db: Db;
    /** The uploads' store: its expired uploads go (what @tus/server's cleanUpExpiredUploads does). */
    datastore: DataStore;
    storage: MediaStorage;
    uploadsDir: string;
    /** Filled in here: runs the upload sweep now (after the one under way, if any); tests await it. */
    sweep: { run: () => Promise<void> };
  },
): void {
  const { db, datastore, storage } = options;

  /** Multipart files a dead request left in the bucket (media in S3). */
  const sweepIncomingObjects = async (cutoff: number) => {
    let leftovers: { key: string; modified: Date }[] = [];
    try {
      leftovers = await storage.list(INCOMING_PREFIX);
    } catch (err) {
      app.log.warn({ err }, 'could not list the incoming uploads in the bucket');
    }
    for (const object of leftovers) {
      if (object.modified.getTime() >= cutoff) continue;
      await storage
        .remove(object.key)
        .catch((err: unknown) =>
          app.log.warn({ err, key: object.key }, 'could not remove a stale upload leftover'),
        );
    }
  };

  /**
   * Unfinished uploads expire; multipart leftovers of a process that died mid-request go too, files and
   * folders alike. A background task: every failure is logged and the sweep goes on; it never rejects,
   * or a stale folder would stop the server at every start.
   */
  const sweep = async (): Promise<void> => {
    try {
      await datastore.deleteExpired();
    } catch (err) {
      app.log.warn({ err }, 'tus upload sweep failed');
    }
    try {
      await deleteExpiredUploads(db);
    } catch (err) {
      app.log.warn({ err }, 'could not delete expired upload reservations');
    }
    const cutoff = Date.now() - INCOMING_STALE_MS;
    if (storage.kind === 's3') await sweepIncomingObjects(cutoff);
    const incoming = path.join(options.uploadsDir, 'incoming');
    let names: string[] = [];
    try {
      names = await readdir(incoming);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT')
        app.log.warn({ err }, 'could not list the incoming uploads folder');
    }
    for (const name of names) {
      const entry = path.join(incoming, name);
      try {
        const info = await lstat(entry);
        if (info.mtimeMs < cutoff) await rm(entry, { recursive: true, force: true });
      } catch (err) {
        app.log.warn({ err, entry: name }, 'could not remove a stale upload leftover');
      }
    }
  };
  let sweeping: Promise<void> = Promise.resolve();
  const startSweep = () => {
    sweeping = sweep().catch((err: unknown) => app.log.error({ err }, 'upload sweep failed'));
  };
  options.sweep.run = async () => {
    await sweeping;
    startSweep();
    await sweeping;
  };
  // The app's job runner (registered before the features): one worker sweeps each hour for all instances,
  // which share the uploads through DATA_DIR or the bucket (docs/decisions/023).
  const jobs: JobRunner = app.jobs;
  jobs.every('sweep_uploads', SWEEP_INTERVAL_MS, () => options.sweep.run());
  app.addHook('onClose', async () => {
    await sweeping;
  });
}
