/**
 * The quota window: a calendar month in UTC. Every account's window starts on the 1st at
 * 00:00 UTC and resets on the 1st of the next month, whatever day the account was created:
 * one rule that a user can predict from the date alone, as most metered APIs bill.
 *
 * @module quota/window
 */

/** One quota window. */
export interface QuotaWindow {
  /** `YYYY-MM`, the meter's window key. */
  id: string
  /** First instant of the window. */
  start: Date
  /** First instant of the next window: when usage resets (`resetAt` of the QuotaError). */
  resetAt: Date
}

/**
 * The window that contains `now`. Pure: time comes in as a parameter.
 *
 * @example quotaWindow(new Date('2026-11-30T23:59:59.900Z')) // { id: '2026-11', resetAt: 2026-12-01T00:00:00Z, … }
 */
export function quotaWindow(now: Date): QuotaWindow {
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth()
  return {
    id: `${year}-${String(month + 1).padStart(2, '0')}`,
    start: new Date(Date.UTC(year, month, 1)),
    resetAt: new Date(Date.UTC(year, month + 1, 1)),
  }
}

/** Whole seconds from `now` until `resetAt`, at least 1 (for `Retry-After`). */
export function secondsUntil(resetAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000))
}
