/**
 * The meter port: counts renders against a quota, atomically.
 *
 * @module contracts/meter
 */

/** One quota window of one subject (an account), with its limit. */
export interface MeterKey {
  /** Who is metered, e.g. a user id. Opaque to the meter; `[A-Za-z0-9_.:-]{1,200}`. */
  subject: string
  /** Which window, e.g. `2026-11` for a calendar month. Opaque to the meter; same alphabet. */
  window: string
}

/** A request to consume units. */
export interface ConsumeRequest extends MeterKey {
  /** Units to take (a render is 1). A whole number ≥ 1. */
  amount: number
  /** The most units the window may hold. A whole number ≥ 0. */
  limit: number
  /**
   * Identifies this consumption for {@link Meter.refund}: unique per render (a render or job
   * id), `[A-Za-z0-9_.:-]{1,200}`. Consuming twice with the same id in one window is a caller
   * error; meters need not detect it.
   */
  id: string
  /** When the window ends. Meters may forget the window's counters and ids after it (plus a grace period). */
  expiresAt: Date
  /**
   * When the units are used, for {@link Meter.history}: they are recorded in the UTC hour
   * containing `at`. Default: the meter's own clock (`new Date()`).
   */
  at?: Date
}

/** Net units of one UTC hour in {@link Meter.history}. */
export interface UsageHour {
  /** The hour's first instant, ISO 8601 in UTC: `2026-11-23T14:00:00.000Z`. */
  hour: string
  /** Units consumed in that hour, minus those of them refunded since. Always ≥ 1 (empty hours are omitted). */
  count: number
}

/** A request for {@link Meter.history}. */
export interface HistoryRequest {
  /** Whose usage. Same alphabet as {@link MeterKey.subject}. */
  subject: string
  /** The first instant asked for; the hour containing it is included. */
  from: Date
  /** The end, exclusive: an hour is included when it starts before `to`. Must be after `from`. */
  to: Date
}

/** The outcome of {@link Meter.consume}. */
export interface ConsumeResult {
  /** True when the units were taken; false when they would pass the limit (nothing was taken). */
  granted: boolean
  /** Units used in the window after this call. */
  usage: number
}

/**
 * Counts units per subject and window. Every implementation passes the meter suite of
 * `@litho/testing` (`runMeterConformance`).
 *
 * Behaviour:
 * - `consume` is **atomic**: the check against `limit` and the increment are one step, so N
 *   concurrent consumes against a limit L grant exactly min(N, L) units, on one instance or
 *   on many sharing a backend. Never a read followed by a write.
 * - A denied consume changes nothing.
 * - `refund` gives back the units of one granted consumption **exactly once**: a second
 *   refund of the same id, a refund of an unknown id, or of a denied one returns false and
 *   changes nothing. Also atomic.
 * - `usage` of a window nothing was consumed in is 0 (never an error).
 * - Windows and subjects are independent.
 * - Errors of the backend reject the promise: a meter fails closed, it never grants when it
 *   cannot count.
 * - `history` reports, per hour, what `consume` granted minus what `refund` gave back.
 * - Invalid input (an amount that is not a whole number ≥ 1, a negative limit, a subject,
 *   window or id outside its alphabet) rejects with a TypeError coded `ERR_INVALID_ARG_TYPE`
 *   or `ERR_INVALID_ARG_VALUE` and changes nothing.
 */
export interface Meter {
  /** Short name for messages, e.g. `redis`. */
  readonly name: string
  /** What this meter guarantees beyond the contract. */
  readonly capabilities: MeterCapabilities
  /** Takes `amount` units if the window stays within `limit`. */
  consume(request: ConsumeRequest): Promise<ConsumeResult>
  /** Gives back the units of consumption `id`, once. True when it did. */
  refund(request: MeterKey & { id: string }): Promise<boolean>
  /** Units used in the window. */
  usage(key: MeterKey): Promise<number>
  /**
   * The subject's usage per UTC hour, across windows, for analytics: every hour with a
   * non-zero net count whose start lies in [hour of `from`, `to`), oldest first. A refund
   * takes its units out of the hour they were consumed in. Hours are kept at least 400 days
   * after they end (then a meter may forget them); `history` may lag a granted consume by a
   * moment but never counts a denied one.
   */
  history(request: HistoryRequest): Promise<UsageHour[]>
  /**
   * Optional: forgets, now, every window whose `expiresAt` plus the meter's grace period has
   * passed at `now` (default: the meter's clock), instead of waiting for it to happen lazily,
   * and resolves with how many windows it forgot. Meters whose backend expires keys by itself
   * (Redis) need not have it. A service calls it from its periodic sweep.
   */
  sweep?(now?: Date): Promise<number>
  /** Releases connections and timers. */
  dispose?(): Promise<void>
}

/** What a meter guarantees beyond the contract; the conformance suite tests what is declared. */
export interface MeterCapabilities {
  /** Counts survive a restart (a new instance on the same storage sees them). */
  persistent: boolean
  /** Several processes or machines may share the backend and still count exactly. */
  shared: boolean
}
