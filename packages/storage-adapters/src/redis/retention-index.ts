/**
 * The retention index on Redis: the one unstorage implementation (`../unstorage/retention-index.ts`) over the redis driver.
 *
 * @module redis/retention-index
 */
import type { RetentionIndex } from '@litho/core/contracts'
import { redisStore } from '../kit/store-base.js'
import { kit, METHODS, unstorageRetentionIndex } from '../unstorage/retention-index.js'

/** Options of {@link redisRetentionIndex}. */
export interface RedisRetentionIndexOptions {
  /** Where Redis is. @default 'redis://127.0.0.1:6379' */
  url?: string
  /** Prefix of every key. @default 'litho:retention' */
  base?: string
}

/**
 * A retention index on Redis, shared by any number of processes. ioredis is loaded, and the
 * connection made, at the first call; `dispose()` closes it.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a bad `url` or `base`.
 * @example
 * const retention = redisRetentionIndex({ url: process.env.REDIS_URL })
 */
export function redisRetentionIndex(options: RedisRetentionIndexOptions = {}): RetentionIndex {
  return redisStore(kit, unstorageRetentionIndex, options, METHODS)
}
