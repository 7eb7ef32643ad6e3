import { describe, expect, it } from 'vitest'
import type { Meter } from '../../src/contracts/index.js'
import { LithoError, PLANS, meterRenders, quotaWindow, refundRenders, secondsUntil, toQuotaErrorBody } from '../../src/index.js'

const HOUR_MS = 3_600_000

/** An exact in-memory meter: every method runs to completion without awaiting, so it is atomic. */
function testMeter(): Meter & { calls: string[] } {
  const usage = new Map<string, number>()
  const ids = new Map<string, { amount: number; hour: string }>()
  /** `<subject>|<hour ISO>` → net units of that UTC hour. */
  const hours = new Map<string, number>()
  const calls: string[] = []
  const addToHour = (key: string, delta: number) => {
    const count = (hours.get(key) ?? 0) + delta
    if (count > 0) hours.set(key, count)
    else hours.delete(key)
  }
  return {
    name: 'test',
    capabilities: { persistent: false, shared: false },
    calls,
    async consume({ subject, window, amount, limit, id, at = new Date() }) {
      calls.push(`consume ${subject} ${window} ${amount}/${limit}`)
      const key = `${subject}|${window}`
      const current = usage.get(key) ?? 0
      if (current + amount > limit) return { granted: false, usage: current }
      usage.set(key, current + amount)
      const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString()
      ids.set(`${key}|${id}`, { amount, hour })
      addToHour(`${subject}|${hour}`, amount)
      return { granted: true, usage: current + amount }
    },
    async refund({ subject, window, id }) {
      const key = `${subject}|${window}`
      const consumption = ids.get(`${key}|${id}`)
      if (consumption === undefined) return false
      ids.delete(`${key}|${id}`)
      usage.set(key, (usage.get(key) ?? 0) - consumption.amount)
      addToHour(`${subject}|${consumption.hour}`, -consumption.amount)
      return true
    },
    async usage({ subject, window }) {
      return usage.get(`${subject}|${window}`) ?? 0
    },
    async history({ subject, from, to }) {
      const first = Math.floor(from.getTime() / HOUR_MS) * HOUR_MS
      return [...hours]
        .map(([key, count]) => ({ subject: key.slice(0, key.lastIndexOf('|')), hour: key.slice(key.lastIndexOf('|') + 1), count }))
        .filter((entry) => entry.subject === subject && Date.parse(entry.hour) >= first && Date.parse(entry.hour) < to.getTime())
        .sort((a, b) => Date.parse(a.hour) - Date.parse(b.hour))
        .map(({ hour, count }) => ({ hour, count }))
    },
  }
}

