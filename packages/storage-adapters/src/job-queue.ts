/**
 * The job queues: `memoryJobQueue()` (tests), `fsJobQueue({ dir })` (the embedded default, one
 * process per directory) and `bullmqJobQueue({ url })` (BullMQ on Redis, shared by any number of
 * processes). Each passes the job-queue suite of `@litho/testing`. BullMQ and ioredis are loaded
 * only by the first call of a BullMQ queue.
 *
 * @module job-queue
 */
export { memoryJobQueue, type MemoryJobQueueOptions } from './_memory-job-queue.js'
export { fsJobQueue, type FsJobQueueOptions } from './_fs-job-queue.js'
export { bullmqJobQueue, type BullmqJobQueueOptions } from './_bullmq-job-queue.js'
export type { CommonJobQueueOptions, JobQueueErrorHandler } from './_job-queue-kit.js'
