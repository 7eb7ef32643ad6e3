/**
 * Plans and their quotas (docs/quotas-and-plans.md): pure data and a zod-checked reader of an
 * operator's own plan table, in the contracts entry so adapters and clients read plans without
 * loading the renderer.
 *
 * @module contracts/plans
 */
import * as z from 'zod'
import { LithoError } from './errors.js'

/** The ids of the default plans ({@link PLANS}), smallest first, e.g. `'pro'`. */
export const PLAN_IDS = Object.freeze(['free', 'basic', 'pro', 'unlimited'] as const)
/** The id of one of the default plans. */
export type DefaultPlanId = (typeof PLAN_IDS)[number]
/** A plan's name: one of the default plans, or any name of a configured {@link PlanTable} (see {@link PLAN_NAME}). */
export type PlanId = string

/** The lengths a plan's render window may have; every window is in UTC. */
export const PLAN_WINDOWS = Object.freeze(['month', 'week', 'day'] as const)
/** How long a plan's render window is: a calendar month, an ISO week (Monday to Monday) or a day, in UTC. */
export type PlanWindow = (typeof PLAN_WINDOWS)[number]

/** What a plan allows per window. `null` means no limit. */
export interface Plan {
  id: PlanId
  /** Metered renders (API calls) per window; null: not capped (still counted). */
  renders: number | null
  /** Designs the account may own. */
  templates: number | null
  /** Bytes of stored renders. */
  storageBytes: number | null
  /** The render window. */
  window: PlanWindow
}

/** Plans by name: the default {@link PLANS}, or an operator's own (see {@link parsePlanTable}). */
export type PlanTable = Readonly<Record<PlanId, Plan>>

const MB = 1_000_000
const GB = 1_000_000_000

/** The plans of the service interface: Free 100, Basic 1,000, Pro 10,000, Unlimited 100,000 renders a month. */
export const PLANS: Readonly<Record<DefaultPlanId, Plan & { renders: number }>> = Object.freeze({
  free: Object.freeze({ id: 'free', renders: 100, templates: 50, storageBytes: 500 * MB, window: 'month' as const }),
  basic: Object.freeze({ id: 'basic', renders: 1_000, templates: null, storageBytes: 10 * GB, window: 'month' as const }),
  pro: Object.freeze({ id: 'pro', renders: 10_000, templates: null, storageBytes: null, window: 'month' as const }),
  unlimited: Object.freeze({ id: 'unlimited', renders: 100_000, templates: null, storageBytes: null, window: 'month' as const }),
})

/** The shape of a plan name: lowercase letters, digits, `_` and `-`, 1 to 32 characters, not starting with `_` or `-`. */
export const PLAN_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/
/** The largest limit a plan may set (10^15: a petabyte of storage); larger is refused, `null` is no limit. */
export const MAX_PLAN_LIMIT = 1_000_000_000_000_000
/** Most plans a table may hold. */
export const MAX_PLANS = 100
/**
 * What an uncapped render limit (`renders: null`) reports where the interface requires a
 * number (`X-Quota-Limit`, `data.limit`): `Number.MAX_SAFE_INTEGER`, the largest integer a JSON
 * number holds exactly, so a client's `remaining > 0` stays true.
 */
export const UNCAPPED_RENDERS = Number.MAX_SAFE_INTEGER

/** True when `value` is a plan of `plans` (the default {@link PLANS} when omitted). */
export function isPlanId(value: unknown, plans: PlanTable = PLANS): value is PlanId {
  return typeof value === 'string' && Object.hasOwn(plans, value)
}

/** True when `value` has the shape of a plan name ({@link PLAN_NAME}), whatever table it is in. */
export function isPlanName(value: unknown): value is PlanId {
  return typeof value === 'string' && PLAN_NAME.test(value)
}

/**
 * The plan named `name` in `plans`.
 *
 * @throws LithoError `ERR_UNKNOWN_PLAN` with `details` { plan, known } when the table has no such
 * plan (a user stored on a plan the operator has since removed).
 * @example planOf(PLANS, 'free').renders // 100
 */
