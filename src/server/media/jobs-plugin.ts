// The media job runner on the app (docs/decisions/008): main.ts starts it (a no-op on a ROLE=web instance,
// which only queues: docs/decisions/023), tests call runUntilIdle(), and closing the app stops it. Its videos'
// rows come from the caller (the videos feature's VideoRecords).
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.js';
import { mediaTools } from './ffmpeg.js';
import { MediaJobRunner } from './job-runner.js';
import type { MediaStorage } from './storage.js';
import type { VideoRecords } from './video-records.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The media job runner: main.ts starts it; tests call runUntilIdle(). */
    mediaJobs: MediaJobRunner;
  }
}

export interface MediaJobsOptions {
  db: Db;
  videos: VideoRecords;
  storage: MediaStorage;
  /** DATA_DIR/work: the jobs' scratch folders. */
  workRoot: string;
  /** The embedded database is one process's alone: leases left at start belong to a dead process. */
  reclaimOnStart: boolean;
  /** false on a web instance (ROLE=web): it queues jobs and never runs one. */
  runsJobs: boolean;
}

export function registerMediaJobs(app: FastifyInstance, options: MediaJobsOptions): MediaJobRunner {
  const runner = new MediaJobRunner({ ...options, tools: mediaTools, log: app.log });
  app.decorate('mediaJobs', runner);
  app.addHook('onClose', async () => runner.stop());
  return runner;
}
