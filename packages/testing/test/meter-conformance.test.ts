// The meter suite checked against a deliberately naive meter: a read-modify-write on unstorage
// (get, compare, set), over a memory driver with latency like a real backend's. It passes the
// cases that do not race and must FAIL the concurrency cases, as the
// racy store of hono-rate-limiter PR #68 did (20 of 20 requests passed with limit 5).
import type { Meter } from '@litho/core/contracts'
import type { Storage } from 'unstorage'
import { describe, expect, it } from 'vitest'
import { runMeterConformance } from '../src/meter/index.js'
import { createMeterCaseContext, meterCases } from '../src/meter/meter-cases.js'
import { latencyStorage } from './_latency-storage.js'

const CONCURRENT_CONSUMES = 'meter › 200 concurrent consumes against a limit of 100 grant exactly 100'
const CONCURRENT_REFUNDS = 'meter › 100 concurrent refunds of one id give back once'
const RACES = 'the naive meter races on purpose; the control below shows the suite catches it'
const NO_VALIDATION = 'the naive meter does not validate input; the meters of @litho/storage-adapters do'

const storage = latencyStorage()
runMeterConformance({
  name: 'naive read-modify-write (control)',
  create: () => naiveMeter(storage),
  skip: {
    [CONCURRENT_CONSUMES]: RACES,
    [CONCURRENT_REFUNDS]: RACES,
    'meter › concurrent consumes and refunds keep usage exact': RACES,
    'meter › concurrent consumes and refunds keep the history exact': RACES,
    'meter › consume rejects an invalid amount with a TypeError': NO_VALIDATION,
    'meter › consume rejects an invalid limit with a TypeError': NO_VALIDATION,
    'meter › rejects an invalid subject, window or id with a TypeError': NO_VALIDATION,
    'meter › consume rejects an invalid expiresAt with a TypeError': NO_VALIDATION,
    'meter › rejects a request that is not an object with a TypeError': NO_VALIDATION,
    'meter › consume rejects an invalid at with a TypeError': NO_VALIDATION,
    'meter › history rejects an invalid subject, from or to with a TypeError': NO_VALIDATION,
  },
})

describe('meter conformance › control', () => {
  const caseTitled = (title: string) => {
    const found = meterCases.find((c) => c.title === title)
    if (!found) throw new Error(`no case ${title}`)
    return found
  }

  it('the concurrency case fails for a read-modify-write meter', async () => {
    const meter = naiveMeter(latencyStorage())
    await expect(caseTitled(CONCURRENT_CONSUMES).run(createMeterCaseContext(meter, () => meter))).rejects.toThrow(/granted \d+ of 200 against a limit of 100/)
  })

  it('the concurrent refund case fails for a read-modify-write meter', async () => {
    const meter = naiveMeter(latencyStorage())
    await expect(caseTitled(CONCURRENT_REFUNDS).run(createMeterCaseContext(meter, () => meter))).rejects.toThrow(/of 100 refunds returned true/)
  })

  it('a read-modify-write meter over-grants (measured directly)', async () => {
    const meter = naiveMeter(latencyStorage())
    const key = { subject: 'user-1', window: '2026-11' }
    const expiresAt = new Date(Date.now() + 60_000)
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) => meter.consume({ ...key, amount: 1, limit: 100, id: `r${index}`, expiresAt })),
    )
    const granted = results.filter((result) => result.granted).length
    // Every consume reads before any writes land, so (nearly) all are granted, and the counter
    // itself loses updates: it ends far below the number granted.
    expect(granted).toBeGreaterThan(100)
    expect(await meter.usage(key)).toBeLessThan(granted)
  })

  it('runMeterConformance refuses to skip a case that does not exist', () => {
    expect(() => runMeterConformance({ name: 'x', create: () => naiveMeter(latencyStorage()), skip: { 'meter › no such case': 'typo' } })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' }),
    )
  })

  it('runMeterConformance refuses a skip without a reason', () => {
    expect(() => runMeterConformance({ name: 'x', create: () => naiveMeter(latencyStorage()), skip: { [CONCURRENT_CONSUMES]: ' ' } })).toThrow(/Expected a reason/)
  })
})

// --- the naive meter ---

/**
 * WRONG on purpose: reads the counter, compares, writes it back, with awaits in between. Its
 * usage history is read-modify-write too (hours under `hist:`), and exact when nothing races.
 */
function naiveMeter(storage: Storage): Meter {
  // Encoding ':' (unstorage's separator) and '.' (it refuses '..' segments) keeps keys apart.
  const encode = (value: string) => encodeURIComponent(value).replace(/\./g, '%2E')
  const usageKey = (k: { subject: string; window: string }) => `${encode(k.subject)}:${encode(k.window)}:usage`
  const idKey = (k: { subject: string; window: string }, id: string) => `${encode(k.subject)}:${encode(k.window)}:ids:${encode(id)}`
  const hourOfIdKey = (k: { subject: string; window: string }, id: string) => `${encode(k.subject)}:${encode(k.window)}:hours:${encode(id)}`
  // A subject named `hist` shares the prefix, but its last segments are not numbers: history skips them.
  const hourKey = (subject: string, hour: number) => `hist:${encode(subject)}:${hour}`
  const read = async (key: string) => Number((await storage.getItem<number>(key)) ?? 0)
  const HOUR = 3_600_000
  return {
    name: 'naive',
    // Persistent over the one storage object every instance shares; not `shared`, or the
    // sharing cases would fail for the same reason as the concurrency ones.
    capabilities: { persistent: true, shared: false },
    async consume(request) {
      const usage = await read(usageKey(request))
      if (usage + request.amount > request.limit) return { granted: false, usage }
      await storage.setItem(usageKey(request), usage + request.amount)
      const hour = Math.floor((request.at ?? new Date()).getTime() / HOUR) * HOUR
      await storage.setItem(hourKey(request.subject, hour), (await read(hourKey(request.subject, hour))) + request.amount)
      await storage.setItem(hourOfIdKey(request, request.id), hour)
      await storage.setItem(idKey(request, request.id), request.amount)
      return { granted: true, usage: usage + request.amount }
    },
    async refund(request) {
      const amount = await storage.getItem<number>(idKey(request, request.id))
      if (amount === null) return false
      await storage.removeItem(idKey(request, request.id))
      await storage.setItem(usageKey(request), (await read(usageKey(request))) - Number(amount))
      const hour = await storage.getItem<number>(hourOfIdKey(request, request.id))
      if (hour !== null) {
        const left = (await read(hourKey(request.subject, Number(hour)))) - Number(amount)
        if (left > 0) await storage.setItem(hourKey(request.subject, Number(hour)), left)
        else await storage.removeItem(hourKey(request.subject, Number(hour)))
      }
      return true
    },
    usage: (key) => read(usageKey(key)),
    async history({ subject, from, to }) {
      const first = Math.floor(from.getTime() / HOUR) * HOUR
      const prefix = `hist:${encode(subject)}:`
      const hours = (await storage.getKeys(prefix)).map((key) => Number(key.slice(prefix.length))).filter((hour) => hour >= first && hour < to.getTime())
      const counts = await Promise.all(hours.map(async (hour) => ({ hour, count: await read(hourKey(subject, hour)) })))
      return counts
        .filter(({ count }) => count > 0)
        .sort((a, b) => a.hour - b.hour)
        .map(({ hour, count }) => ({ hour: new Date(hour).toISOString(), count }))
    },
  }
}

