/**
 * The cases of the meter conformance suite, as data: a stable title, the capability a case
 * needs, and a function that throws when the meter breaks the contract. `runMeterConformance`
 * registers them with vitest; keeping them as data lets a test run one case directly (the
 * control in `test/meter-conformance.test.ts` proves the concurrency case catches a racy meter).
 *
 * @module meter/meter-cases
 */
import type { ConsumeRequest, Meter, MeterCapabilities, MeterKey } from '@litho/core/contracts'
import { expect } from 'vitest'
import { expectInvalid, type InvalidCode } from '../_expect.js'

/** What a case gets: the suite's meter, the factory, and keys unique to this run. */
export interface MeterCaseContext {
  /** The meter created for the suite (disposed after the last case). */
  meter: Meter
  /** Creates another meter over the same storage; the case disposes it. */
  create: () => Promise<Meter>
  /** A key whose subject is unique to this run and `label` (window `w1` unless given). */
  key: (label: string, window?: string) => MeterKey
  /** A consume request on `key`: amount 1, limit 10, a fresh id, expiring in 10 minutes. */
  request: (key: MeterKey, fields?: Partial<ConsumeRequest>) => ConsumeRequest
}

/** One case of the suite. */
export interface MeterCase {
  /** Stable title, `meter › <behaviour>`; also the name to skip it by. */
  title: string
  /** The capability the case tests; it is skipped when the meter does not declare it. */
  needs?: keyof MeterCapabilities
  run: (context: MeterCaseContext) => Promise<void>
}

/** A prefix unique to one run, so runs against a shared Redis never see each other's keys. */
export function createRunPrefix(): string {
  return `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
}

/** Builds the per-run helpers of {@link MeterCaseContext}. */
export function createMeterCaseContext(meter: Meter, create: () => Meter | Promise<Meter>, prefix = createRunPrefix()): MeterCaseContext {
  let ids = 0
  return {
    meter,
    create: async () => create(),
    key: (label, window = 'w1') => ({ subject: `${prefix}.${label}`, window }),
    request: (key, fields = {}) => ({
      ...key,
      amount: 1,
      limit: 10,
      id: `${prefix}.id-${++ids}`,
      expiresAt: new Date(Date.now() + 10 * 60_000),
      ...fields,
    }),
  }
}

/** Every case, in the order they run. */
export const meterCases: readonly MeterCase[] = [
  // --- counting ---
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

  // --- independence ---
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

  // --- refunds ---
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

  // --- concurrency ---
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

  // --- persistence ---
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

  // --- input validation: the same TypeError from every meter, and nothing counted ---
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
      const bad: Array<[string, unknown, InvalidCode]> = [
        ['empty', '', 'ERR_INVALID_ARG_VALUE'],
        ['with a slash', 'a/b', 'ERR_INVALID_ARG_VALUE'],
        ['with a space', 'a b', 'ERR_INVALID_ARG_VALUE'],
        ['with a brace', 'a{b}', 'ERR_INVALID_ARG_VALUE'],
        ['non-ASCII', 'é', 'ERR_INVALID_ARG_VALUE'],
        ['of 201 characters', 'x'.repeat(201), 'ERR_INVALID_ARG_VALUE'],
        ['a number', 42, 'ERR_INVALID_ARG_TYPE'],
        ['missing', undefined, 'ERR_INVALID_ARG_TYPE'],
      ]
      for (const [label, value, code] of bad) {
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

// --- internal helpers ---

/** {@link expectInvalid}, and then `key` must still be at 0: a rejected call counts nothing. */
async function expectInvalidLeavesZero(meter: Meter, key: MeterKey, cases: Array<[label: string, call: () => Promise<unknown>, code: InvalidCode]>): Promise<void> {
  await expectInvalid(cases)
  expect(await meter.usage(key), 'usage after rejected calls').toBe(0)
}
