/**
 * The quota state a failed render leaves behind, carried beside its error: a render that consumed
 * a unit and then failed (and was refunded) still tells the client its quota, in the same headers
 * as a success. Kept in a WeakMap rather than on the error, so no error's shape or `details` change.
 *
 * @module quota/error-quota
 */

/** The quota after a request (`QuotaState` of the service). */
export interface ErrorQuota {
  usage: number
  limit: number
  remaining: number
  resetAt: Date
}

const quotas = new WeakMap<object, ErrorQuota>()

/**
 * Records the quota state to report with `error` (ignored for non-objects).
 *
 * @example attachQuota(error, { usage: 41, limit: 100, remaining: 59, resetAt })
 */
export function attachQuota(error: unknown, quota: ErrorQuota): void {
  if (typeof error === 'object' && error !== null) quotas.set(error, { ...quota })
}

/**
 * The quota state recorded with `error`, if any.
 *
 * @example const quota = quotaOfError(error) // { usage, limit, remaining, resetAt } | undefined
 */
export function quotaOfError(error: unknown): ErrorQuota | undefined {
  return typeof error === 'object' && error !== null ? quotas.get(error) : undefined
}
