/**
 * The clock port: where every "now" comes from, so quota windows, expiries and timestamps
 * are testable and consistent.
 *
 * @module contracts/clock
 */

/**
 * Tells the time. Behaviour: `now()` returns a new, valid Date each call; it may go backwards
 * only as far as the system clock does. Tests pass a fixed or stepping clock.
 *
 * @example const clock: Clock = { now: () => new Date() }
 */
export interface Clock {
  now(): Date
}
