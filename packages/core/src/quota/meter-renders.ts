/**
 * The quota policy over a meter: one render is one unit, consumed before rendering and
 * refunded once if the caller decides the render did not happen (exports always refund a
 * failure; docs/quotas-and-plans.md, "What counts as a render").
 *
 * @module quota/meter-renders
 */
import type { Meter } from '../contracts/meter.js'
import { LithoError } from '../errors.js'
import { PLANS, planOf, renderLimitOf, type PlanId, type PlanTable } from './plans.js'
import { quotaWindow, secondsUntil } from './window.js'

/** Who is metered and when. */
export interface RenderMeterRequest {
  /** The account (user id). */
  subject: string
  plan: PlanId
  /** The plan table `plan` is read from. @default PLANS */
  plans?: PlanTable
  /** Renders to take: 1 per render, 1 per bulk item. */
  amount?: number
  /** Unique id of this consumption, for a later refund (a render or job id). */
  id: string
  now: Date
}

/** A granted consumption: what the caller needs to refund it and to report usage. */
export interface RenderGrant {
  subject: string
  window: string
  id: string
  usage: number
  limit: number
  remaining: number
  resetAt: Date
}

/**
 * The quota a response reports after `grant`: usage, limit, remaining and reset time.
 *
 * @example const quota = quotaOfGrant(await meterRenders(meter, request)) // { usage: 3, limit: 100, remaining: 97, resetAt }
 */
export function quotaOfGrant(grant: RenderGrant): { usage: number; limit: number; remaining: number; resetAt: Date } {
  return { usage: grant.usage, limit: grant.limit, remaining: grant.remaining, resetAt: grant.resetAt }
}

/** The body of a 429 (docs/http-reference.md, QuotaError). */
export interface QuotaErrorBody {
  success: false
  message: string
  data: { usage: number; limit: number; remaining: number; resetAt: string }
}

/**
 * Takes `amount` renders from the subject's quota for the plan's window containing `now`. An
 * uncapped plan (`renders: null`) is still counted, against `UNCAPPED_RENDERS`.
 *
 * @throws LithoError `ERR_QUOTA_EXCEEDED` with `details` { usage, limit, remaining, resetAt
 * (ISO string), retryAfterSeconds } when the renders would pass the plan's limit; nothing
 * is taken then. `ERR_UNKNOWN_PLAN` when the table has no such plan (nothing is taken).
 * @example
 * const grant = await meterRenders(meter, { subject: user.id, plan: user.plan, id: renderId, now: clock.now() })
 */
export async function meterRenders(meter: Meter, request: RenderMeterRequest): Promise<RenderGrant> {
  const plan = planOf(request.plans ?? PLANS, request.plan)
  const window = quotaWindow(request.now, plan.window)
  const limit = renderLimitOf(plan)
  const amount = request.amount ?? 1
  // `at`: the render is recorded in the usage history at the service clock's hour, not the meter's.
  const result = await meter.consume({ subject: request.subject, window: window.id, amount, limit, id: request.id, expiresAt: window.resetAt, at: request.now })
  if (!result.granted) {
    const remaining = Math.max(0, limit - result.usage)
    const resetAt = window.resetAt.toISOString()
    throw new LithoError(
      'ERR_QUOTA_EXCEEDED',
      `The render quota of the ${request.plan} plan (${limit} a ${plan.window}) is used up${amount > 1 ? ` for ${amount} more renders` : ''}; it resets at ${resetAt}`,
      { details: { usage: result.usage, limit, remaining, resetAt, retryAfterSeconds: secondsUntil(window.resetAt, request.now) } },
    )
  }
  return { subject: request.subject, window: window.id, id: request.id, usage: result.usage, limit, remaining: Math.max(0, limit - result.usage), resetAt: window.resetAt }
}

/** Gives back a granted consumption, once. True when it did (false if already refunded). */
export function refundRenders(meter: Meter, grant: Pick<RenderGrant, 'subject' | 'window' | 'id'>): Promise<boolean> {
  return meter.refund({ subject: grant.subject, window: grant.window, id: grant.id })
}

/** The QuotaError body for an `ERR_QUOTA_EXCEEDED` error. */
export function toQuotaErrorBody(error: LithoError): QuotaErrorBody {
  const d = error.details as { usage: number; limit: number; remaining: number; resetAt: string }
  return { success: false, message: error.message, data: { usage: d.usage, limit: d.limit, remaining: d.remaining, resetAt: d.resetAt } }
}
