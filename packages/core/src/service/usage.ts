/**
 * The analytics endpoint `GET /analytics/api` (bearer; docs/authentication.md): the account's render
 * counts over a time range, in UTC buckets of an hour, day, week (ISO, from Monday), month or
 * year. Historical usage from {@link Meter.history}, not remaining quota. Transport-free.
 *
 * Ranges are half-open, `[start, end)`. The series runs from the bucket containing `start` to
 * the bucket containing the last instant before `end`, every bucket included (empty ones with
 * count 0), each with its full UTC boundaries. Counts come from the meter's hourly history,
 * so they cover the hours from the one containing `start` up to `end`.
 *
 * @module service/usage
 */
import * as z from 'zod'
import type { Meter } from '../contracts/meter.js'
import type { LithoIssue } from '../errors.js'
import { describeReceived } from '../design/schema.js'
import { storageUsage } from '../quota/meter-storage.js'
import { PLANS, isPlanId, renderLimitOf, type PlanId, type PlanTable } from '../quota/plans.js'
import { quotaWindow } from '../quota/window.js'
import { invalidRequest } from './params.js'
import type { BearerAccount } from './bearer-services.js'
import { DEFAULT_USAGE_DAYS, MAX_USAGE_BUCKETS, USAGE_GROUP_BYS, type UsageBucket, type UsageGroupBy, type UsageResponse } from '../contracts/schemas/usage.js'
import { expected, parseQuery } from './query.js'

export { DEFAULT_USAGE_DAYS, MAX_USAGE_BUCKETS, USAGE_GROUP_BYS, UsageBucketSchema, UsageResponseSchema, type UsageBucket, type UsageGroupBy, type UsageResponse } from '../contracts/schemas/usage.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const WEEK = 7 * DAY

/** Reads an ISO 8601 instant; see {@link parseInstant}. */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/

/**
 * Parses an ISO 8601 date-time: `2026-11-23T10:00:00Z`, with an offset (`+02:00`, `+0200`),
 * fractions of a second, or seconds left out. Without an offset it is read as UTC (never as
 * the server's local time), and a bare date (`2026-11-23`) is UTC midnight. Null when `text`
 * is not one, or names no real instant (`2026-02-30`, `25:00`).
 *
 * @example parseInstant('2026-11-23T10:00:00+02:00')?.toISOString() // '2026-11-23T08:00:00.000Z'
 */
export function parseInstant(text: string): Date | null {
  const match = INSTANT.exec(text.trim())
  if (!match) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', , sign, oh = '0', om = '0'] = match
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number]
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59 || Number(oh) > 23 || Number(om) > 59) return null
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3))
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000
  const date = utc(year, month - 1, day)
  date.setUTCHours(hour, minute, second, ms)
  return new Date(date.getTime() - offset)
}

/**
 * The first instant of the UTC bucket containing `instant`: the hour, UTC midnight, Monday
 * 00:00 UTC (ISO week), the 1st of the month or January 1st.
 *
 * @example bucketStart(new Date('2026-01-01T12:00:00Z'), 'week').toISOString() // '2025-12-29T00:00:00.000Z' (a Monday)
 */
export function bucketStart(instant: Date, groupBy: UsageGroupBy): Date {
  const t = instant.getTime()
  switch (groupBy) {
    case 'hour':
      return new Date(Math.floor(t / HOUR) * HOUR)
    case 'day':
      return new Date(Math.floor(t / DAY) * DAY)
    case 'week': {
      const midnight = Math.floor(t / DAY) * DAY
      const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7
      return new Date(midnight - sinceMonday * DAY)
    }
    case 'month':
      return utc(instant.getUTCFullYear(), instant.getUTCMonth(), 1)
    case 'year':
      return utc(instant.getUTCFullYear(), 0, 1)
  }
}

/**
 * The end (exclusive) of the UTC bucket containing `instant`: the start of the next bucket.
 *
 * @example bucketEnd(new Date('2026-12-15T00:00:00Z'), 'month').toISOString() // '2027-01-01T00:00:00.000Z'
 */
export function bucketEnd(instant: Date, groupBy: UsageGroupBy): Date {
  const start = bucketStart(instant, groupBy)
  switch (groupBy) {
    case 'hour':
      return new Date(start.getTime() + HOUR)
    case 'day':
      return new Date(start.getTime() + DAY)
    case 'week':
      return new Date(start.getTime() + WEEK)
    case 'month':
      return utc(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)
    case 'year':
      return utc(start.getUTCFullYear() + 1, 0, 1)
  }
}

