/**
 * Meter cases: refunds.
 *
 * @module meter/cases/refunds
 */
import { expect } from 'vitest'
import type { MeterCase } from '../meter-kit.js'

/** The meter cases of this topic: refunds. */
export const refundsCases: readonly MeterCase[] = [
  {
    title: 'meter › refund gives back the units once',
    async run({ meter, key, request }) {
      const k = key('refund-once')
      await meter.consume(request(k, { amount: 2 }))
      const consumption = request(k, { amount: 3 })
      await meter.consume(consumption)
      expect(await meter.refund({ ...k, id: consumption.id })).toBe(true)
      expect(await meter.usage(k)).toBe(2)
      expect(await meter.refund({ ...k, id: consumption.id })).toBe(false)
      expect(await meter.usage(k)).toBe(2)
    },
  },
  {
    title: 'meter › refunded units can be consumed again',
    async run({ meter, key, request }) {
      const k = key('refund-reuse')
      const first = request(k, { amount: 2, limit: 2 })
      await meter.consume(first)
      expect((await meter.consume(request(k, { amount: 1, limit: 2 }))).granted).toBe(false)
      await meter.refund({ ...k, id: first.id })
      expect(await meter.consume(request(k, { amount: 2, limit: 2 }))).toEqual({ granted: true, usage: 2 })
    },
  },
  {
    title: 'meter › refund of an unknown id returns false and changes nothing',
    async run({ meter, key, request }) {
      const k = key('refund-unknown')
      await meter.consume(request(k, { amount: 2 }))
      expect(await meter.refund({ ...k, id: 'never-consumed' })).toBe(false)
      expect(await meter.usage(k)).toBe(2)
      expect(await meter.refund({ ...key('refund-unknown-empty'), id: 'never-consumed' })).toBe(false)
      expect(await meter.usage(key('refund-unknown-empty'))).toBe(0)
    },
  },
  {
    title: "meter › refund of a denied consume's id returns false and changes nothing",
    async run({ meter, key, request }) {
      const k = key('refund-denied')
      await meter.consume(request(k, { amount: 2, limit: 2 }))
      const denied = request(k, { amount: 1, limit: 2 })
      expect((await meter.consume(denied)).granted).toBe(false)
      expect(await meter.refund({ ...k, id: denied.id })).toBe(false)
      expect(await meter.usage(k)).toBe(2)
    },
  },
  {
    title: 'meter › refund in another window or subject returns false',
    async run({ meter, key, request }) {
      const k = key('refund-elsewhere')
      const consumption = request(k, { amount: 1 })
      await meter.consume(consumption)
      expect(await meter.refund({ ...key('refund-elsewhere', 'w2'), id: consumption.id })).toBe(false)
      expect(await meter.refund({ ...key('refund-elsewhere-other'), id: consumption.id })).toBe(false)
      expect(await meter.usage(k)).toBe(1)
      expect(await meter.refund({ ...k, id: consumption.id })).toBe(true)
    },
  },
]
