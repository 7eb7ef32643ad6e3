/**
 * The account store on Redis: the one unstorage implementation (`../unstorage/account-store.ts`) over the redis driver.
 *
 * @module redis/account-store
 */
import type { AccountStore } from '@litho/core/contracts'
import { redisStore } from '../kit/store-base.js'
import { kit, METHODS, unstorageAccountStore } from '../unstorage/account-store.js'

/** Options of {@link redisAccountStore}. */
export interface RedisAccountStoreOptions {
  /** Where Redis is. @default 'redis://127.0.0.1:6379' */
  url?: string
  /** Prefix of every key. @default 'litho:accounts' */
  base?: string
}

/**
 * An account store on Redis (the unstorage redis driver, over ioredis): shared by any number of
 * processes. ioredis is loaded, and the connection made, at the first call; `dispose()` closes it.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a bad `url` or `base`.
 * @example
 * const accounts = redisAccountStore({ url: process.env.REDIS_URL })
 */
export function redisAccountStore(options: RedisAccountStoreOptions = {}): AccountStore {
  return redisStore(kit, unstorageAccountStore, options, METHODS)
}
