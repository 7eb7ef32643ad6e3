/**
 * The job queues: `memoryJobQueue()` (tests), `fsJobQueue({ dir })` (the embedded default, one
 * process per directory) and `bullmqJobQueue({ url })` (BullMQ on Redis, shared by any number of
 * processes). Each passes the job-queue suite of `@litho/testing`. BullMQ and ioredis are loaded
 * only by the first call of a BullMQ queue.
 *
 * @module job-queue
 */
export { memoryJobQueue, type MemoryJobQueueOptions } from './memory/job-queue.js'
export { fsJobQueue, type FsJobQueueOptions } from './fs/job-queue.js'
export { bullmqJobQueue, type BullmqJobQueueOptions } from './redis/job-queue.js'
export type { CommonJobQueueOptions, JobQueueErrorHandler } from './kit/job-queue.js'
