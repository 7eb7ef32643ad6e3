/**
 * Job queue cases: durability.
 *
 * @module job-queue/cases/durability
 */
import type { JobOutcome } from '@litho/core/contracts'
import { expect } from 'vitest'
import { SETTLE_MS, counts, expectCloseWithin, gate, ids, once, recorder, sleep, until, type JobQueueCase } from '../job-queue-kit.js'

/** The job queue cases of this topic: durability. */
export const durabilityCases: readonly JobQueueCase[] = [
  {
    title: 'job queue › durable: jobs enqueued on a queue closed without starting run on a new instance over the same backend',
    needs: 'persistent',
    async run({ queue, recoveryTimeoutMs }) {
      const first = await queue('durable')
      await first.enqueue({ id: 'kept' })
      await first.enqueue({ id: 'kept-delayed', delayMs: 300 })
      await first.close()
      const record = recorder()
      const second = await queue('durable')
      second.start(record.handler('b'), { concurrency: 2 })
      await until(() => record.runs.length >= 2, () => `${record.runs.length} of 2 jobs ran after the restart`, recoveryTimeoutMs)
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual({ kept: 1, 'kept-delayed': 1 })
      expect(record.runs.every((run) => run.attempt === 1)).toBe(true)
    },
  },
  {
    title: 'job queue › crash: a run cut off by close() runs again on a new instance after a restart, with attempt 2',
    needs: 'persistent',
    async run({ queue, closeTimeoutMs, recoveryTimeoutMs }) {
      const record = recorder()
      const hung = gate<JobOutcome>()
      const first = await queue('restart')
      first.start(
        record.handler('a', () => hung.promise),
        { concurrency: 1 },
      )
      await first.enqueue({ id: 'cut' })
      await until(() => record.runs.length >= 1, () => 'the job never ran on the first instance')
      await expectCloseWithin(first, closeTimeoutMs)
      const second = await queue('restart')
      second.start(record.handler('b'), { concurrency: 1 })
      await until(() => record.runs.some((run) => run.on === 'b'), () => 'the cut-off run never ran again', recoveryTimeoutMs)
      // The cut-off run finishing late changes nothing.
      hung.open({ done: true })
      await sleep(SETTLE_MS)
      expect(record.runs.map(({ id, attempt, on }) => ({ id, attempt, on }))).toStrictEqual([
        { id: 'cut', attempt: 1, on: 'a' },
        { id: 'cut', attempt: 2, on: 'b' },
      ])
    },
  },
  {
    title: 'job queue › crash: a run cut off on one instance runs again on another sharing the backend, with attempt 2',
    needs: 'shared',
    async run({ queue, closeTimeoutMs, recoveryTimeoutMs }) {
      const record = recorder()
      const hung = gate<JobOutcome>()
      const first = await queue('shared-crash')
      first.start(
        record.handler('a', () => hung.promise),
        { concurrency: 1 },
      )
      await first.enqueue({ id: 'cut' })
      await until(() => record.runs.length >= 1, () => 'the job never ran on the first instance')
      const second = await queue('shared-crash')
      second.start(record.handler('b'), { concurrency: 1 })
      await expectCloseWithin(first, closeTimeoutMs)
      await until(() => record.runs.some((run) => run.on === 'b'), () => 'the cut-off run never ran on the other instance', recoveryTimeoutMs)
      hung.open({ done: true })
      await sleep(SETTLE_MS)
      expect(record.runs.map(({ id, attempt, on }) => ({ id, attempt, on }))).toStrictEqual([
        { id: 'cut', attempt: 1, on: 'a' },
        { id: 'cut', attempt: 2, on: 'b' },
      ])
    },
  },
  {
    title: 'job queue › shared: two instances on one backend run 40 jobs, each exactly once in total',
    needs: 'shared',
    async run({ queue }) {
      const record = recorder()
      const [a, b] = [await queue('shared'), await queue('shared')]
      const work = async () => {
        await sleep(10)
        return { done: true } as const
      }
      a.start(record.handler('a', work), { concurrency: 2 })
      b.start(record.handler('b', work), { concurrency: 2 })
      const list = ids('s', 40)
      await Promise.all(list.map((id, index) => (index % 2 ? b : a).enqueue({ id })))
      await until(() => record.runs.length >= 40, () => `${record.runs.length} of 40 runs`)
      await sleep(SETTLE_MS)
      expect(counts(record.runs)).toStrictEqual(once(list))
    },
  },
]
