/**
 * `@litho/storage-adapters/design-store`: the design stores, one file per backend: `unstorage/design-store.ts` (any
 * unstorage instance), `memory/design-store.ts`, `fs/design-store.ts` and `redis/design-store.ts`.
 *
 * @module design-store
 */
export { unstorageDesignStore, type UnstorageDesignStoreOptions } from './unstorage/design-store.js'
export { memoryDesignStore } from './memory/design-store.js'
export { fsDesignStore, type FsDesignStoreOptions } from './fs/design-store.js'
export { redisDesignStore, type RedisDesignStoreOptions } from './redis/design-store.js'
