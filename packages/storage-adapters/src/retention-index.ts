/**
 * `@litho/storage-adapters/retention-index`: the retention indexs, one file per backend: `unstorage/retention-index.ts` (any
 * unstorage instance), `memory/retention-index.ts`, `fs/retention-index.ts` and `redis/retention-index.ts`.
 *
 * @module retention-index
 */
export { unstorageRetentionIndex, type UnstorageRetentionIndexOptions } from './unstorage/retention-index.js'
export { memoryRetentionIndex } from './memory/retention-index.js'
export { fsRetentionIndex, type FsRetentionIndexOptions } from './fs/retention-index.js'
export { redisRetentionIndex, type RedisRetentionIndexOptions } from './redis/retention-index.js'
