/**
 * The asset store in files: the one unstorage implementation (`../unstorage/asset-store.ts`) over the fs driver.
 *
 * @module fs/asset-store
 */
import type { AssetStore } from '@litho/core/contracts'
import { fsStore } from '../kit/store-base.js'
import { kit, unstorageAssetStore } from '../unstorage/asset-store.js'

/** Options of {@link fsAssetStore}. */
export interface FsAssetStoreOptions {
  /** The directory holding the records (**required**); created on first write. Keep it for assets only. */
  base: string
}

/**
 * An asset store in files under `options.base` (the unstorage fs driver, written atomically):
 * records survive restarts.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION` or `ERR_INVALID_ARG_TYPE` when `base` is missing or not a string.
 * @example
 * const assets = fsAssetStore({ base: '.data/assets' })
 */
export function fsAssetStore(options: FsAssetStoreOptions): AssetStore {
  return fsStore(kit, unstorageAssetStore, options)
}
