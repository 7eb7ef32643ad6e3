/**
 * The design store on Redis: the one unstorage implementation (`../unstorage/design-store.ts`) over the redis driver.
 *
 * @module redis/design-store
 */
import type { DesignStore } from '@litho/core/contracts'
import { redisStore } from '../kit/store-base.js'
import { kit, METHODS, unstorageDesignStore } from '../unstorage/design-store.js'

/** Options of {@link redisDesignStore}. */
export interface RedisDesignStoreOptions {
  /** Where Redis is. @default 'redis://127.0.0.1:6379' */
  url?: string
  /** Prefix of every key. @default 'litho:designs' */
  base?: string
}

/**
 * A design store on Redis (the unstorage redis driver, over ioredis): shared by any number of
 * processes. ioredis is loaded, and the connection made, at the first call; `dispose()` closes it.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a bad `url` or `base`.
 * @example
 * const designs = redisDesignStore({ url: process.env.REDIS_URL })
 * const design = await designs.getByRenderCode('rc_4Kq9xV2mTn8pLw3z')
 */
export function redisDesignStore(options: RedisDesignStoreOptions = {}): DesignStore {
  return redisStore(kit, unstorageDesignStore, options, METHODS)
}
