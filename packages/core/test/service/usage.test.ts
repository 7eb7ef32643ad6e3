import { memoryMeter } from '@litho/storage-adapters/memory'
import { describe, expect, it } from 'vitest'
import {
  MAX_USAGE_BUCKETS,
  UsageParamsSchema,
  UsageResponseSchema,
  bucketEnd,
  bucketStart,
  countBuckets,
  getUsage,
  listBuckets,
  parseInstant,
  parseUsageParams,
  type UsageGroupBy,
} from '../../src/index.js'
import { historyMeter, rejection } from './helpers.js'

const d = (iso: string) => new Date(iso)
const iso = (date: Date) => date.toISOString()
const NOW = d('2026-11-23T14:23:45.678Z') // a Monday
const account = { id: 'u_alice' }

describe('parseInstant', () => {
  it.each([
    ['2026-11-23T10:00:00Z', '2026-11-23T10:00:00.000Z'],
    ['2026-11-23T10:00:00.5Z', '2026-11-23T10:00:00.500Z'],
    ['2026-11-23T10:00:00.123456789Z', '2026-11-23T10:00:00.123Z'],
    ['2026-11-23T10:00:00+02:00', '2026-11-23T08:00:00.000Z'],
    ['2026-11-23T10:00:00-0530', '2026-11-23T15:30:00.000Z'],
    ['2026-11-23T10:00Z', '2026-11-23T10:00:00.000Z'],
    ['2026-11-23T10:00:00', '2026-11-23T10:00:00.000Z'],
    ['2026-11-23', '2026-11-23T00:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0050-01-01T00:00:00Z', '0050-01-01T00:00:00.000Z'],
  ])('usage › reads %s as UTC %s', (text, expected) => {
    expect(parseInstant(text)?.toISOString()).toBe(expected)
  })

  it.each(['', 'yesterday', '1700000000', '2026-02-29', '2026-13-01T00:00:00Z', '2026-11-31T00:00:00Z', '2026-11-23T24:00:00Z', '2026-11-23T10:60:00Z', '2026-11-23T10:00:00+25:00', '26-11-23'])(
    'usage › rejects %j',
    (text) => {
      expect(parseInstant(text)).toBeNull()
    },
  )
})

