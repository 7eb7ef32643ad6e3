// JobQueue.depth (optional, for the export-queue metric): the jobs waiting, due or delayed,
// not those running, on memory, fs and BullMQ (the real Redis; its keys under a unique prefix).
import { join } from 'node:path'
import type { JobQueue } from '@litho/core/contracts'
import { describe, expect, it } from 'vitest'
import { bullmqJobQueue, fsJobQueue, memoryJobQueue } from '../src/job-queue.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'

const { base } = setupRedis()
const root = setupTempDir('litho-queue-depth-')

const queues: Array<[string, () => JobQueue]> = [
  ['memory', () => memoryJobQueue()],
  ['fs', () => fsJobQueue({ dir: join(root, 'depth'), pollMs: 50 })],
  ['bullmq', () => bullmqJobQueue({ url: REDIS_URL, prefix: `${base}:bull`, name: 'depth' })],
]

describe.each(queues)('%s job queue depth', (_name, create) => {
  it('depth › counts waiting and delayed jobs, then not the one running', async () => {
    const queue = create()
    try {
      expect(await queue.depth!()).toBe(0)
      await queue.enqueue({ id: 'job-a' })
      await queue.enqueue({ id: 'job-b', delayMs: 60_000 })
      // Enqueueing an id already waiting adds nothing.
      await queue.enqueue({ id: 'job-a' })
      expect(await queue.depth!()).toBe(2)
      let release!: () => void
      const running = new Promise<void>((resolve) => (release = resolve))
      let started!: () => void
      const startedRun = new Promise<void>((resolve) => (started = resolve))
      queue.start(
        async () => {
          started()
          await running
          return { done: true }
        },
        { concurrency: 1 },
      )
      await startedRun
      expect(await queue.depth!()).toBe(1)
      release()
    } finally {
      await queue.close()
    }
  }, 20_000)
})
