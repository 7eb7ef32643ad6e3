/**
 * The plans: defined in the contracts entry (`../contracts/plans.ts`), re-exported here where
 * the quota code has always imported them.
 *
 * @module quota/plans
 */
export { PLAN_IDS, PLANS, isPlanId, type Plan, type PlanId } from '../contracts/plans.js'