export function planOf(plans: PlanTable, name: PlanId): Plan {
  if (isPlanId(name, plans)) return plans[name]!
  const known = Object.keys(plans)
  throw new LithoError('ERR_UNKNOWN_PLAN', `This account is on the plan ${JSON.stringify(name)}, which this server does not offer (plans: ${known.join(', ')}); ask the operator to move it to one of them.`, {
    details: { plan: name, known },
  })
}

/** The render limit a meter enforces and a response reports: the plan's, or {@link UNCAPPED_RENDERS}. */
export function renderLimitOf(plan: Plan): number {
  return plan.renders ?? UNCAPPED_RENDERS
}

const limit = z.custom<number | null>((value) => value === null || (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_PLAN_LIMIT), {
  error: (issue) => `expected a whole number from 0 to ${MAX_PLAN_LIMIT}, or null for no limit, received ${describe(issue.input)}`,
})
const PlanInputSchema = z.strictObject(
  {
    id: z.string().optional(),
    renders: limit,
    templates: limit,
    storageBytes: limit,
    window: z.enum(PLAN_WINDOWS, { error: (issue) => `expected one of ${PLAN_WINDOWS.join(', ')}, received ${describe(issue.input)}` }).optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}; a plan has renders, templates, storageBytes and window` : `expected an object with renders, templates, storageBytes (and window), received ${describe(issue.input)}`) },
)

/**
 * Reads an operator's plan table: an object of plans by name, each
 * `{ renders, templates, storageBytes, window? }` (limits are whole numbers from 0 to
 * {@link MAX_PLAN_LIMIT} or `null` for none, all three required; `window` is `month` (the
 * default), `week` or `day`). Names match {@link PLAN_NAME}; 1 to {@link MAX_PLANS} plans.
 *
 * @throws TypeError `ERR_INVALID_ARG_VALUE` whose message names each bad field and why (e.g.
 * `team.renders: expected a whole number …, received -1`); its `issues` lists them.
 * @example
 * const plans = parsePlanTable({ team: { renders: 5000, templates: null, storageBytes: 2e9, window: 'week' } })
 * plans.team.window // 'week'
 */
export function parsePlanTable(input: unknown): PlanTable {
  const issues: { path: string; message: string }[] = []
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    issues.push({ path: '(table)', message: `expected an object of plans by name, e.g. {"free":{"renders":100,"templates":50,"storageBytes":500000000}}, received ${describe(input)}` })
  } else {
    const names = Object.keys(input)
    if (names.length === 0) issues.push({ path: '(table)', message: 'expected at least one plan' })
    if (names.length > MAX_PLANS) issues.push({ path: '(table)', message: `expected at most ${MAX_PLANS} plans, received ${names.length}` })
  }
  if (issues.length > 0) throw tableError(issues)
  const table: Record<PlanId, Plan> = Object.create(null) as Record<PlanId, Plan>
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    if (!PLAN_NAME.test(name)) {
      issues.push({ path: JSON.stringify(name).slice(0, 40), message: 'expected a plan name of 1 to 32 lowercase letters, digits, "_" or "-", starting with a letter or digit' })
      continue
    }
    const parsed = PlanInputSchema.safeParse(value)
    if (!parsed.success) {
      for (const issue of parsed.error.issues) issues.push({ path: [name, ...issue.path.map(String)].join('.'), message: issue.message })
      continue
    }
    if (parsed.data.id !== undefined && parsed.data.id !== name) {
      issues.push({ path: `${name}.id`, message: `expected the plan's name ${JSON.stringify(name)} (or no id), received ${describe(parsed.data.id)}` })
      continue
    }
    const { renders, templates, storageBytes } = parsed.data
    table[name] = Object.freeze({ id: name, renders, templates, storageBytes, window: parsed.data.window ?? 'month' })
  }
  if (issues.length > 0) throw tableError(issues)
  return Object.freeze(table)
}

function tableError(issues: { path: string; message: string }[]): TypeError {
  const message = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
  return Object.assign(new TypeError(message), { code: 'ERR_INVALID_ARG_VALUE' as const, issues })
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value) ?? typeof value
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}
