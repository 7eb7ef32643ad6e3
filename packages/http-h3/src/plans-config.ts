/**
 * The plan table of `litho serve` and the admin commands: `LITHO_PLANS` (a JSON object, or the
 * path of a JSON file) and `LITHO_DEFAULT_PLAN`, the plan `litho users create` gives without
 * `--plan` (docs/quotas-and-plans.md, "Your own plans").
 *
 * @module plans-config
 */
import { readFileSync, statSync } from 'node:fs'
import { PLANS, parsePlanTable, type PlanId, type PlanTable } from '@litho/core'
import { ConfigError } from './config-error.js'

/** The plans a server offers and the one new users get. */
export interface PlanSettings {
  plans: PlanTable
  defaultPlan: PlanId
}

/** Largest `LITHO_PLANS` file read: a table of 100 plans is a few kB. */
export const MAX_PLANS_FILE_BYTES = 1024 * 1024

/**
 * Reads `LITHO_PLANS` (unset: the default `PLANS`) and `LITHO_DEFAULT_PLAN` (unset: `free`),
 * which must be a plan of the table.
 *
 * @throws ConfigError naming the variable, and for a bad table each bad field and why.
 * @example readPlanSettings({ LITHO_PLANS: '{"team":{"renders":500,"templates":null,"storageBytes":null}}', LITHO_DEFAULT_PLAN: 'team' })
 */
export function readPlanSettings(env: Record<string, string | undefined>): PlanSettings {
  const raw = env.LITHO_PLANS?.trim()
  const plans = raw ? readTable(raw) : PLANS
  const defaultPlan = env.LITHO_DEFAULT_PLAN?.trim() || 'free'
  if (!Object.hasOwn(plans, defaultPlan)) {
    const known = Object.keys(plans).join(', ')
    if (env.LITHO_DEFAULT_PLAN?.trim()) throw new ConfigError(`LITHO_DEFAULT_PLAN: ${JSON.stringify(defaultPlan)} is not a plan of ${raw ? 'LITHO_PLANS' : 'the default table'} (plans: ${known})`)
    throw new ConfigError(`LITHO_DEFAULT_PLAN: unset, so "free", which LITHO_PLANS does not define (plans: ${known}); set LITHO_DEFAULT_PLAN to one of them`)
  }
  return { plans, defaultPlan }
}

/** The table from JSON text (starting with `{`) or from the JSON file at that path. */
function readTable(raw: string): PlanTable {
  const fromFile = !raw.startsWith('{')
  let text = raw
  if (fromFile) {
    try {
      const stat = statSync(raw)
      // A device (/dev/zero) or a pipe would be read without end: only a regular file is.
      if (!stat.isFile()) throw new ConfigError(`LITHO_PLANS: ${JSON.stringify(raw)} is not a regular file; expected a JSON object or the path of a JSON file`)
      const size = stat.size
      if (size > MAX_PLANS_FILE_BYTES) throw new ConfigError(`LITHO_PLANS: the file ${JSON.stringify(raw)} has ${size} bytes, more than ${MAX_PLANS_FILE_BYTES}`)
      text = readFileSync(raw, 'utf8')
    } catch (error) {
      if (error instanceof ConfigError) throw error
      throw new ConfigError(`LITHO_PLANS: expected a JSON object or the path of a JSON file, and could not read the file ${JSON.stringify(raw)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
    }
  }
  let input: unknown
  try {
    input = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`LITHO_PLANS: ${fromFile ? `the file ${JSON.stringify(raw)} is` : 'is'} not valid JSON (${(error as Error).message})`)
  }
  try {
    return parsePlanTable(input)
  } catch (error) {
    throw new ConfigError(`LITHO_PLANS${fromFile ? ` (${raw})` : ''}: ${(error as Error).message}`)
  }
}
