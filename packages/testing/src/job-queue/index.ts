/**
 * @litho/testing/job-queue: the conformance suites for the job ports, job stores
 * (`runJobStoreConformance`) and job queues (`runJobQueueConformance`). Its own entry because it
 * registers vitest tests, so the image helpers and fixtures can be used without vitest.
 *
 * @module @litho/testing/job-queue
 */
export { runJobStoreConformance, type JobStoreConformanceOptions } from './run-job-store-conformance.js'
export { runJobQueueConformance, type JobQueueConformanceOptions } from './run-job-queue-conformance.js'
export type { JobQueueFactoryOptions } from './job-queue-cases.js'
