/**
 * `@litho/storage-adapters/asset-store`: the asset stores, one file per backend: `unstorage/asset-store.ts` (any
 * unstorage instance), `memory/asset-store.ts`, `fs/asset-store.ts` and `redis/asset-store.ts`.
 *
 * @module asset-store
 */
export { unstorageAssetStore, type UnstorageAssetStoreOptions } from './unstorage/asset-store.js'
export { memoryAssetStore } from './memory/asset-store.js'
export { fsAssetStore, type FsAssetStoreOptions } from './fs/asset-store.js'
export { redisAssetStore, type RedisAssetStoreOptions } from './redis/asset-store.js'
