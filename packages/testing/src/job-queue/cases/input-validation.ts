/**
 * Job queue cases: input validation.
 *
 * @module job-queue/cases/input-validation
 */
import { expect } from 'vitest'
import { expectInvalid, INVALID_IDS, type InvalidCode } from '../../_expect.js'
import { SETTLE_MS, recorder, sleep, type JobQueueCase } from '../job-queue-kit.js'

/** The job queue cases of this topic: input validation. */
export const inputValidationCases: readonly JobQueueCase[] = [
  {
    title: 'job queue › enqueue rejects an invalid id or delayMs with a TypeError',
    async run({ queue }) {
      const q = await queue('invalid')
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of INVALID_IDS) cases.push([`id ${label}`, () => q.enqueue({ id: value as string }), code])
      for (const [label, value, code] of [
        ['-1', -1, 'ERR_INVALID_ARG_VALUE'],
        ['1.5', 1.5, 'ERR_INVALID_ARG_VALUE'],
        ['NaN', Number.NaN, 'ERR_INVALID_ARG_VALUE'],
        ['Infinity', Number.POSITIVE_INFINITY, 'ERR_INVALID_ARG_VALUE'],
        ["'10'", '10', 'ERR_INVALID_ARG_TYPE'],
      ] as const) {
        cases.push([`delayMs ${label}`, () => q.enqueue({ id: 'valid', delayMs: value as number }), code])
      }
      cases.push(['job null', () => q.enqueue(null as never), 'ERR_INVALID_ARG_TYPE'])
      await expectInvalid(cases)
      // Nothing was added: a handler started now sees no job.
      const record = recorder()
      q.start(record.handler('a'), { concurrency: 1 })
      await sleep(SETTLE_MS)
      expect(record.runs).toStrictEqual([])
    },
  },
]
