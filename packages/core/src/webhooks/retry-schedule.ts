/**
 * When to retry a webhook delivery that failed: the Standard Webhooks schedule, in the
 * 8-attempt form Svix runs (docs/webhooks.md, "Retry schedule").
 *
 * @module webhooks/retry-schedule
 */
import { describeReceived, invalidArgument } from '../_internal/argument-error.js'

const SECOND = 1_000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/**
 * The delay before each attempt, measured from the previous attempt (the first from the event):
 *
 * | attempt | delay  | elapsed since the event |
 * |---------|--------|-------------------------|
 * | 1       | 0      | 0:00:00                 |
 * | 2       | 5 s    | 0:00:05                 |
 * | 3       | 5 min  | 0:05:05                 |
 * | 4       | 30 min | 0:35:05                 |
 * | 5       | 2 h    | 2:35:05                 |
 * | 6       | 5 h    | 7:35:05                 |
 * | 7       | 10 h   | 17:35:05                |
 * | 8       | 10 h   | 27:35:05                |
 *
 * After the 8th failed attempt the delivery is given up (marked failed), about 27.6 hours
 * after the event. Delays are exact: a scheduler that wants jitter adds it itself.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = Object.freeze([
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
])

/**
 * The delay (ms) before the next attempt of a delivery that has already been attempted
 * `attemptsSoFar` times, or `null` when the schedule is exhausted and the delivery should be
 * marked failed. `nextWebhookDelay(0)` is 0: the first attempt goes out at once.
 *
 * @example
 * nextWebhookDelay(0) // 0
 * nextWebhookDelay(1) // 5_000 (the first attempt failed: retry in 5 s)
 * nextWebhookDelay(8) // null (8 attempts made: give up)
 * @throws TypeError (`ERR_INVALID_ARG_VALUE`) when `attemptsSoFar` is not a whole number ≥ 0 or
 * `schedule` is not an array of whole numbers ≥ 0.
 */
export function nextWebhookDelay(attemptsSoFar: number, schedule: readonly number[] = WEBHOOK_RETRY_SCHEDULE_MS): number | null {
  if (typeof attemptsSoFar !== 'number' || !Number.isSafeInteger(attemptsSoFar) || attemptsSoFar < 0) {
    throw invalidArgument(`Expected attemptsSoFar to be a whole number >= 0 but received ${describeReceived(attemptsSoFar)}`)
  }
  if (!Array.isArray(schedule) || !schedule.every((delay) => typeof delay === 'number' && Number.isSafeInteger(delay) && delay >= 0)) {
    throw invalidArgument(`Expected schedule to be an array of delays in whole milliseconds >= 0 but received ${describeReceived(schedule)}`)
  }
  return attemptsSoFar < schedule.length ? schedule[attemptsSoFar]! : null
}
