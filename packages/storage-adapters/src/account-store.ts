/**
 * `@litho/storage-adapters/account-store`: the account stores, one file per backend: `unstorage/account-store.ts` (any
 * unstorage instance), `memory/account-store.ts`, `fs/account-store.ts` and `redis/account-store.ts`.
 *
 * @module account-store
 */
export { unstorageAccountStore, type UnstorageAccountStoreOptions } from './unstorage/account-store.js'
export { memoryAccountStore } from './memory/account-store.js'
export { fsAccountStore, type FsAccountStoreOptions } from './fs/account-store.js'
export { redisAccountStore, type RedisAccountStoreOptions } from './redis/account-store.js'
