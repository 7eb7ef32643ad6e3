// The asset store on memory, fs and Redis, each through the conformance suite of
// @litho/testing. Redis tests need REDIS_URL (default redis://127.0.0.1:6379) and never skip.
import { runAssetStoreConformance } from '@litho/testing/asset-store'
import { fsAssetStore, memoryAssetStore, redisAssetStore } from '../src/asset-store.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'

const { base } = setupRedis()
const dir = setupTempDir('litho-assets-')

runAssetStoreConformance({ name: 'memory', create: () => memoryAssetStore() })
runAssetStoreConformance({ name: 'fs', persistent: true, create: () => fsAssetStore({ base: dir }) })
runAssetStoreConformance({ name: 'redis', persistent: true, create: () => redisAssetStore({ url: REDIS_URL, base: `${base}:assets` }) })
