// The retention index on memory, fs and Redis, each through the conformance suite of
// @litho/testing. Redis tests need REDIS_URL (default redis://127.0.0.1:6379) and never skip.
import { runRetentionIndexConformance } from '@litho/testing/retention-index'
import { fsRetentionIndex, memoryRetentionIndex, redisRetentionIndex } from '../src/retention-index.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'

const { base } = setupRedis()
const dir = setupTempDir('litho-retention-')

runRetentionIndexConformance({ name: 'memory', create: () => memoryRetentionIndex() })
runRetentionIndexConformance({ name: 'fs', persistent: true, create: () => fsRetentionIndex({ base: dir }) })
runRetentionIndexConformance({ name: 'redis', persistent: true, create: () => redisRetentionIndex({ url: REDIS_URL, base: `${base}:retention` }) })
