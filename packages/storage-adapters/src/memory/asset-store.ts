/**
 * The asset store in process memory: the one unstorage implementation (`../unstorage/asset-store.ts`) over the memory driver.
 *
 * @module memory/asset-store
 */
import type { AssetStore } from '@litho/core/contracts'
import { memoryStore } from '../kit/store-base.js'
import { unstorageAssetStore } from '../unstorage/asset-store.js'

/**
 * An asset store in process memory (the unstorage memory driver): for tests and development.
 * Every call gives a new, empty store; nothing survives the process.
 *
 * @example
 * const assets = memoryAssetStore()
 * await assets.get('a_3Jx9Qm2LpZ7aK4tW') // null
 */
export function memoryAssetStore(): AssetStore {
  return memoryStore(unstorageAssetStore)
}
