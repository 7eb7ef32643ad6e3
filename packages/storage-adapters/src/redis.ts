/**
 * `@litho/storage-adapters/redis`: the meter on Redis, shared by any number of processes
 * (`redis/meter.ts`). ioredis is an optional peer dependency, loaded at the first call.
 *
 * @module redis
 */
export { redisMeter, type RedisMeterOptions } from './redis/meter.js'
