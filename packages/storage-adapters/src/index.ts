/**
 * @litho/storage-adapters: storage for Litho. For now the meters, one per backend; each also has
 * its own subpath (`@litho/storage-adapters/memory`, `/fs`, `/redis`).
 *
 * @module @litho/storage-adapters
 */

/** A meter in process memory, e.g. `memoryMeter()` in tests. */
export { memoryMeter, type MemoryMeterOptions } from './memory.js'
/** A meter in files, one process per directory, e.g. `fsMeter({ base: '.data/meter' })`. */
export { fsMeter, type FsMeterOptions } from './fs.js'
/** A meter on Redis, shared by any number of processes, e.g. `redisMeter({ url: process.env.REDIS_URL })`. */
export { redisMeter, type RedisMeterOptions } from './redis.js'
