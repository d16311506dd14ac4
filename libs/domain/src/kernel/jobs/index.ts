// The job runner (docs/jobs.md): what rooms use to declare jobs and workers, and what the CLI uses.
export { JobRunner, ScheduledJob, UnknownJobError, JobBusyError } from './job-runner';
export type { JobContext, JobDefinition, JobResult, JobRun, JobStatus, WorkerDefinition } from './job-runner';
export { ScheduledJobState } from './scheduled-job.entity';
export { currentSlot, nextSlot, describeSchedule } from './schedule';
export type { JobSchedule } from './schedule';
