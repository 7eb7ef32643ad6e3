/**
 * The cases of the meter conformance suite, as data: a stable title, the capability a case
 * needs, and a function that throws when the meter breaks the contract. `runMeterConformance`
 * registers them with vitest; keeping them as data lets a test run one case directly (the
 * control in `test/meter-conformance.test.ts` proves the concurrency case catches a racy meter).
 *
 * @module meter/meter-cases
 */
import type { ConsumeRequest, Meter, MeterCapabilities, MeterKey, UsageHour } from '@litho/core/contracts'
import { expect } from 'vitest'
import { eventually, expectInvalid, type InvalidCode } from '../_expect.js'

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
  /** The optional method the case tests; it is skipped when the meter does not have it. */
  needsMethod?: 'sweep'
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

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * The first instant of the UTC month before the current one. History cases count at instants
 * around it, so they cross a month (a meter may store history by month) and stay well within
 * the 400 days meters keep hours, whenever the suite runs.
 */
function lastMonthStart(): number {
  const now = new Date()
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)
}

/** The `hour` of a {@link UsageHour}: the ISO string of the hour's first instant. */
function hourOf(ms: number): string {
  return new Date(Math.floor(ms / HOUR) * HOUR).toISOString()
}

/** Every case, in the order they run. */
/** Subjects, windows and ids outside `[A-Za-z0-9_.:-]{1,200}`, with the code each must reject with. */
const BAD_NAMES: ReadonlyArray<[string, unknown, InvalidCode]> = [
  ['empty', '', 'ERR_INVALID_ARG_VALUE'],
  ['with a slash', 'a/b', 'ERR_INVALID_ARG_VALUE'],
  ['with a space', 'a b', 'ERR_INVALID_ARG_VALUE'],
  ['with a brace', 'a{b}', 'ERR_INVALID_ARG_VALUE'],
  ['non-ASCII', 'é', 'ERR_INVALID_ARG_VALUE'],
  ['of 201 characters', 'x'.repeat(201), 'ERR_INVALID_ARG_VALUE'],
  ['a number', 42, 'ERR_INVALID_ARG_TYPE'],
  ['missing', undefined, 'ERR_INVALID_ARG_TYPE'],
]

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

  // --- usage history ---
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

  // --- windows that never end, and sweeping ---
  {
    title: 'meter › a window that never ends (expiresAt 9999-01-01) counts amounts up to 2^53 - 1 exactly, and refunds them',
    async run({ meter, key, request }) {
      // How the service counts stored bytes, designs and keys (quota/meter-storage, quota/owned-count).
      const k = key('forever', 'bytes')
      const forever = new Date(Date.UTC(9999, 0, 1))
      const big = request(k, { amount: 10_000_000_007, limit: Number.MAX_SAFE_INTEGER, expiresAt: forever })
      expect(await meter.consume(big)).toEqual({ granted: true, usage: 10_000_000_007 })
      expect(await meter.consume(request(k, { amount: 1, limit: 10_000_000_007, expiresAt: forever })), 'exactly at the limit').toEqual({ granted: false, usage: 10_000_000_007 })
      const rest = Number.MAX_SAFE_INTEGER - 10_000_000_007
      expect(await meter.consume(request(k, { amount: rest, limit: Number.MAX_SAFE_INTEGER, expiresAt: forever }))).toEqual({ granted: true, usage: Number.MAX_SAFE_INTEGER })
      expect(await meter.refund({ ...k, id: big.id })).toBe(true)
      expect(await meter.usage(k)).toBe(rest)
    },
  },
  {
    title: 'meter › sweep forgets the windows past their expiry and grace, and keeps the others',
    needsMethod: 'sweep',
    async run({ meter, key, request }) {
      const now = Date.now()
      // Ended 500 days ago: past any grace period a meter keeps (the history is kept apart).
      const old = key('sweep-old', 'sweep-old')
      const live = key('sweep-live', 'sweep-live')
      const gone = request(old, { amount: 2, expiresAt: new Date(now - 500 * DAY) })
      await meter.consume(gone)
      await meter.consume(request(live, { amount: 3 }))
      expect(await meter.sweep!(new Date(now))).toBeGreaterThanOrEqual(1)
      expect(await meter.usage(old), 'the old window is forgotten').toBe(0)
      expect(await meter.refund({ ...old, id: gone.id }), 'and its ids').toBe(false)
      expect(await meter.usage(live)).toBe(3)
      await expect(meter.sweep!(new Date(Number.NaN)), 'an invalid now').rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' })
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

// --- internal helpers ---

/** {@link expectInvalid}, and then `key` must still be at 0: a rejected call counts nothing. */
async function expectInvalidLeavesZero(meter: Meter, key: MeterKey, cases: Array<[label: string, call: () => Promise<unknown>, code: InvalidCode]>): Promise<void> {
  await expectInvalid(cases)
  expect(await meter.usage(key), 'usage after rejected calls').toBe(0)
}
