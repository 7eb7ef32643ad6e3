/**
 * The plans: defined in the contracts entry (`../contracts/plans.ts`), re-exported here where
 * the quota code has always imported them.
 *
 * @module quota/plans
 */
export {
  MAX_PLAN_LIMIT,
  MAX_PLANS,
  PLAN_IDS,
  PLAN_NAME,
  PLAN_WINDOWS,
  PLANS,
  UNCAPPED_RENDERS,
  isPlanId,
  isPlanName,
  parsePlanTable,
  planOf,
  renderLimitOf,
  type DefaultPlanId,
  type Plan,
  type PlanId,
  type PlanTable,
  type PlanWindow,
} from '../contracts/plans.js'
