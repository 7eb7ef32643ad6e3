/**
 * How fast a dead instance's export jobs run elsewhere: the BullMQ lock and stalled-check
 * timings of `litho serve` on Redis, from `LITHO_JOB_LOCK_MS` and `LITHO_JOB_STALLED_CHECK_MS`.
 *
 * A worker holds a job's lock for `LITHO_JOB_LOCK_MS` and renews it every half of that; every
 * `LITHO_JOB_STALLED_CHECK_MS` one instance (whichever runs the check first) moves the active
 * jobs whose lock expired back to the queue. An instance killed with jobs in flight therefore has
 * them picked up by another within about lock + check interval: 15 s with the defaults (10 s and
 * 5 s), where BullMQ's own (30 s and 30 s) take up to 90 s.
 *
 * @module job-queue-config
 */
import { ConfigError } from './config-error.js'

/** The lock duration when `LITHO_JOB_LOCK_MS` is unset, in milliseconds. */
export const DEFAULT_JOB_LOCK_MS = 10_000
/** The stalled-check interval when `LITHO_JOB_STALLED_CHECK_MS` is unset, in milliseconds. */
export const DEFAULT_JOB_STALLED_CHECK_MS = 5_000

/** The BullMQ timings of {@link readJobQueueTimings}. */
export interface JobQueueTimings {
  lockDurationMs: number
  stalledIntervalMs: number
}

/**
 * Reads `LITHO_JOB_LOCK_MS` (1000 to 3600000, default 10000) and `LITHO_JOB_STALLED_CHECK_MS`
 * (500 to 3600000, default 5000), whole milliseconds. Keep the lock well above the longest
 * pause of the event loop: a lock not renewed in time counts as a dead worker, and its job runs
 * again (renders run in worker threads, so the loop's pauses are short).
 *
 * @throws {ConfigError} naming the variable, for a value that is not a whole number in range.
 * @example readJobQueueTimings((name) => process.env[name]) // { lockDurationMs: 10000, stalledIntervalMs: 5000 }
 */
export function readJobQueueTimings(read: (name: string) => string | undefined): JobQueueTimings {
  return {
    lockDurationMs: readMs(read, 'LITHO_JOB_LOCK_MS', 1_000, DEFAULT_JOB_LOCK_MS),
    stalledIntervalMs: readMs(read, 'LITHO_JOB_STALLED_CHECK_MS', 500, DEFAULT_JOB_STALLED_CHECK_MS),
  }
}

const MAX_MS = 3_600_000

function readMs(read: (name: string) => string | undefined, name: string, min: number, fallback: number): number {
  const raw = read(name)
  if (raw === undefined) return fallback
  const value = /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN
  if (!(value >= min && value <= MAX_MS)) throw new ConfigError(`${name}: expected whole milliseconds from ${min} to ${MAX_MS}, received ${JSON.stringify(raw.slice(0, 20))}`)
  return value
}
