/**
 * The asset store on Redis: the one unstorage implementation (`../unstorage/asset-store.ts`) over the redis driver.
 *
 * @module redis/asset-store
 */
import type { AssetStore } from '@litho/core/contracts'
import { redisStore } from '../kit/store-base.js'
import { kit, METHODS, unstorageAssetStore } from '../unstorage/asset-store.js'

/** Options of {@link redisAssetStore}. */
export interface RedisAssetStoreOptions {
  /** Where Redis is. @default 'redis://127.0.0.1:6379' */
  url?: string
  /** Prefix of every key. @default 'litho:assets' */
  base?: string
}

/**
 * An asset store on Redis, shared by any number of processes. ioredis is loaded, and the
 * connection made, at the first call; `dispose()` closes it.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a bad `url` or `base`.
 * @example
 * const assets = redisAssetStore({ url: process.env.REDIS_URL })
 */
export function redisAssetStore(options: RedisAssetStoreOptions = {}): AssetStore {
  return redisStore(kit, unstorageAssetStore, options, METHODS)
}