/**
 * How many buckets the range `[start, end)` touches (0 when `end` is not after `start`).
 *
 * @example countBuckets(new Date('2026-11-01T00:00:00Z'), new Date('2026-11-08T00:00:00Z'), 'day') // 7
 */
export function countBuckets(start: Date, end: Date, groupBy: UsageGroupBy): number {
  if (!(end.getTime() > start.getTime())) return 0
  const first = bucketStart(start, groupBy)
  const last = bucketStart(new Date(end.getTime() - 1), groupBy)
  switch (groupBy) {
    case 'hour':
      return Math.round((last.getTime() - first.getTime()) / HOUR) + 1
    case 'day':
      return Math.round((last.getTime() - first.getTime()) / DAY) + 1
    case 'week':
      return Math.round((last.getTime() - first.getTime()) / WEEK) + 1
    case 'month':
      return (last.getUTCFullYear() - first.getUTCFullYear()) * 12 + last.getUTCMonth() - first.getUTCMonth() + 1
    case 'year':
      return last.getUTCFullYear() - first.getUTCFullYear() + 1
  }
}

/**
 * Every bucket the range `[start, end)` touches, oldest first, with its full UTC boundaries.
 *
 * @throws RangeError when that is more than `max` buckets.
 * @example listBuckets(new Date('2026-11-23T10:30:00Z'), new Date('2026-11-23T12:00:00Z'), 'hour').length // 2
 */
export function listBuckets(start: Date, end: Date, groupBy: UsageGroupBy, max = MAX_USAGE_BUCKETS): Array<{ start: Date; end: Date }> {
  const count = countBuckets(start, end, groupBy)
  if (count > max) throw new RangeError(`${count} ${groupBy} buckets is more than ${max}`)
  const buckets: Array<{ start: Date; end: Date }> = []
  let cursor = bucketStart(start, groupBy)
  for (let i = 0; i < count; i++) {
    const next = bucketEnd(cursor, groupBy)
    buckets.push({ start: cursor, end: next })
    cursor = next
  }
  return buckets
}

const instantSchema = (description: string) =>
  z
    .string(expected('an ISO 8601 date-time such as 2026-11-23T00:00:00Z'))
    .refine((value) => parseInstant(value) !== null, expected('an ISO 8601 date-time such as 2026-11-23T00:00:00Z'))
    .meta({ format: 'date-time', description })

/**
 * The query of `GET /analytics/api`.
 *
 * @example UsageParamsSchema.parse({ start: '2026-11-01T00:00:00Z', groupBy: 'week' })
 */
export const UsageParamsSchema = z.object({
  start: instantSchema(`First instant counted (ISO 8601; without an offset, UTC). Default: ${DEFAULT_USAGE_DAYS} days before \`end\`.`).optional(),
  end: instantSchema('End of the range, exclusive (ISO 8601; without an offset, UTC). Default: now.').optional(),
  groupBy: z
    .enum(USAGE_GROUP_BYS, expected(`one of ${USAGE_GROUP_BYS.join(', ')}`))
    .optional()
    .meta({ description: `UTC bucket size; \`week\` is the ISO week from Monday. At most ${MAX_USAGE_BUCKETS} buckets per request.`, default: 'day' }),
})

/**
 * Validated usage parameters with their defaults applied.
 *
 * @example const params: UsageParams = { start: new Date('2026-11-16T00:00:00Z'), end: new Date('2026-11-23T00:00:00Z'), groupBy: 'day' }
 */
export interface UsageParams {
  start: Date
  end: Date
  groupBy: UsageGroupBy
}

/**
 * Validates the query of `GET /analytics/api`. `end` defaults to `now`, `start` to 7 days
 * before `end`, `groupBy` to `day`.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` naming the parameter: `start`/`end` not a date-time,
 * `start` not before `end`, or `groupBy` unknown or too fine for the range (more than 1000 buckets).
 * @example parseUsageParams(new URLSearchParams('groupBy=hour&start=2026-11-23T00:00:00Z'), new Date())
 */
export function parseUsageParams(query: URLSearchParams, now: Date): UsageParams {
  const parsed = parseQuery(query, UsageParamsSchema)
  const end = parsed.end === undefined ? new Date(now.getTime()) : parseInstant(parsed.end)!
  const start = parsed.start === undefined ? new Date(end.getTime() - DEFAULT_USAGE_DAYS * DAY) : parseInstant(parsed.start)!
  const params: UsageParams = { start, end, groupBy: parsed.groupBy ?? 'day' }
  const issues = checkUsageRange(params, { start: parsed.start, end: parsed.end })
  if (issues.length > 0) throw invalidRequest(issues)
  return params
}

