/**
 * @litho/storage-adapters: storage for Litho. The meters, one per backend, each also in its own
 * subpath (`@litho/storage-adapters/memory`, `/fs`, `/redis`); and the design stores, one
 * implementation over unstorage (`@litho/storage-adapters/design-store`).
 *
 * @module @litho/storage-adapters
 */

/** A meter in process memory, e.g. `memoryMeter()` in tests. */
export { memoryMeter, type MemoryMeterOptions } from './memory.js'
/** A meter in files, one process per directory, e.g. `fsMeter({ base: '.data/meter' })`. */
export { fsMeter, type FsMeterOptions } from './fs.js'
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
