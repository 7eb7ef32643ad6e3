/**
 * Meter cases: concurrency.
 *
 * @module meter/cases/concurrency
 */
import { expect } from 'vitest'
import { eventually } from '../../_expect.js'
import { HOUR, hourOf, lastMonthStart, type MeterCase } from '../meter-kit.js'

/** The meter cases of this topic: concurrency. */
export const concurrencyCases: readonly MeterCase[] = [
  {
    title: 'meter › 200 concurrent consumes against a limit of 100 grant exactly 100',
    async run({ meter, key, request }) {
      const k = key('concurrent-consume')
      const results = await Promise.all(Array.from({ length: 200 }, () => meter.consume(request(k, { amount: 1, limit: 100 }))))
      const granted = results.filter((result) => result.granted).length
      expect(granted, `granted ${granted} of 200 against a limit of 100`).toBe(100)
      expect(await meter.usage(k)).toBe(100)
      for (const result of results) expect(result.usage).toBeLessThanOrEqual(100)
    },
  },
  {
    title: 'meter › 100 concurrent refunds of one id give back once',
    async run({ meter, key, request }) {
      const k = key('concurrent-refund')
      await meter.consume(request(k, { amount: 5, limit: 100 }))
      const consumption = request(k, { amount: 3, limit: 100 })
      await meter.consume(consumption)
      const results = await Promise.all(Array.from({ length: 100 }, () => meter.refund({ ...k, id: consumption.id })))
      const refunded = results.filter(Boolean).length
      expect(refunded, `${refunded} of 100 refunds returned true`).toBe(1)
      expect(await meter.usage(k)).toBe(5)
    },
  },
  {
    title: 'meter › concurrent consumes and refunds keep usage exact',
    async run({ meter, key, request }) {
      const k = key('concurrent-mixed')
      const first = Array.from({ length: 60 }, () => request(k, { amount: 1, limit: 100 }))
      await Promise.all(first.map((r) => meter.consume(r)))
      // 30 refunds race 50 consumes; the limit leaves room for any order, so every call succeeds
      // and a lost update shows as a usage other than 60 − 30 + 50 = 80.
      const [refunds, consumes] = await Promise.all([
        Promise.all(first.slice(0, 30).map((r) => meter.refund({ ...k, id: r.id }))),
        Promise.all(Array.from({ length: 50 }, () => meter.consume(request(k, { amount: 1, limit: 1000 })))),
      ])
      expect(refunds.every(Boolean)).toBe(true)
      expect(consumes.every((result) => result.granted)).toBe(true)
      expect(await meter.usage(k)).toBe(80)
    },
  },
  {
    title: 'meter › two instances sharing the backend grant exactly the limit',
    needs: 'shared',
    async run({ meter, create, key, request }) {
      const other = await create()
      try {
        const k = key('shared-consume')
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, index) => (index % 2 ? other : meter).consume(request(k, { amount: 1, limit: 100 }))),
        )
        const granted = results.filter((result) => result.granted).length
        expect(granted, `granted ${granted} of 200 across two instances against a limit of 100`).toBe(100)
        expect(await meter.usage(k)).toBe(100)
        expect(await other.usage(k)).toBe(100)
      } finally {
        await other.dispose?.()
      }
    },
  },
  {
    title: 'meter › concurrent refunds on two instances give back once',
    needs: 'shared',
    async run({ meter, create, key, request }) {
      const other = await create()
      try {
        const k = key('shared-refund')
        const consumption = request(k, { amount: 2 })
        await meter.consume(consumption)
        const results = await Promise.all(Array.from({ length: 100 }, (_, index) => (index % 2 ? other : meter).refund({ ...k, id: consumption.id })))
        expect(results.filter(Boolean).length).toBe(1)
        expect(await other.usage(k)).toBe(0)
      } finally {
        await other.dispose?.()
      }
    },
  },

  {
    title: 'meter › concurrent consumes and refunds keep the history exact',
    async run({ meter, key, request }) {
      const k = key('concurrent-history')
      const at = new Date(lastMonthStart() + 12 * HOUR)
      const first = Array.from({ length: 60 }, () => request(k, { amount: 1, limit: 100, at }))
      await Promise.all(first.map((r) => meter.consume(r)))
      // 30 refunds race 200 consumes against the limit: how many are granted depends on the
      // order, but every unit in the window was counted in the one hour, so the hour must hold
      // exactly the usage.
      const [refunds, consumes] = await Promise.all([
        Promise.all(first.slice(0, 30).map((r) => meter.refund({ ...k, id: r.id }))),
        Promise.all(Array.from({ length: 200 }, () => meter.consume(request(k, { amount: 1, limit: 100, at })))),
      ])
      expect(refunds.every(Boolean)).toBe(true)
      const granted = consumes.filter((result) => result.granted).length
      const usage = await meter.usage(k)
      expect(usage).toBe(30 + granted)
      await eventually(async () => {
        expect(await meter.history({ subject: k.subject, from: at, to: new Date(at.getTime() + HOUR) }), `history after ${granted} granted`).toEqual([{ hour: hourOf(at.getTime()), count: usage }])
      })
    },
  },
]
