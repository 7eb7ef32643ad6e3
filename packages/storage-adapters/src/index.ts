/**
 * @litho/storage-adapters: storage for Litho. The meters, one per backend, each also in its own
 * subpath (`@litho/storage-adapters/memory`, `/fs`, `/redis`); and the design stores, one
 * implementation over unstorage (`@litho/storage-adapters/design-store`); and the account stores,
 * likewise (`@litho/storage-adapters/account-store`); and the auth state stores of the OAuth
 * server (`@litho/storage-adapters/auth-state-store`); and the export-job stores and queues
 * (`@litho/storage-adapters/job-store`, `/job-queue`).
 *
 * @module @litho/storage-adapters
 */

/** A meter in process memory, e.g. `memoryMeter()` in tests. */
export { memoryMeter, type MemoryMeterOptions } from './memory.js'
/** A meter in files, one process per directory, e.g. `fsMeter({ base: '.data/meter' })`. */
export { fsMeter, type FsMeter, type FsMeterOptions } from './fs.js'
/** A meter on Redis, shared by any number of processes, e.g. `redisMeter({ url: process.env.REDIS_URL })`. */
export { redisMeter, type RedisMeterOptions } from './redis.js'
/** Designs on any unstorage instance, e.g. `unstorageDesignStore({ storage })`; and on memory, files or Redis, e.g. `redisDesignStore({ url })`. */
export {
  fsDesignStore,
  memoryDesignStore,
  redisDesignStore,
  unstorageDesignStore,
  type FsDesignStoreOptions,
  type RedisDesignStoreOptions,
  type UnstorageDesignStoreOptions,
} from './design-store.js'
/** Users and render keys on any unstorage instance, e.g. `unstorageAccountStore({ storage })`; and on memory, files or Redis, e.g. `redisAccountStore({ url })`. */
export {
  fsAccountStore,
  memoryAccountStore,
  redisAccountStore,
  unstorageAccountStore,
  type FsAccountStoreOptions,
  type RedisAccountStoreOptions,
  type UnstorageAccountStoreOptions,
} from './account-store.js'
/** OAuth server state (codes, refresh tokens, sessions) with TTL and atomic swap, e.g. `redisAuthStateStore({ url })`; `fsAuthStateStore({ base })` for one process. */
export {
  fsAuthStateStore,
  memoryAuthStateStore,
  redisAuthStateStore,
  unstorageAuthStateStore,
  type FsAuthStateStoreOptions,
  type RedisAuthStateStoreOptions,
  type UnstorageAuthStateStoreOptions,
} from './auth-state-store.js'

/** Rendered files in memory, files, Redis, any unstorage instance (served and verified by the app) or S3 (presigned). */
export {
  fsFileStore,
  memoryFileStore,
  redisFileStore,
  s3FileStore,
  unstorageFileStore,
  verifyFileRequest,
  type AppServedFileStoreOptions,
  type FileRequestVerdict,
  type FsFileStoreOptions,
  type MemoryFileStoreOptions,
  type RedisFileStoreOptions,
  type S3Acl,
  type S3FileStoreOptions,
  type UnstorageFileStoreOptions,
} from './file-store.js'

/** Export-job records on any unstorage instance, e.g. `unstorageJobStore({ storage })`; and on memory, files or Redis, e.g. `redisJobStore({ url })`. */
export {
  fsJobStore,
  memoryJobStore,
  redisJobStore,
  unstorageJobStore,
  type FsJobStoreOptions,
  type RedisJobStoreOptions,
  type UnstorageJobStoreOptions,
} from './job-store.js'

/** Records of stored renders, for their lifetime (the retention sweep), e.g. `redisRetentionIndex({ url })`; `fsRetentionIndex({ base })` for one process. */
export {
  fsRetentionIndex,
  memoryRetentionIndex,
  redisRetentionIndex,
  unstorageRetentionIndex,
  type FsRetentionIndexOptions,
  type RedisRetentionIndexOptions,
  type UnstorageRetentionIndexOptions,
} from './retention-index.js'

/** Records of uploaded images (docs/assets.md), e.g. `redisAssetStore({ url })`; `fsAssetStore({ base })` for one process. */
export {
  fsAssetStore,
  memoryAssetStore,
  redisAssetStore,
  unstorageAssetStore,
  type FsAssetStoreOptions,
  type RedisAssetStoreOptions,
  type UnstorageAssetStoreOptions,
} from './asset-store.js'

/** Durable job queues: `memoryJobQueue()` (tests), `fsJobQueue({ dir })` (one process), `bullmqJobQueue({ url })` (BullMQ on Redis, loaded at the first call). */
export {
  bullmqJobQueue,
  fsJobQueue,
  memoryJobQueue,
  type BullmqJobQueueOptions,
  type CommonJobQueueOptions,
  type FsJobQueueOptions,
  type JobQueueErrorHandler,
  type MemoryJobQueueOptions,
} from './job-queue.js'
