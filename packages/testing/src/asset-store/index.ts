/**
 * @litho/testing/asset-store: the conformance suite for asset stores
 * (`runAssetStoreConformance`). Its own entry because it registers vitest tests.
 *
 * @module @litho/testing/asset-store
 */
export { runAssetStoreConformance, type AssetStoreConformanceOptions } from './run-asset-store-conformance.js'
