/**
 * `@litho/storage-adapters/job-store`: the job stores, one file per backend: `unstorage/job-store.ts` (any
 * unstorage instance), `memory/job-store.ts`, `fs/job-store.ts` and `redis/job-store.ts`.
 *
 * @module job-store
 */
export { unstorageJobStore, type UnstorageJobStoreOptions } from './unstorage/job-store.js'
export { memoryJobStore } from './memory/job-store.js'
export { fsJobStore, type FsJobStoreOptions } from './fs/job-store.js'
export { redisJobStore, type RedisJobStoreOptions } from './redis/job-store.js'
