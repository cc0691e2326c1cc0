// The jobs module (docs/decisions/029): a durable queue in the database that imports no feature; features
// and the app define their kinds of job, give the runner their handlers, and enqueue in their transactions.
export {
  DEFAULT_LANE,
  OUTSIDE_LANE,
  defineJob,
  JobInterruptedError,
  type JobContext,
  type JobDefinition,
  type JobHandler,
  type JobRetry,
} from './job-definition.js';
export { errorText, JobRunner, recurringKey, type JobLane, type RecurringOptions } from './job-runner.js';
export { registerJobs } from './jobs-plugin.js';
export { completeQueued, enqueue, hasLiveJob, liveJobIds, type EnqueueOptions } from './jobs-repository.js';
