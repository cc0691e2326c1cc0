// Uploads: the multipart form, retries and the tus endpoint, with the upload sweep on the app.
import type { FastifyInstance } from 'fastify';
import type { Database, Db } from '#server/db/client.js';
import type { S3Settings } from '#server/media/s3-storage.js';
import type { MediaStorage } from '#server/media/storage.js';
import { uploadRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs the upload sweep now (after the one under way, if any); a worker runs it hourly anyway. */
    sweepUploads: () => Promise<void>;
  }
}

export interface UploadsOptions {
  db: Db;
  /** The database itself: its shared locks keep one writer per upload across instances (decision 024). */
  database: Database;
  storage: MediaStorage;
  /** DATA_DIR/uploads: files being received (tus and multipart), when media is on local disk. */
  uploadsDir: string;
  /** The bucket, when media lives in one (S3_*): uploads are received into it too. */
  s3: S3Settings | undefined;
  /** A media job was queued: the runner takes it now rather than at its next poll. */
  onJobQueued: () => void;
}

export async function registerUploads(app: FastifyInstance, options: UploadsOptions): Promise<void> {
  const sweep = { run: async () => {} };
  app.decorate('sweepUploads', () => sweep.run());
  await app.register(uploadRoutes, { ...options, sweep });
}