describe('bucket math', () => {
  it('usage › bucketStart for each groupBy (UTC)', () => {
    const t = d('2026-11-25T14:23:45.678Z') // a Wednesday
    expect(iso(bucketStart(t, 'hour'))).toBe('2026-11-25T14:00:00.000Z')
    expect(iso(bucketStart(t, 'day'))).toBe('2026-11-25T00:00:00.000Z')
    expect(iso(bucketStart(t, 'week'))).toBe('2026-11-23T00:00:00.000Z')
    expect(iso(bucketStart(t, 'month'))).toBe('2026-11-01T00:00:00.000Z')
    expect(iso(bucketStart(t, 'year'))).toBe('2026-01-01T00:00:00.000Z')
  })

  it('usage › weeks start Monday 00:00 UTC, also across a year boundary and on the edges', () => {
    expect(iso(bucketStart(d('2026-01-01T12:00:00Z'), 'week'))).toBe('2025-12-29T00:00:00.000Z') // Thursday → Monday of the previous year
    expect(iso(bucketStart(d('2026-11-22T23:59:59.999Z'), 'week'))).toBe('2026-11-16T00:00:00.000Z') // Sunday night
    expect(iso(bucketStart(d('2026-11-23T00:00:00Z'), 'week'))).toBe('2026-11-23T00:00:00.000Z') // Monday midnight is its own week
    expect(iso(bucketEnd(d('2026-11-22T23:59:59.999Z'), 'week'))).toBe('2026-11-23T00:00:00.000Z')
    expect(iso(bucketStart(d('1970-01-01T00:00:00Z'), 'week'))).toBe('1969-12-29T00:00:00.000Z') // before the epoch
  })

  it('usage › DST dates change nothing: days are 24 h in UTC', () => {
    // 2026-03-29 and 2026-10-25 are European DST switches.
    expect(iso(bucketEnd(d('2026-03-29T01:30:00Z'), 'day'))).toBe('2026-03-30T00:00:00.000Z')
    expect(countBuckets(d('2026-10-25T00:00:00Z'), d('2026-10-26T00:00:00Z'), 'hour')).toBe(24)
  })

  it('usage › bucketEnd rolls over months and years', () => {
    expect(iso(bucketEnd(d('2026-12-31T23:59:59.999Z'), 'hour'))).toBe('2027-01-01T00:00:00.000Z')
    expect(iso(bucketEnd(d('2026-12-31T23:00:00Z'), 'day'))).toBe('2027-01-01T00:00:00.000Z')
    expect(iso(bucketEnd(d('2026-12-15T00:00:00Z'), 'month'))).toBe('2027-01-01T00:00:00.000Z')
    expect(iso(bucketEnd(d('2024-02-10T00:00:00Z'), 'month'))).toBe('2024-03-01T00:00:00.000Z')
    expect(iso(bucketEnd(d('2026-06-01T00:00:00Z'), 'year'))).toBe('2027-01-01T00:00:00.000Z')
  })

  it.each<[string, string, UsageGroupBy, number]>([
    ['2026-11-01T00:00:00Z', '2026-11-08T00:00:00Z', 'day', 7], // end on a boundary: that day is not included
    ['2026-11-01T00:00:00Z', '2026-11-08T00:00:01Z', 'day', 8],
    ['2026-11-23T10:30:00Z', '2026-11-23T12:00:00Z', 'hour', 2],
    ['2026-11-23T10:30:00Z', '2026-11-23T10:31:00Z', 'hour', 1],
    ['2026-11-22T00:00:00Z', '2026-11-24T00:00:00Z', 'week', 2], // Sunday to Tuesday spans two ISO weeks
    ['2026-12-30T00:00:00Z', '2027-01-02T00:00:00Z', 'week', 1], // one ISO week across the year boundary
    ['2026-11-15T00:00:00Z', '2027-02-01T00:00:00Z', 'month', 3],
    ['2026-11-15T00:00:00Z', '2027-02-01T00:00:01Z', 'month', 4],
    ['2025-06-01T00:00:00Z', '2027-01-01T00:00:00Z', 'year', 2],
    ['2026-11-23T00:00:00Z', '2026-11-23T00:00:00Z', 'day', 0],
  ])('usage › countBuckets %s → %s by %s is %i', (start, end, groupBy, count) => {
    expect(countBuckets(d(start), d(end), groupBy)).toBe(count)
    expect(listBuckets(d(start), d(end), groupBy)).toHaveLength(count)
  })

  it('usage › listBuckets is contiguous with full boundaries', () => {
    const buckets = listBuckets(d('2026-11-15T12:00:00Z'), d('2027-02-01T00:00:01Z'), 'month')
    expect(buckets.map((b) => [iso(b.start), iso(b.end)])).toEqual([
      ['2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
      ['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
      ['2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
      ['2027-02-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z'],
    ])
    expect(() => listBuckets(d('2026-01-01T00:00:00Z'), d('2026-03-01T00:00:00Z'), 'hour')).toThrow(RangeError)
  })
})

describe('parseUsageParams', () => {
  it('usage › defaults: end now, start 7 days before end, groupBy day', () => {
    expect(parseUsageParams(new URLSearchParams(), NOW)).toEqual({ start: d('2026-11-16T14:23:45.678Z'), end: NOW, groupBy: 'day' })
    expect(parseUsageParams(new URLSearchParams('end=2026-01-08T00:00:00Z'), NOW)).toEqual({ start: d('2026-01-01T00:00:00Z'), end: d('2026-01-08T00:00:00Z'), groupBy: 'day' })
    expect(parseUsageParams(new URLSearchParams('start=2026-11-01&groupBy=week'), NOW)).toEqual({ start: d('2026-11-01T00:00:00Z'), end: NOW, groupBy: 'week' })
  })

  it.each([
    ['start=yesterday', 'start', 'expected an ISO 8601 date-time such as 2026-11-23T00:00:00Z, received "yesterday"'],
    ['end=2026-02-30T00:00:00Z', 'end', 'expected an ISO 8601 date-time such as 2026-11-23T00:00:00Z, received "2026-02-30T00:00:00Z"'],
    ['groupBy=minute', 'groupBy', 'expected one of hour, day, week, month, year, received "minute"'],
    ['groupBy=day&groupBy=hour', 'groupBy', 'expected one value, received 2'],
  ])('usage › %s is ERR_INVALID_REQUEST naming the parameter', async (query, path, message) => {
    const error = await rejection(() => parseUsageParams(new URLSearchParams(query), NOW))
    expect(error.code).toBe('ERR_INVALID_REQUEST')
    expect(error.issues).toEqual([{ path, message }])
  })

  it('usage › start not before end names start', async () => {
    const same = await rejection(() => parseUsageParams(new URLSearchParams('start=2026-11-01T00:00:00Z&end=2026-11-01T00:00:00Z'), NOW))
    expect(same.issues).toEqual([{ path: 'start', message: 'expected a date-time before end (2026-11-01T00:00:00.000Z), received "2026-11-01T00:00:00Z"' }])
    const future = await rejection(() => parseUsageParams(new URLSearchParams('start=2027-01-01T00:00:00Z'), NOW))
    expect(future.issues[0]).toMatchObject({ path: 'start' })
    expect(future.issues[0]?.message).toContain('now, 2026-11-23T14:23:45.678Z')
  })

  it('usage › too many buckets names groupBy and says what to do', async () => {
    // 1000 hours is the most: 41 days and 16 hours.
    expect(parseUsageParams(new URLSearchParams('start=2026-01-01T00:00:00Z&end=2026-02-11T16:00:00Z&groupBy=hour'), NOW).groupBy).toBe('hour')
    const error = await rejection(() => parseUsageParams(new URLSearchParams('start=2026-01-01T00:00:00Z&end=2026-02-11T16:00:01Z&groupBy=hour'), NOW))
    expect(error.code).toBe('ERR_INVALID_REQUEST')
    expect(error.issues[0]?.path).toBe('groupBy')
    expect(error.issues[0]?.message).toContain(`1001 buckets, more than ${MAX_USAGE_BUCKETS}`)
    expect(error.issues[0]?.message).toContain('coarser groupBy or a shorter range')
    // The same range by day is fine.
    expect(parseUsageParams(new URLSearchParams('start=2026-01-01T00:00:00Z&end=2026-02-11T16:00:01Z'), NOW).groupBy).toBe('day')
  })

  it('usage › the schema documents formats and defaults', () => {
    const json = UsageParamsSchema.toJSONSchema({ io: 'input' }) as { properties: Record<string, Record<string, unknown>> }
    expect(json.properties.start).toMatchObject({ type: 'string', format: 'date-time' })
    expect(json.properties.end).toMatchObject({ type: 'string', format: 'date-time' })
    expect(json.properties.groupBy).toMatchObject({ enum: ['hour', 'day', 'week', 'month', 'year'], default: 'day' })
  })
})

describe('getUsage', () => {
  const hours = {
    u_alice: [
      { hour: '2026-11-16T09:00:00.000Z', count: 4 }, // before the range
      { hour: '2026-11-17T10:00:00.000Z', count: 2 },
      { hour: '2026-11-17T23:00:00.000Z', count: 1 },
      { hour: '2026-11-20T00:00:00.000Z', count: 5 },
      { hour: '2026-11-23T14:00:00.000Z', count: 3 },
      { hour: '2026-11-23T15:00:00.000Z', count: 7 }, // after the range
    ],
    u_bob: [{ hour: '2026-11-18T10:00:00.000Z', count: 100 }],
  }

  it('usage › day buckets: complete series with zeros, counts summed per bucket, meter asked for the range', async () => {
    const meter = historyMeter(hours)
    const start = d('2026-11-17T00:00:00Z')
    const end = d('2026-11-23T14:30:00Z')
    const usage = await getUsage({ meter }, { account, start, end, groupBy: 'day' })
    expect(UsageResponseSchema.parse(usage)).toEqual(usage)
    expect(meter.requests).toEqual([{ subject: 'u_alice', from: start, to: end }])
    expect(usage).toMatchObject({ success: true, groupBy: 'day', start: '2026-11-17T00:00:00.000Z', end: '2026-11-23T14:30:00.000Z', total: 11 })
    expect(usage.buckets.map((b) => [b.start.slice(0, 10), b.count])).toEqual([
      ['2026-11-17', 3],
      ['2026-11-18', 0],
      ['2026-11-19', 0],
      ['2026-11-20', 5],
      ['2026-11-21', 0],
      ['2026-11-22', 0],
      ['2026-11-23', 3],
    ])
    expect(usage.buckets[0]).toEqual({ start: '2026-11-17T00:00:00.000Z', end: '2026-11-18T00:00:00.000Z', count: 3 })
  })

  it('usage › hour buckets', async () => {
    const usage = await getUsage({ meter: historyMeter(hours) }, { account, start: d('2026-11-17T09:30:00Z'), end: d('2026-11-17T12:00:00Z'), groupBy: 'hour' })
    expect(usage.buckets).toEqual([
      { start: '2026-11-17T09:00:00.000Z', end: '2026-11-17T10:00:00.000Z', count: 0 },
      { start: '2026-11-17T10:00:00.000Z', end: '2026-11-17T11:00:00.000Z', count: 2 },
      { start: '2026-11-17T11:00:00.000Z', end: '2026-11-17T12:00:00.000Z', count: 0 },
    ])
    expect(usage.total).toBe(2)
  })

  it('usage › week buckets start on Monday', async () => {
    const usage = await getUsage({ meter: historyMeter(hours) }, { account, start: d('2026-11-10T00:00:00Z'), end: d('2026-11-24T00:00:00Z'), groupBy: 'week' })
    expect(usage.buckets).toEqual([
      { start: '2026-11-09T00:00:00.000Z', end: '2026-11-16T00:00:00.000Z', count: 0 },
      { start: '2026-11-16T00:00:00.000Z', end: '2026-11-23T00:00:00.000Z', count: 12 },
      { start: '2026-11-23T00:00:00.000Z', end: '2026-11-30T00:00:00.000Z', count: 10 },
    ])
    expect(usage.total).toBe(22)
  })

  it('usage › month and year buckets across a year boundary', async () => {
    const meter = historyMeter({
      u_alice: [
        { hour: '2025-12-31T23:00:00.000Z', count: 1 },
        { hour: '2026-01-01T00:00:00.000Z', count: 2 },
        { hour: '2026-03-15T12:00:00.000Z', count: 4 },
      ],
    })
    const byMonth = await getUsage({ meter }, { account, start: d('2025-12-01T00:00:00Z'), end: d('2026-04-01T00:00:00Z'), groupBy: 'month' })
    expect(byMonth.buckets.map((b) => [b.start.slice(0, 7), b.count])).toEqual([
      ['2025-12', 1],
      ['2026-01', 2],
      ['2026-02', 0],
      ['2026-03', 4],
    ])
    const byYear = await getUsage({ meter }, { account, start: d('2025-12-31T23:30:00Z'), end: d('2026-01-01T01:00:00Z'), groupBy: 'year' })
    expect(byYear.buckets).toEqual([
      { start: '2025-01-01T00:00:00.000Z', end: '2026-01-01T00:00:00.000Z', count: 1 },
      { start: '2026-01-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z', count: 2 },
    ])
    expect(byYear.total).toBe(3)
  })

  it('usage › no history is a series of zeros', async () => {
    const usage = await getUsage({ meter: historyMeter({}) }, { account, start: d('2026-11-01T00:00:00Z'), end: d('2026-11-04T00:00:00Z'), groupBy: 'day' })
    expect(usage.total).toBe(0)
    expect(usage.buckets.map((b) => b.count)).toEqual([0, 0, 0])
  })

  it("usage › hours a meter returns outside the range are not counted; other accounts' never are", async () => {
    const sloppy = { history: async () => hours.u_alice, usage: async () => 0 } // ignores from/to
    const usage = await getUsage({ meter: sloppy }, { account, start: d('2026-11-17T00:00:00Z'), end: d('2026-11-23T14:30:00Z'), groupBy: 'week' })
    expect(usage.total).toBe(11)
    const bob = await getUsage({ meter: historyMeter(hours) }, { account, start: d('2026-11-18T00:00:00Z'), end: d('2026-11-19T00:00:00Z'), groupBy: 'day' })
    expect(bob.total).toBe(0)
  })

  it('usage › rejects a bad range from direct callers', async () => {
    const meter = historyMeter({})
    expect((await rejection(getUsage({ meter }, { account, start: NOW, end: NOW, groupBy: 'day' }))).issues[0]?.path).toBe('start')
    expect((await rejection(getUsage({ meter }, { account, start: d('2020-01-01T00:00:00Z'), end: NOW, groupBy: 'hour' }))).issues[0]?.path).toBe('groupBy')
    expect((await rejection(getUsage({ meter }, { account, start: d('nope'), end: NOW, groupBy: 'day' }))).issues[0]?.path).toBe('start')
    expect(meter.requests).toEqual([])
  })

  it('usage › over the memory meter: consumes in their hours, refunds taken out', async () => {
    const meter = memoryMeter()
    const today = bucketStart(new Date(), 'day').getTime()
    const at = (hoursAfterMidnight: number) => new Date(today + hoursAfterMidnight * 3_600_000 - 2 * 86_400_000) // two days ago
    const base = { subject: 'u_alice', window: 'w', amount: 1, limit: 100, expiresAt: new Date(Date.now() + 86_400_000) }
    for (const [id, hour] of [['r1', 9], ['r2', 9], ['r3', 13], ['r4', 30]] as const) await meter.consume({ ...base, id, at: at(hour) })
    await meter.consume({ ...base, subject: 'u_bob', id: 'b1', at: at(9) })
    await meter.refund({ subject: 'u_alice', window: 'w', id: 'r2' })
    const usage = await getUsage({ meter }, { account, start: new Date(today - 3 * 86_400_000), end: new Date(today), groupBy: 'day' })
    expect(usage.buckets.map((b) => b.count)).toEqual([0, 2, 1])
    expect(usage.total).toBe(3)
  })
})
