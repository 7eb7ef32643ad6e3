/**
 * Plans and their monthly quotas (docs/quotas-and-plans.md): pure data, in the contracts entry so
 * adapters and clients read plan ids without loading the renderer.
 *
 * @module contracts/plans
 */

/** The plan ids, smallest first, e.g. `'pro'`. */
export const PLAN_IDS = Object.freeze(['free', 'basic', 'pro', 'unlimited'] as const)
/** A plan id. */
export type PlanId = (typeof PLAN_IDS)[number]

/** What a plan allows per calendar month (UTC). `null` means no limit. */
export interface Plan {
  id: PlanId
  /** Metered renders (API calls) per month. */
  renders: number
  /** Designs the account may own. */
  templates: number | null
  /** Bytes of stored renders. */
  storageBytes: number | null
}

const MB = 1_000_000
const GB = 1_000_000_000

/** The plans of the service interface: Free 100, Basic 1,000, Pro 10,000, Unlimited 100,000 renders a month. */
export const PLANS: Readonly<Record<PlanId, Plan>> = Object.freeze({
  free: { id: 'free', renders: 100, templates: 50, storageBytes: 500 * MB },
  basic: { id: 'basic', renders: 1_000, templates: null, storageBytes: 10 * GB },
  pro: { id: 'pro', renders: 10_000, templates: null, storageBytes: null },
  unlimited: { id: 'unlimited', renders: 100_000, templates: null, storageBytes: null },
})

/** True when `value` names a plan. */
export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && Object.hasOwn(PLANS, value)
}