/** Problems of a range: start not before end, too many buckets. */
function checkUsageRange({ start, end, groupBy }: UsageParams, given: { start?: string | undefined; end?: string | undefined } = {}): LithoIssue[] {
  if (!(start instanceof Date) || Number.isNaN(start.getTime())) return [{ path: 'start', message: `expected a date-time, received ${describeReceived(start)}` }]
  if (!(end instanceof Date) || Number.isNaN(end.getTime())) return [{ path: 'end', message: `expected a date-time, received ${describeReceived(end)}` }]
  if (!USAGE_GROUP_BYS.includes(groupBy)) return [{ path: 'groupBy', message: `expected one of ${USAGE_GROUP_BYS.join(', ')}, received ${describeReceived(groupBy)}` }]
  if (start.getTime() >= end.getTime()) {
    const endText = given.end === undefined ? `now, ${end.toISOString()}` : end.toISOString()
    return [{ path: 'start', message: `expected a date-time before end (${endText}), received ${given.start === undefined ? start.toISOString() : JSON.stringify(given.start)}` }]
  }
  const count = countBuckets(start, end, groupBy)
  if (count > MAX_USAGE_BUCKETS)
    return [
      {
        path: 'groupBy',
        message: `"${groupBy}" over ${start.toISOString()} to ${end.toISOString()} gives ${count} buckets, more than ${MAX_USAGE_BUCKETS}: use a coarser groupBy or a shorter range between start and end`,
      },
    ]
  return []
}

/**
 * The account's render counts over `[start, end)` in UTC buckets: a complete series (zero
 * buckets included) from the meter's hourly history, each hour added to the bucket holding it;
 * its stored bytes now, with the plan's storage limit (`limitBytes` null without a plan, or for a
 * plan `services.plans` (default `PLANS`) lacks); and the render quota of the plan's window holding
 * `now` (default: the system clock).
 *
 * @throws LithoError `ERR_INVALID_REQUEST` for a range that {@link parseUsageParams} would
 * reject; meter errors as they are.
 * @example
 * const usage = await getUsage({ meter }, { account: { id: 'u_1' }, ...parseUsageParams(query, clock.now()) })
 * usage.buckets // [{ start: '2026-11-17T00:00:00.000Z', end: '2026-11-18T00:00:00.000Z', count: 3 }, …]
 */
export async function getUsage(services: { meter: Pick<Meter, 'history' | 'usage'>; plans?: PlanTable | undefined }, request: { account: BearerAccount & { plan?: PlanId }; now?: Date } & UsageParams): Promise<UsageResponse> {
  const { account, start, end, groupBy } = request
  const issues = checkUsageRange({ start, end, groupBy })
  if (issues.length > 0) throw invalidRequest(issues)
  const buckets = listBuckets(start, end, groupBy).map((b) => ({ start: b.start.toISOString(), end: b.end.toISOString(), count: 0 }))
  const byStart = new Map(buckets.map((b) => [b.start, b]))
  const plans: PlanTable = services.plans ?? PLANS
  const plan = account.plan !== undefined && isPlanId(account.plan, plans) ? plans[account.plan]! : undefined
  const window = quotaWindow(request.now ?? new Date(), plan?.window ?? 'month')
  const [hours, storage, used] = await Promise.all([services.meter.history({ subject: account.id, from: start, to: end }), storageUsage(services.meter, account, services.plans), services.meter.usage({ subject: account.id, window: window.id })])
  const limit = plan === undefined ? null : renderLimitOf(plan)
  const quota = { limit, used, remaining: limit === null ? null : Math.max(0, limit - used), resetAt: window.resetAt.toISOString() }
  const from = bucketStart(start, 'hour').getTime()
  let total = 0
  for (const { hour, count } of hours) {
    const at = new Date(hour)
    if (Number.isNaN(at.getTime()) || !Number.isFinite(count)) continue
    // Outside what was asked (a meter answering more): not counted.
    if (at.getTime() < from || at.getTime() >= end.getTime()) continue
    const bucket = byStart.get(bucketStart(at, groupBy).toISOString())
    if (bucket === undefined) continue
    bucket.count += count
    total += count
  }
  return { success: true, groupBy, start: start.toISOString(), end: end.toISOString(), total, buckets, storage, quota }
}

function utc(year: number, month: number, day: number): Date {
  const date = new Date(0)
  date.setUTCFullYear(year, month, day)
  date.setUTCHours(0, 0, 0, 0)
  return date
}

function daysInMonth(year: number, month: number): number {
  return utc(year, month, 0).getUTCDate()
}
