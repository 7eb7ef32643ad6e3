/**
 * Meter cases: input validation: the same TypeError from every meter, and nothing counted.
 *
 * @module meter/cases/input-validation
 */
import { expect } from 'vitest'
import { expectInvalid, type InvalidCode } from '../../_expect.js'
import { BAD_NAMES, DAY, expectInvalidLeavesZero, lastMonthStart, type MeterCase } from '../meter-kit.js'

/** The meter cases of this topic: input validation: the same TypeError from every meter, and nothing counted. */
export const inputValidationCases: readonly MeterCase[] = [
  {
    title: 'meter › consume rejects an invalid amount with a TypeError',
    async run({ meter, key, request }) {
      const k = key('invalid-amount')
      await expectInvalidLeavesZero(meter, k, [
        ['amount 0', () => meter.consume(request(k, { amount: 0 })), 'ERR_INVALID_ARG_VALUE'],
        ['amount -1', () => meter.consume(request(k, { amount: -1 })), 'ERR_INVALID_ARG_VALUE'],
        ['amount 1.5', () => meter.consume(request(k, { amount: 1.5 })), 'ERR_INVALID_ARG_VALUE'],
        ['amount NaN', () => meter.consume(request(k, { amount: Number.NaN })), 'ERR_INVALID_ARG_VALUE'],
        ['amount Infinity', () => meter.consume(request(k, { amount: Number.POSITIVE_INFINITY })), 'ERR_INVALID_ARG_VALUE'],
        ["amount '1'", () => meter.consume(request(k, { amount: '1' as unknown as number })), 'ERR_INVALID_ARG_TYPE'],
        ['amount missing', () => meter.consume(request(k, { amount: undefined as unknown as number })), 'ERR_INVALID_ARG_TYPE'],
      ])
    },
  },
  {
    title: 'meter › consume rejects an invalid limit with a TypeError',
    async run({ meter, key, request }) {
      const k = key('invalid-limit')
      await expectInvalidLeavesZero(meter, k, [
        ['limit -1', () => meter.consume(request(k, { limit: -1 })), 'ERR_INVALID_ARG_VALUE'],
        ['limit 2.5', () => meter.consume(request(k, { limit: 2.5 })), 'ERR_INVALID_ARG_VALUE'],
        ['limit NaN', () => meter.consume(request(k, { limit: Number.NaN })), 'ERR_INVALID_ARG_VALUE'],
        ["limit '10'", () => meter.consume(request(k, { limit: '10' as unknown as number })), 'ERR_INVALID_ARG_TYPE'],
      ])
    },
  },
  {
    title: 'meter › rejects an invalid subject, window or id with a TypeError',
    async run({ meter, key, request }) {
      const k = key('invalid-names')
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of BAD_NAMES) {
        const v = value as string
        cases.push(
          [`consume subject ${label}`, () => meter.consume(request(k, { subject: v })), code],
          [`consume window ${label}`, () => meter.consume(request(k, { window: v })), code],
          [`consume id ${label}`, () => meter.consume(request(k, { id: v })), code],
          [`refund subject ${label}`, () => meter.refund({ ...k, subject: v, id: 'x' }), code],
          [`refund window ${label}`, () => meter.refund({ ...k, window: v, id: 'x' }), code],
          [`refund id ${label}`, () => meter.refund({ ...k, id: v }), code],
          [`usage subject ${label}`, () => meter.usage({ ...k, subject: v }), code],
          [`usage window ${label}`, () => meter.usage({ ...k, window: v }), code],
        )
      }
      await expectInvalidLeavesZero(meter, k, cases)
      // The longest valid name is accepted.
      expect((await meter.consume(request(k, { id: 'x'.repeat(200) }))).granted).toBe(true)
    },
  },
  {
    title: 'meter › consume rejects an invalid expiresAt with a TypeError',
    async run({ meter, key, request }) {
      const k = key('invalid-expires')
      await expectInvalidLeavesZero(meter, k, [
        ['an invalid Date', () => meter.consume(request(k, { expiresAt: new Date(Number.NaN) })), 'ERR_INVALID_ARG_VALUE'],
        ['a string', () => meter.consume(request(k, { expiresAt: '2026-12-01' as unknown as Date })), 'ERR_INVALID_ARG_TYPE'],
        ['a number', () => meter.consume(request(k, { expiresAt: Date.now() as unknown as Date })), 'ERR_INVALID_ARG_TYPE'],
        ['missing', () => meter.consume(request(k, { expiresAt: undefined as unknown as Date })), 'ERR_INVALID_ARG_TYPE'],
      ])
    },
  },
  {
    title: 'meter › consume rejects an invalid at with a TypeError',
    async run({ meter, key, request }) {
      const k = key('invalid-at')
      await expectInvalidLeavesZero(meter, k, [
        ['an invalid Date', () => meter.consume(request(k, { at: new Date(Number.NaN) })), 'ERR_INVALID_ARG_VALUE'],
        ['a string', () => meter.consume(request(k, { at: '2026-11-23T14:00:00Z' as unknown as Date })), 'ERR_INVALID_ARG_TYPE'],
        ['a number', () => meter.consume(request(k, { at: Date.now() as unknown as Date })), 'ERR_INVALID_ARG_TYPE'],
        ['null', () => meter.consume(request(k, { at: null as unknown as Date })), 'ERR_INVALID_ARG_TYPE'],
      ])
      expect(await meter.history({ subject: k.subject, from: new Date(0), to: new Date(Date.now() + DAY) })).toEqual([])
    },
  },
  {
    title: 'meter › history rejects an invalid subject, from or to with a TypeError',
    async run({ meter, key }) {
      const { subject } = key('invalid-history')
      const from = new Date(lastMonthStart())
      const to = new Date(from.getTime() + DAY)
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const [label, value, code] of BAD_NAMES) cases.push([`subject ${label}`, () => meter.history({ subject: value as string, from, to }), code])
      const badDates: Array<[string, unknown, InvalidCode]> = [
        ['an invalid Date', new Date(Number.NaN), 'ERR_INVALID_ARG_VALUE'],
        ['a string', '2026-11-01T00:00:00Z', 'ERR_INVALID_ARG_TYPE'],
        ['a number', Date.now(), 'ERR_INVALID_ARG_TYPE'],
        ['missing', undefined, 'ERR_INVALID_ARG_TYPE'],
      ]
      for (const [label, value, code] of badDates) {
        cases.push([`from ${label}`, () => meter.history({ subject, from: value as Date, to }), code], [`to ${label}`, () => meter.history({ subject, from, to: value as Date }), code])
      }
      cases.push(
        ['to equal to from', () => meter.history({ subject, from, to: new Date(from.getTime()) }), 'ERR_INVALID_ARG_VALUE'],
        ['to before from', () => meter.history({ subject, from: to, to: from }), 'ERR_INVALID_ARG_VALUE'],
      )
      for (const value of [null, undefined, 'user-1', 1]) cases.push([`history(${String(value)})`, () => meter.history(value as never), 'ERR_INVALID_ARG_TYPE'])
      await expectInvalid(cases)
    },
  },
  {
    title: 'meter › rejects a request that is not an object with a TypeError',
    async run({ meter, key }) {
      const k = key('invalid-request')
      const cases: Array<[string, () => Promise<unknown>, InvalidCode]> = []
      for (const value of [null, undefined, 'user-1', 1]) {
        const v = value as never
        cases.push(
          [`consume(${String(value)})`, () => meter.consume(v), 'ERR_INVALID_ARG_TYPE'],
          [`refund(${String(value)})`, () => meter.refund(v), 'ERR_INVALID_ARG_TYPE'],
          [`usage(${String(value)})`, () => meter.usage(v), 'ERR_INVALID_ARG_TYPE'],
        )
      }
      await expectInvalidLeavesZero(meter, k, cases)
    },
  },
]
