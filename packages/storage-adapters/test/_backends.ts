// The backends a test file runs on, each set up for the file's run and cleaned up after it.
// Call these at the top level of a test file: they register the file's beforeAll/afterAll.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll } from 'vitest'

/** The real Redis the tests use; they never skip without it, they fail, loudly. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

/** A new temporary directory (its name starts with `prefix`), removed after the file's tests. */
export function setupTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Redis for the file's run: `base` is a key prefix unique to the run (`runId` in it), `admin` a
 * client to look behind the stores' backs. Connected before the tests (failing them when Redis
 * is down); after them every key under `base` is deleted, and nothing else is touched.
 */
export function setupRedis(): { admin: Redis; base: string; runId: string } {
  const runId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
  const base = `litho:test:${runId}`
  const admin = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })

  beforeAll(async () => {
    try {
      await admin.connect()
      await admin.ping()
    } catch (error) {
      throw new Error(`Redis must run at ${REDIS_URL} for these tests (they never skip): ${(error as Error).message}`)
    }
  })

  afterAll(async () => {
    let cursor = '0'
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `${base}:*`, 'COUNT', 500)
      cursor = next
      if (keys.length > 0) await admin.del(...keys)
    } while (cursor !== '0')
    await admin.quit()
  })

  return { admin, base, runId }
}
