/**
 * Meter cases: counting.
 *
 * @module meter/cases/counting
 */
import { expect } from 'vitest'
import type { MeterCase } from '../meter-kit.js'

/** The meter cases of this topic: counting. */
export const countingCases: readonly MeterCase[] = [
  {
    title: 'meter › a fresh window has usage 0',
    async run({ meter, key }) {
      expect(await meter.usage(key('fresh'))).toBe(0)
    },
  },
  {
    title: 'meter › consume within the limit is granted and counted',
    async run({ meter, key, request }) {
      const k = key('within')
      expect(await meter.consume(request(k, { amount: 1, limit: 10 }))).toEqual({ granted: true, usage: 1 })
      expect(await meter.consume(request(k, { amount: 4, limit: 10 }))).toEqual({ granted: true, usage: 5 })
      expect(await meter.usage(k)).toBe(5)
    },
  },
  {
    title: 'meter › consume up to exactly the limit is granted',
    async run({ meter, key, request }) {
      const k = key('exact')
      expect(await meter.consume(request(k, { amount: 3, limit: 3 }))).toEqual({ granted: true, usage: 3 })
      expect(await meter.usage(k)).toBe(3)
    },
  },
  {
    title: 'meter › consume past the limit is denied and changes nothing',
    async run({ meter, key, request }) {
      const k = key('past')
      await meter.consume(request(k, { amount: 2, limit: 2 }))
      expect(await meter.consume(request(k, { amount: 1, limit: 2 }))).toEqual({ granted: false, usage: 2 })
      expect(await meter.usage(k)).toBe(2)
    },
  },
  {
    title: 'meter › consume of several units crossing the limit is denied and changes nothing',
    async run({ meter, key, request }) {
      const k = key('crossing')
      await meter.consume(request(k, { amount: 8, limit: 10 }))
      expect(await meter.consume(request(k, { amount: 3, limit: 10 }))).toEqual({ granted: false, usage: 8 })
      expect(await meter.usage(k)).toBe(8)
      // What is left can still be taken.
      expect(await meter.consume(request(k, { amount: 2, limit: 10 }))).toEqual({ granted: true, usage: 10 })
    },
  },
  {
    title: 'meter › limit 0 denies',
    async run({ meter, key, request }) {
      const k = key('zero')
      expect(await meter.consume(request(k, { amount: 1, limit: 0 }))).toEqual({ granted: false, usage: 0 })
      expect(await meter.usage(k)).toBe(0)
    },
  },
  {
    title: 'meter › a lower limit than the usage denies without changing the usage',
    async run({ meter, key, request }) {
      // A plan downgrade mid-window: usage 5, new limit 3.
      const k = key('downgrade')
      await meter.consume(request(k, { amount: 5, limit: 10 }))
      expect(await meter.consume(request(k, { amount: 1, limit: 3 }))).toEqual({ granted: false, usage: 5 })
      expect(await meter.usage(k)).toBe(5)
    },
  },
]