describe('quota window', () => {
  it('quota › the window is the calendar month in UTC', () => {
    const w = quotaWindow(new Date('2026-11-23T08:00:00Z'))
    expect([w.id, w.start.toISOString(), w.resetAt.toISOString()]).toEqual(['2026-11', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'])
  })

  it('quota › the last tenth of a second of a month belongs to it; the next instant to the next one', () => {
    expect(quotaWindow(new Date('2026-11-30T23:59:59.900Z')).id).toBe('2026-11')
    expect(quotaWindow(new Date('2026-12-01T00:00:00.000Z')).id).toBe('2026-12')
    expect(quotaWindow(new Date('2026-12-31T23:59:59.999Z')).resetAt.toISOString()).toBe('2027-01-01T00:00:00.000Z')
  })

  it('quota › Retry-After is whole seconds to the reset, at least 1', () => {
    const resetAt = new Date('2026-12-01T00:00:00Z')
    expect(secondsUntil(resetAt, new Date('2026-11-30T23:59:59.900Z'))).toBe(1)
    expect(secondsUntil(resetAt, new Date('2026-11-30T23:58:00Z'))).toBe(120)
    expect(secondsUntil(resetAt, new Date('2026-12-01T00:00:05Z'))).toBe(1)
  })
})

describe('meterRenders', () => {
  const now = new Date('2026-11-23T08:00:00Z')

  it('quota › the plans of the interface', () => {
    expect(Object.values(PLANS).map((p) => [p.id, p.renders])).toEqual([
      ['free', 100],
      ['basic', 1000],
      ['pro', 10000],
      ['unlimited', 100000],
    ])
  })

  it('quota › a render takes one unit of the plan limit in the current window', async () => {
    const meter = testMeter()
    const grant = await meterRenders(meter, { subject: 'u1', plan: 'free', id: 'r1', now })
    expect(grant).toMatchObject({ window: '2026-11', usage: 1, limit: 100, remaining: 99 })
    expect(meter.calls).toEqual(['consume u1 2026-11 1/100'])
  })

  it('quota › the 101st render of a free account is refused with the QuotaError details', async () => {
    const meter = testMeter()
    for (let i = 0; i < 100; i++) await meterRenders(meter, { subject: 'u1', plan: 'free', id: `r${i}`, now })
    const error = await meterRenders(meter, { subject: 'u1', plan: 'free', id: 'r100', now }).catch((e: unknown) => e)
    expect(LithoError.isInstance(error) && error.code).toBe('ERR_QUOTA_EXCEEDED')
    const e = error as LithoError
    expect(e.details).toEqual({ usage: 100, limit: 100, remaining: 0, resetAt: '2026-12-01T00:00:00.000Z', retryAfterSeconds: 662400 })
    expect(toQuotaErrorBody(e)).toEqual({ success: false, message: e.message, data: { usage: 100, limit: 100, remaining: 0, resetAt: '2026-12-01T00:00:00.000Z' } })
    expect(e.message).toContain('free plan (100 a month) is used up')
  })

  it('quota › a bulk of N takes N, all or nothing', async () => {
    const meter = testMeter()
    await meterRenders(meter, { subject: 'u1', plan: 'free', amount: 95, id: 'bulk1', now })
    await expect(meterRenders(meter, { subject: 'u1', plan: 'free', amount: 10, id: 'bulk2', now })).rejects.toMatchObject({ code: 'ERR_QUOTA_EXCEEDED' })
    expect(await meter.usage({ subject: 'u1', window: '2026-11' })).toBe(95)
  })

  it('quota › a refund gives the render back once', async () => {
    const meter = testMeter()
    const grant = await meterRenders(meter, { subject: 'u1', plan: 'basic', id: 'r1', now })
    expect(await refundRenders(meter, grant)).toBe(true)
    expect(await refundRenders(meter, grant)).toBe(false)
    expect(await meter.usage({ subject: 'u1', window: '2026-11' })).toBe(0)
  })

  it("quota › renders are recorded in the usage history at the service clock's hour", async () => {
    const meter = testMeter()
    await meterRenders(meter, { subject: 'u1', plan: 'free', amount: 2, id: 'r1', now: new Date('2026-11-23T08:59:59.999Z') })
    const grant = await meterRenders(meter, { subject: 'u1', plan: 'free', id: 'r2', now: new Date('2026-11-23T09:00:00.000Z') })
    const range = { subject: 'u1', from: new Date('2026-11-23T00:00:00Z'), to: new Date('2026-11-24T00:00:00Z') }
    expect(await meter.history(range)).toEqual([
      { hour: '2026-11-23T08:00:00.000Z', count: 2 },
      { hour: '2026-11-23T09:00:00.000Z', count: 1 },
    ])
    await refundRenders(meter, grant)
    expect(await meter.history(range)).toEqual([{ hour: '2026-11-23T08:00:00.000Z', count: 2 }])
  })

  it('quota › a new month starts from zero', async () => {
    const meter = testMeter()
    for (let i = 0; i < 100; i++) await meterRenders(meter, { subject: 'u1', plan: 'free', id: `r${i}`, now: new Date('2026-11-30T23:59:59.900Z') })
    const grant = await meterRenders(meter, { subject: 'u1', plan: 'free', id: 'next', now: new Date('2026-12-01T00:00:00.000Z') })
    expect([grant.window, grant.usage]).toEqual(['2026-12', 1])
  })
})
