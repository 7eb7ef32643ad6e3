/**
 * Meter cases: usage history.
 *
 * @module meter/cases/usage-history
 */
import type { MeterKey, UsageHour } from '@litho/core/contracts'
import { expect } from 'vitest'
import { eventually } from '../../_expect.js'
import { DAY, HOUR, MINUTE, hourOf, lastMonthStart, type MeterCase } from '../meter-kit.js'

/** The meter cases of this topic: usage history. */
export const usageHistoryCases: readonly MeterCase[] = [
  {
    title: 'meter › history counts granted units per UTC hour, across windows and months',
    async run({ meter, key, request }) {
      const start = lastMonthStart()
      const before = key('history-hours', 'm1')
      const after = key('history-hours', 'm2')
      const consumed: Array<[MeterKey, at: number, amount: number]> = [
        [before, start - 2 * HOUR + 10 * MINUTE, 2],
        [before, start - HOUR - 1, 1], // the last millisecond of the same hour
        [before, start - HOUR, 3],
        [after, start, 1], // the first instant of the next month
        [after, start + 30 * MINUTE, 4],
        [after, start + 29 * HOUR + 15 * MINUTE, 1],
      ]
      for (const [k, at, amount] of consumed) {
        expect((await meter.consume(request(k, { amount, at: new Date(at) }))).granted, `consume at ${new Date(at).toISOString()}`).toBe(true)
      }
      // Another subject counting in the same hours stays apart.
      await meter.consume(request(key('history-hours-other'), { amount: 5, at: new Date(start) }))
      const expected: UsageHour[] = [
        { hour: hourOf(start - 2 * HOUR), count: 3 },
        { hour: hourOf(start - HOUR), count: 3 },
        { hour: hourOf(start), count: 5 },
        { hour: hourOf(start + 29 * HOUR), count: 1 },
      ]
      await eventually(async () => {
        expect(await meter.history({ subject: before.subject, from: new Date(start - DAY), to: new Date(start + 2 * DAY) })).toEqual(expected)
      })
      // History does not change what a window counts.
      expect(await meter.usage(before)).toBe(6)
      expect(await meter.usage(after)).toBe(6)
    },
  },
  {
    title: 'meter › consume without at counts in the current hour',
    async run({ meter, key, request }) {
      const k = key('history-now')
      const before = Date.now()
      await meter.consume(request(k, { amount: 2 }))
      const after = Date.now()
      await eventually(async () => {
        const hours = await meter.history({ subject: k.subject, from: new Date(before - HOUR), to: new Date(after + HOUR) })
        // The consume may straddle the turn of an hour: either hour will do.
        expect(hours).toHaveLength(1)
        expect([hourOf(before), hourOf(after)]).toContain(hours[0]?.hour)
        expect(hours[0]?.count).toBe(2)
      })
    },
  },
  {
    title: 'meter › refund takes the units out of the hour they were consumed in',
    async run({ meter, key, request }) {
      const start = lastMonthStart()
      const k = key('history-refund')
      const first = request(k, { amount: 2, at: new Date(start + 5 * HOUR + 1) })
      const second = request(k, { amount: 3, at: new Date(start + 6 * HOUR) })
      const third = request(k, { amount: 1, at: new Date(start + 6 * HOUR + 59 * MINUTE) })
      for (const consumption of [first, second, third]) await meter.consume(consumption)
      const history = () => meter.history({ subject: k.subject, from: new Date(start), to: new Date(start + DAY) })
      await eventually(async () => expect(await history()).toEqual([{ hour: hourOf(start + 5 * HOUR), count: 2 }, { hour: hourOf(start + 6 * HOUR), count: 4 }]))
      // Refunded now, taken out of the consumption's own hour (not the current one).
      expect(await meter.refund({ ...k, id: second.id })).toBe(true)
      await eventually(async () => expect(await history()).toEqual([{ hour: hourOf(start + 5 * HOUR), count: 2 }, { hour: hourOf(start + 6 * HOUR), count: 1 }]))
      // An hour brought to 0 is left out.
      expect(await meter.refund({ ...k, id: first.id })).toBe(true)
      await eventually(async () => expect(await history()).toEqual([{ hour: hourOf(start + 6 * HOUR), count: 1 }]))
      // A second refund changes nothing, here either.
      expect(await meter.refund({ ...k, id: first.id })).toBe(false)
      expect(await history()).toEqual([{ hour: hourOf(start + 6 * HOUR), count: 1 }])
      expect(await meter.refund({ ...k, id: third.id })).toBe(true)
      await eventually(async () => expect(await history()).toEqual([]))
      expect(await meter.usage(k)).toBe(0)
    },
  },
  {
    title: 'meter › history never counts a denied consume',
    async run({ meter, key, request }) {
      const start = lastMonthStart()
      const k = key('history-denied')
      const at = new Date(start + 3 * HOUR)
      expect((await meter.consume(request(k, { amount: 2, limit: 2, at }))).granted).toBe(true)
      const denied = request(k, { amount: 1, limit: 2, at })
      expect((await meter.consume(denied)).granted).toBe(false)
      expect((await meter.consume(request(k, { amount: 5, limit: 2, at: new Date(start + 4 * HOUR) }))).granted).toBe(false)
      expect((await meter.consume(request(key('history-denied-zero'), { amount: 1, limit: 0, at }))).granted).toBe(false)
      expect(await meter.refund({ ...k, id: denied.id })).toBe(false)
      await eventually(async () => {
        expect(await meter.history({ subject: k.subject, from: new Date(start), to: new Date(start + DAY) })).toEqual([{ hour: hourOf(at.getTime()), count: 2 }])
      })
      expect(await meter.history({ subject: key('history-denied-zero').subject, from: new Date(start), to: new Date(start + DAY) })).toEqual([])
    },
  },
  {
    title: 'meter › history covers the hour of from up to to, exclusive',
    async run({ meter, key, request }) {
      const h = lastMonthStart() + 10 * HOUR
      const k = key('history-range')
      for (let index = 0; index < 4; index++) await meter.consume(request(k, { amount: index + 1, at: new Date(h + index * HOUR + 20 * MINUTE) }))
      const history = (from: number, to: number) => meter.history({ subject: k.subject, from: new Date(from), to: new Date(to) })
      const hour = (index: number): UsageHour => ({ hour: hourOf(h + index * HOUR), count: index + 1 })
      await eventually(async () => expect(await history(h, h + 4 * HOUR)).toEqual([hour(0), hour(1), hour(2), hour(3)]))
      // `from` inside an hour includes that hour; an hour starting exactly at `to` is left out.
      expect(await history(h + HOUR + 30 * MINUTE, h + 3 * HOUR), 'from mid-hour, to at the start of an hour').toEqual([hour(1), hour(2)])
      expect(await history(h + HOUR + 30 * MINUTE, h + 3 * HOUR + 1), 'to 1 ms into an hour').toEqual([hour(1), hour(2), hour(3)])
      expect(await history(h + HOUR - 1, h + HOUR), 'the last millisecond of an hour').toEqual([hour(0)])
      expect(await history(h + HOUR, h + HOUR + 1), 'the first millisecond of an hour').toEqual([hour(1)])
      expect(await history(h - DAY, h), 'a range ending where the first hour starts').toEqual([])
      expect(await history(h + 4 * HOUR, h + DAY), 'a range after the last hour').toEqual([])
    },
  },
  {
    title: 'meter › history of a subject with nothing counted is empty',
    async run({ meter, key, request }) {
      const range = { from: new Date(0), to: new Date(Date.now() + 366 * DAY) }
      expect(await meter.history({ subject: key('history-fresh').subject, ...range })).toEqual([])
      // Counting in a window of another subject, or a refund of nothing, adds no hour.
      await meter.consume(request(key('history-fresh-other')))
      expect(await meter.refund({ ...key('history-fresh'), id: 'never-consumed' })).toBe(false)
      expect(await meter.history({ subject: key('history-fresh').subject, ...range })).toEqual([])
    },
  },
]
