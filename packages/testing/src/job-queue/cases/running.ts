/**
 * Job queue cases: running.
 *
 * @module job-queue/cases/running
 */
import type { QueuedJob } from '@litho/core/contracts'
import { expect } from 'vitest'
import { SETTLE_MS, counts, gate, ids, once, recorder, sleep, until, type JobQueueCase } from '../job-queue-kit.js'

/** The job queue cases of this topic: running. */
export const runningCases: readonly JobQueueCase[] = [
  {
    title: 'job queue › an enqueued job is handed to the handler once, as { id, attempt: 1 }',
    async run({ queue }) {
      const q = await queue('once')
      const seen: unknown[] = []
      const record = recorder()
      q.start(record.handler('a', (job) => (seen.push({ ...job }), { done: true })), { concurrency: 1 })
      await q.enqueue({ id: 'job1' })
      await until(() => record.runs.length >= 1, () => 'the job never ran')
      await sleep(SETTLE_MS)
      expect(record.runs.map(({ id, attempt }) => ({ id, attempt }))).toStrictEqual([{ id: 'job1', attempt: 1 }])
      expect(seen).toStrictEqual([{ id: 'job1', attempt: 1 }])
    },
  },
  {
    title: 'job queue › jobs enqueued before start run once start is called',
    async run({ queue }) {
      const q = await queue('before-start')
      const record = recorder()
      const list = ids('early', 3)
      for (const id of list) await q.enqueue({ id })
      await sleep(50)
      q.start(record.handler('a'), { concurrency: 2 })
      await until(() => record.runs.length >= 3, () => `${record.runs.length} of 3 jobs ran`)
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual(once(list))
    },
  },
  {
    title: 'job queue › delayMs: the job runs no sooner, and does not hold back a job due earlier',
    async run({ queue }) {
      const q = await queue('delay')
      const record = recorder()
      q.start(record.handler('a'), { concurrency: 1 })
      const before = Date.now()
      await q.enqueue({ id: 'late', delayMs: 400 })
      await q.enqueue({ id: 'now' })
      await until(() => record.runs.length >= 2, () => `${record.runs.map((r) => r.id).join(', ') || 'nothing'} ran`)
      const [first, second] = record.runs
      expect(first?.id, 'the job due now runs first').toBe('now')
      expect(second?.id).toBe('late')
      expect(second!.at - before, 'ms from enqueue to the delayed run').toBeGreaterThanOrEqual(400)
      await sleep(SETTLE_MS)
      expect(record.runs).toHaveLength(2)
    },
  },
  {
    title: 'job queue › { retryInMs } runs the job again, no sooner, with attempt + 1, until { done: true }',
    async run({ queue }) {
      const q = await queue('retry')
      const record = recorder()
      q.start(
        record.handler('a', (job) => (job.attempt < 3 ? { retryInMs: 200 } : { done: true })),
        { concurrency: 2 },
      )
      await q.enqueue({ id: 'retried' })
      await until(() => record.runs.length >= 3, () => `${record.runs.length} of 3 runs`)
      await sleep(SETTLE_MS)
      expect(record.runs.map((run) => run.attempt)).toStrictEqual([1, 2, 3])
      for (const [index, run] of record.runs.slice(1).entries()) {
        const previous = record.runs[index]!
        expect(run.at - previous.returnedAt!, `ms between run ${index + 1} returning and run ${index + 2}`).toBeGreaterThanOrEqual(200)
      }
    },
  },
  {
    title: 'job queue › a handler that throws is run again with attempt + 1',
    async run({ queue }) {
      const q = await queue('throws')
      const record = recorder()
      q.start(
        record.handler('a', (job) => {
          if (job.attempt < 3) throw new Error(`failure ${job.attempt} (expected by the job-queue suite)`)
          return { done: true }
        }),
        { concurrency: 1 },
      )
      await q.enqueue({ id: 'thrower' })
      await until(() => record.runs.length >= 3, () => `${record.runs.length} of 3 runs`, 20_000)
      await sleep(SETTLE_MS)
      expect(record.runs.map((run) => run.attempt)).toStrictEqual([1, 2, 3])
    },
  },
  {
    title: 'job queue › concurrency: never more than N runs at once, and N are used',
    async run({ queue }) {
      const q = await queue('concurrency')
      const list = ids('c', 12)
      for (const id of list) await q.enqueue({ id })
      let running = 0
      let most = 0
      const record = recorder()
      q.start(
        record.handler('a', async () => {
          running += 1
          most = Math.max(most, running)
          await sleep(60)
          running -= 1
          return { done: true }
        }),
        { concurrency: 3 },
      )
      await until(() => record.runs.length >= 12 && running === 0, () => `${record.runs.length} of 12 runs`)
      expect(most, 'most runs at once').toBe(3)
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual(once(list))
    },
  },
  {
    title: 'job queue › 50 jobs enqueued at once: each runs exactly once, with attempt 1',
    async run({ queue }) {
      const q = await queue('fifty')
      const record = recorder()
      q.start(
        record.handler('a', async () => {
          await sleep(5)
          return { done: true }
        }),
        { concurrency: 5 },
      )
      const list = ids('j', 50)
      await Promise.all(list.map((id) => q.enqueue({ id })))
      await until(() => record.runs.length >= 50, () => `${record.runs.length} of 50 runs`)
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual(once(list))
      expect(record.runs.every((run) => run.attempt === 1)).toBe(true)
    },
  },
  {
    title: 'job queue › enqueueing an id already waiting or running adds no second job',
    async run({ queue }) {
      const q = await queue('duplicate')
      await q.enqueue({ id: 'dup' })
      await q.enqueue({ id: 'dup' })
      await Promise.all([q.enqueue({ id: 'dup' }), q.enqueue({ id: 'dup' })])
      const hold = gate()
      const started = gate()
      const record = recorder()
      q.start(
        record.handler('a', async () => {
          started.open()
          await hold.promise
          return { done: true }
        }),
        { concurrency: 2 },
      )
      await started.promise
      // While it runs.
      await q.enqueue({ id: 'dup' })
      await sleep(SETTLE_MS)
      hold.open()
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual({ dup: 1 })
    },
  },
  {
    title: 'job queue › close() waits for runs in flight; a run that finished is not run again',
    async run({ probe, queue, closeTimeoutMs }) {
      const q = await queue('graceful')
      const record = recorder()
      const started = gate()
      let finished = false
      const runMs = Math.min(300, Math.max(50, closeTimeoutMs / 2))
      q.start(
        record.handler('a', async () => {
          started.open()
          await sleep(runMs)
          finished = true
          return { done: true }
        }),
        { concurrency: 1 },
      )
      await q.enqueue({ id: 'graceful' })
      await started.promise
      await q.close()
      expect(finished, 'the run had finished when close() resolved').toBe(true)
      if (probe.capabilities.persistent || probe.capabilities.shared) {
        const again = await queue('graceful')
        again.start(record.handler('b'), { concurrency: 1 })
        await sleep(SETTLE_MS * 2)
      }
      expect(record.runs.map(({ id, on }) => ({ id, on }))).toStrictEqual([{ id: 'graceful', on: 'a' }])
    },
  },

  {
    title: 'job queue › a job that still asks for a retry when the queue gives up is announced to onGiveUp once, with its last attempt, and never run again',
    async run({ queue }) {
      const q = await queue('give-up')
      const record = recorder()
      const announced: Array<{ job: QueuedJob; reason: string }> = []
      q.start(record.handler('a', () => ({ retryInMs: 0 })), {
        concurrency: 1,
        onGiveUp: async (job, reason) => void announced.push({ job: { ...job }, reason }),
      })
      await q.enqueue({ id: 'stubborn' })
      await until(() => announced.length >= 1, () => `onGiveUp was never called (${record.runs.length} runs so far)`)
      await sleep(SETTLE_MS)
      expect(announced).toHaveLength(1)
      const runs = record.of('stubborn')
      expect(announced[0]!.job).toStrictEqual({ id: 'stubborn', attempt: runs.at(-1)!.attempt })
      expect(typeof announced[0]!.reason === 'string' && announced[0]!.reason.length > 0, 'the reason is a sentence').toBe(true)
      expect(runs.map((run) => run.attempt)).toStrictEqual(runs.map((_, index) => index + 1))
    },
  },
]
