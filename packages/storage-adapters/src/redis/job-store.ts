/**
 * The job store on Redis: the one unstorage implementation (`../unstorage/job-store.ts`) over the redis driver.
 *
 * @module redis/job-store
 */
import type { JobStore } from '@litho/core/contracts'
import { redisStore } from '../kit/store-base.js'
import { kit, METHODS, unstorageJobStore } from '../unstorage/job-store.js'

/** Options of {@link redisJobStore}. */
export interface RedisJobStoreOptions {
  /** Where Redis is. @default 'redis://127.0.0.1:6379' */
  url?: string
  /** Prefix of every key. @default 'litho:jobs' */
  base?: string
}

/**
 * A job store on Redis (the unstorage redis driver, over ioredis): shared by any number of
 * processes. ioredis is loaded, and the connection made, at the first call; `dispose()` closes it.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a bad `url` or `base`.
 * @example
 * const jobs = redisJobStore({ url: process.env.REDIS_URL })
 */
export function redisJobStore(options: RedisJobStoreOptions = {}): JobStore {
  return redisStore(kit, unstorageJobStore, options, METHODS)
}
