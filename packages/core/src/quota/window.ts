/**
 * The quota window: by default a calendar month in UTC. Every account's window starts on the
 * 1st at 00:00 UTC and resets on the 1st of the next month, whatever day the account was
 * created: one rule that a user can predict from the date alone, as most metered APIs bill.
 * A plan may instead count per ISO week (Monday 00:00 UTC to the next Monday) or per UTC day.
 *
 * The ids of the three lengths never collide: `2026-11` (month), `2026-W48` (ISO week, with
 * the ISO week-year), `2026-11-26` (day).
 *
 * @module quota/window
 */
import type { PlanWindow } from '../contracts/plans.js'

/** One quota window. */
export interface QuotaWindow {
  /** The meter's window key: `YYYY-MM` (month), `YYYY-Www` (ISO week) or `YYYY-MM-DD` (day). */
  id: string
  /** First instant of the window. */
  start: Date
  /** First instant of the next window: when usage resets (`resetAt` of the QuotaError). */
  resetAt: Date
}

const DAY_MS = 86_400_000

/**
 * The window of length `length` (a month unless told) that contains `now`. Pure: time comes in
 * as a parameter.
 *
 * @example quotaWindow(new Date('2026-11-30T23:59:59.900Z')) // { id: '2026-11', resetAt: 2026-12-01T00:00:00Z, … }
 * @example quotaWindow(new Date('2026-11-26T10:00:00Z'), 'week') // { id: '2026-W48', start: 2026-11-23T00:00:00Z, resetAt: 2026-11-30T00:00:00Z }
 */
export function quotaWindow(now: Date, length: PlanWindow = 'month'): QuotaWindow {
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth()
  const day = now.getUTCDate()
  if (length === 'day') {
    const start = new Date(Date.UTC(year, month, day))
    return { id: `${year}-${pad(month + 1)}-${pad(day)}`, start, resetAt: new Date(start.getTime() + DAY_MS) }
  }
  if (length === 'week') {
    // ISO 8601: weeks start on Monday; week 1 is the one with the year's first Thursday.
    const weekday = (now.getUTCDay() + 6) % 7
    const start = new Date(Date.UTC(year, month, day - weekday))
    const thursday = new Date(start.getTime() + 3 * DAY_MS)
    const isoYear = thursday.getUTCFullYear()
    const week = 1 + Math.floor((thursday.getTime() - Date.UTC(isoYear, 0, 1)) / (7 * DAY_MS))
    return { id: `${isoYear}-W${pad(week)}`, start, resetAt: new Date(start.getTime() + 7 * DAY_MS) }
  }
  return {
    id: `${year}-${pad(month + 1)}`,
    start: new Date(Date.UTC(year, month, 1)),
    resetAt: new Date(Date.UTC(year, month + 1, 1)),
  }
}

/** Whole seconds from `now` until `resetAt`, at least 1 (for `Retry-After`). */
export function secondsUntil(resetAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000))
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}
