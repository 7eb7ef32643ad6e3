/**
 * The asset-store conformance suite: proves that an `AssetStore` (`@litho/core/contracts`) keeps
 * the contract written in its doc comment.
 *
 * @module asset-store/run-asset-store-conformance
 */
import type { AssetStore } from '@litho/core/contracts'
import { registerSuite } from '../_suite.js'
import { assetStoreCases, createAssetStoreCaseContext } from './asset-store-cases.js'

/** Options of {@link runAssetStoreConformance}. */
export interface AssetStoreConformanceOptions {
  /** Used in the describe title: `asset store › <name>`. */
  name: string
  /** A store; calling it again must give a store over the SAME storage (the persistence case). */
  create: () => AssetStore | Promise<AssetStore>
  /** Whether records survive a new store over the same storage (files, Redis). @default false */
  persistent?: boolean
  /** Cases to skip, by exact title, each with a reason. */
  skip?: Record<string, string>
}

/**
 * Registers the asset-store suite with vitest (call it at the top level of a test file). One
 * store is created before the cases and disposed after them; owners and ids start with a prefix
 * unique to the run, so runs sharing a Redis never see each other's records.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` when `skip` names a case that does not exist or gives no reason.
 * @example
 * import { runAssetStoreConformance } from '@litho/testing/asset-store'
 * import { redisAssetStore } from '@litho/storage-adapters/asset-store'
 *
 * runAssetStoreConformance({ name: 'redis', persistent: true, create: () => redisAssetStore({ url: 'redis://127.0.0.1:6379', base: 'test:assets' }) })
 */
export function runAssetStoreConformance(options: AssetStoreConformanceOptions): void {
  registerSuite({
    suite: 'asset store',
    subject: 'store',
    name: options.name,
    cases: assetStoreCases,
    skip: options.skip,
    open: async () => createAssetStoreCaseContext(await options.create(), options.create),
    close: ({ store }) => store.dispose?.(),
    unmet: (storeCase, { store }) => (storeCase.needsPersistent && options.persistent !== true ? `${store.name} is not declared persistent (option persistent of runAssetStoreConformance)` : undefined),
  })
}
