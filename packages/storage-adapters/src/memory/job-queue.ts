/**
 * The job queue in process memory. Internal: `memoryJobQueue` is exported by `job-queue.ts`.
 *
 * @module memory/job-queue
 */
import type { JobQueue } from '@litho/core/contracts'
import { createLocalQueue, queueKit, readCommonOptions, type ClaimedJob, type CommonJobQueueOptions, type LocalBackend } from '../kit/job-queue.js'

/** Options of {@link memoryJobQueue}. */
export type MemoryJobQueueOptions = CommonJobQueueOptions

const kit = queueKit('memory')

interface Entry {
  id: string
  /** Runs started so far. */
  runs: number
  notBefore: number
  running: boolean
  /** Insertion order, for jobs due at the same time. */
  sequence: number
}

/**
 * A job queue in process memory: for tests and development. Jobs wait in a map, delays are
 * timers; nothing survives the process, and a run cut off by `close()` is lost
 * (capabilities `{ persistent: false, shared: false }`). Every call gives a new, empty queue.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a bad option.
 * @example
 * const queue = memoryJobQueue()
 * queue.start(async ({ id, attempt }) => ({ done: true }), { concurrency: 2 })
 * await queue.enqueue({ id: 'exp_3Jx9Qm2LpZ7a' })
 */
export function memoryJobQueue(options: MemoryJobQueueOptions = {}): JobQueue {
  const common = readCommonOptions(kit, options ?? {})
  const jobs = new Map<string, Entry>()
  let sequence = 0

  const backend: LocalBackend<Entry> = {
    async add(id, notBefore) {
      if (jobs.has(id)) return
      jobs.set(id, { id, runs: 0, notBefore, running: false, sequence: sequence++ })
    },
    async recover() {},
    async claim(max, now) {
      const waiting = [...jobs.values()].filter((entry) => !entry.running)
      waiting.sort((a, b) => a.notBefore - b.notBefore || a.sequence - b.sequence)
      const claimed: Array<ClaimedJob<Entry>> = []
      let nextAt: number | null = null
      for (const entry of waiting) {
        if (entry.notBefore > now) {
          nextAt = entry.notBefore
          break
        }
        if (claimed.length === max) break
        entry.running = true
        entry.runs += 1
        claimed.push({ job: { id: entry.id, attempt: entry.runs }, token: entry })
      }
      return { claimed, nextAt }
    },
    async finish({ token }, end) {
      if (end.kind === 'retry') {
        token.running = false
        token.notBefore = end.notBefore
        token.sequence = sequence++
      } else {
        jobs.delete(token.id)
      }
    },
    async release({ token }) {
      token.running = false
      token.runs -= 1
    },
    async waiting() {
      let count = 0
      for (const entry of jobs.values()) if (!entry.running) count++
      return count
    },
  }

  return createLocalQueue(kit, backend, { ...common, name: 'memory', capabilities: { persistent: false, shared: false }, pollMs: Number.POSITIVE_INFINITY })
}
