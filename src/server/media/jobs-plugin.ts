// The media's jobs on the app (docs/decisions/008, 029): their handlers go to the app's job runner, and
// `app.mediaJobs` is the runner's media lane (tests call its runUntilIdle()). Its videos' rows come from the
// caller (the videos feature's VideoRecords).
import type { FastifyInstance } from 'fastify';
import type { JobLane, JobRunner } from '../jobs/index.js';
import { mediaTools } from './ffmpeg.js';
import { handleMediaJobs, MEDIA_LANE } from './media-jobs.js';
import type { MediaStorage } from './storage.js';
import type { VideoRecords } from './video-records.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job runner's media lane: tests call runUntilIdle(). */
    mediaJobs: JobLane;
  }
}

export interface MediaJobsOptions {
  jobs: JobRunner;
  videos: VideoRecords;
  storage: MediaStorage;
  /** DATA_DIR/work: the jobs' scratch folders. */
  workRoot: string;
}

export function registerMediaJobs(app: FastifyInstance, options: MediaJobsOptions): JobLane {
  const { jobs, ...deps } = options;
  handleMediaJobs(jobs, { ...deps, tools: mediaTools });
  const lane = jobs.lane(MEDIA_LANE);
  app.decorate('mediaJobs', lane);
  return lane;
}
