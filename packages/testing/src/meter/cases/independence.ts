/**
 * Meter cases: independence.
 *
 * @module meter/cases/independence
 */
import type { MeterKey } from '@litho/core/contracts'
import { expect } from 'vitest'
import type { MeterCase } from '../meter-kit.js'

/** The meter cases of this topic: independence. */
export const independenceCases: readonly MeterCase[] = [
  {
    title: 'meter › windows are independent',
    async run({ meter, key, request }) {
      const october = key('windows', '2026-10')
      const november = key('windows', '2026-11')
      await meter.consume(request(october, { amount: 2, limit: 2 }))
      expect(await meter.consume(request(november, { amount: 2, limit: 2 }))).toEqual({ granted: true, usage: 2 })
      expect(await meter.usage(october)).toBe(2)
      expect(await meter.usage(key('windows', '2026-12'))).toBe(0)
    },
  },
  {
    title: 'meter › subjects are independent',
    async run({ meter, key, request }) {
      await meter.consume(request(key('subject-a'), { amount: 2, limit: 2 }))
      expect(await meter.consume(request(key('subject-b'), { amount: 2, limit: 2 }))).toEqual({ granted: true, usage: 2 })
      expect(await meter.usage(key('subject-a'))).toBe(2)
    },
  },
  {
    title: "meter › keys that differ only in case, dots or where ':' falls are independent",
    async run({ meter, key, request }) {
      // Meters that build file names or Redis keys from subject and window must not merge these.
      const { subject } = key('exact-keys')
      const keys: MeterKey[] = [
        { subject: `${subject}:a`, window: 'b' },
        { subject, window: 'a:b' },
        { subject: `${subject}:A`, window: 'b' },
        { subject: `${subject}.a`, window: 'b' },
        { subject: `${subject}`, window: '..' },
        { subject: `${subject}`, window: '.' },
        { subject: `${subject}`, window: '.a' },
      ]
      for (const [index, k] of keys.entries()) {
        expect(await meter.consume(request(k, { amount: index + 1, limit: 100 })), `consume ${JSON.stringify(k)}`).toEqual({ granted: true, usage: index + 1 })
      }
      for (const [index, k] of keys.entries()) expect(await meter.usage(k), `usage ${JSON.stringify(k)}`).toBe(index + 1)
    },
  },
]
