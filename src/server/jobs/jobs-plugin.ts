// The job runner on the app: features and the app give it their handlers while the app is built, main.ts
// starts it (a no-op on a ROLE=web instance, which only queues: docs/decisions/023), tests call
// runUntilIdle(), and closing the app stops it.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.js';
import { JobRunner } from './job-runner.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job runner: register handlers and recurring jobs on it; main.ts starts it. */
    jobs: JobRunner;
  }
}

export function registerJobs(
  app: FastifyInstance,
  options: {
    db: Db;
    /** The embedded database is one process's alone: leases left at start belong to a dead process. */
    reclaimOnStart: boolean;
    /** false on a web instance (ROLE=web): it queues jobs and never runs one. */
    runsJobs: boolean;
  },
): JobRunner {
  const runner = new JobRunner({ ...options, log: app.log });
  app.decorate('jobs', runner);
  app.addHook('onClose', async () => runner.stop());
  return runner;
}
