/**
 * Meter cases: persistence.
 *
 * @module meter/cases/persistence
 */
import { expect } from 'vitest'
import { eventually } from '../../_expect.js'
import { DAY, HOUR, hourOf, lastMonthStart, type MeterCase } from '../meter-kit.js'

/** The meter cases of this topic: persistence. */
export const persistenceCases: readonly MeterCase[] = [
  {
    title: 'meter › usage and ids survive a new instance',
    needs: 'persistent',
    async run({ create, key, request }) {
      const k = key('persistent')
      const first = await create()
      const consumption = request(k, { amount: 3 })
      try {
        await first.consume(request(k, { amount: 2 }))
        await first.consume(consumption)
      } finally {
        await first.dispose?.()
      }
      const second = await create()
      try {
        expect(await second.usage(k)).toBe(5)
        expect(await second.refund({ ...k, id: consumption.id })).toBe(true)
        expect(await second.usage(k)).toBe(2)
        expect(await second.refund({ ...k, id: consumption.id })).toBe(false)
      } finally {
        await second.dispose?.()
      }
    },
  },
  {
    title: 'meter › history and the hours of ids survive a new instance',
    needs: 'persistent',
    async run({ create, key, request }) {
      const start = lastMonthStart()
      const k = key('history-persistent')
      const consumption = request(k, { amount: 3, at: new Date(start + 2 * HOUR) })
      const first = await create()
      try {
        await first.consume(request(k, { amount: 2, at: new Date(start + HOUR) }))
        await first.consume(consumption)
      } finally {
        await first.dispose?.()
      }
      const second = await create()
      try {
        const history = () => second.history({ subject: k.subject, from: new Date(start), to: new Date(start + DAY) })
        await eventually(async () => expect(await history()).toEqual([{ hour: hourOf(start + HOUR), count: 2 }, { hour: hourOf(start + 2 * HOUR), count: 3 }]))
        // The new instance still knows which hour the consumption was counted in.
        expect(await second.refund({ ...k, id: consumption.id })).toBe(true)
        await eventually(async () => expect(await history()).toEqual([{ hour: hourOf(start + HOUR), count: 2 }]))
      } finally {
        await second.dispose?.()
      }
    },
  },
]
