/**
 * Helpers shared by the backends. Internal: not exported.
 *
 * @module kit/hours
 */
import { LithoError } from '@litho/core/errors'
import { isMissingPeer, storageError } from './errors.js'

/**
 * An error of a meter's backend: unreachable, or holding data the meter cannot read. Meters
 * fail closed, so every such failure rejects with a LithoError `ERR_STORAGE` (the original
 * error is `cause`; `details` has `adapter` and `operation`), which a caller can map to
 * "try again later" by its code.
 */
export function createMeterError(adapter: string, operation: string, message: string, cause?: unknown): LithoError {
  // The message never contains credentials: the cause's message is the client's own.
  return storageError(`meter:${adapter}`, adapter, operation, message, cause)
}

/** Runs `task`; any error it throws is wrapped with {@link createMeterError} unless it already is one (or names a missing optional peer). */
export async function wrapBackendErrors<T>(adapter: string, operation: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    if ((LithoError.isInstance(error) && error.code === 'ERR_STORAGE') || isMissingPeer(error)) throw error
    throw createMeterError(adapter, operation, error instanceof Error ? error.message : String(error), error)
  }
}

// --- usage history: UTC hours ---

/** One hour in milliseconds. */
export const HOUR_MS = 3_600_000

/**
 * How long an hour of usage history is kept after it ends: the contract's 400 days. Meters may
 * keep it longer; they never forget it sooner.
 */
export const HISTORY_RETENTION_MS = 400 * 24 * HOUR_MS

/** The first instant (epoch ms) of the UTC hour containing `ms`. */
export function hourStart(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS
}

/** The first instant (epoch ms) of the UTC month containing `ms`, moved by `offset` months; NaN past the range of Date. */
export function monthStart(ms: number, offset = 0): number {
  const date = new Date(ms)
  // setUTCFullYear, not Date.UTC: Date.UTC maps the years 0 to 99 to 1900 to 1999.
  date.setUTCFullYear(date.getUTCFullYear(), date.getUTCMonth() + offset, 1)
  date.setUTCHours(0, 0, 0, 0)
  return date.getTime()
}

/**
 * Where the hour starting at `ms` is stored: its UTC month (`2026-11`, the Redis key suffix and
 * fs directory) and its place in the month (`23T14`, day and hour: the Redis field and fs file
 * name). Years outside 0000–9999 keep the ISO 8601 sign and six digits (`+010000-01`).
 */
export function hourSlot(ms: number): { month: string; slot: string } {
  const iso = new Date(ms).toISOString()
  const t = iso.indexOf('T')
  return { month: iso.slice(0, t - 3), slot: `${iso.slice(t - 2, t)}T${iso.slice(t + 1, t + 3)}` }
}

/** The name of a month as {@link hourSlot} writes it. */
export const MONTH_RE = /^(?:\d{4}|[+-]\d{6})-\d{2}$/
/** The name of an hour within its month as {@link hourSlot} writes it. */
export const SLOT_RE = /^\d{2}T\d{2}$/

/** The start (epoch ms) of the hour that {@link hourSlot} names `month` and `slot`; NaN when they name none. */
export function parseHourSlot(month: string, slot: string): number {
  if (!MONTH_RE.test(month) || !SLOT_RE.test(slot)) return Number.NaN
  const ms = Date.parse(`${month}-${slot.slice(0, 2)}T${slot.slice(3)}:00:00.000Z`)
  // The round trip refuses what Date.parse would roll over or accept loosely (`02-31`, `T24`).
  if (!Number.isFinite(ms)) return Number.NaN
  const back = hourSlot(ms)
  return back.month === month && back.slot === slot ? ms : Number.NaN
}
