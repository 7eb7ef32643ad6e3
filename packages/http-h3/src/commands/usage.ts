/**
 * `litho usage --email E [--from ISO] [--to ISO] [--group-by UNIT] [--data DIR]`: the user's
 * render counts over `[from, to)` in UTC buckets and their stored bytes, the same numbers as
 * `GET /analytics/api` (`getUsage` of core), plus their plan's render quota in the current
 * window: `{"success","groupBy","start","end","total","buckets","storage","plan":{"id","renders","window","windowId","used","remaining","resetAt"}}`.
 *
 * @module commands/usage
 */
import { parseArgs } from 'node:util'
import { LithoError, getUsage, parseUsageParams, quotaWindow } from '@litho/core'
import { readPlanSettings } from '../plans-config.js'
import { clockOf, findUser, printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { USAGE } from './definitions.js'
import { UsageError } from './usage-error.js'

/** The query parameter of `GET /analytics/api` each flag is. */
const FLAG_OF: Readonly<Record<string, string>> = { start: '--from', end: '--to', groupBy: '--group-by' }

/**
 * Runs `litho usage`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await usageCommand(['--email', 'ann@example.com', '--from', '2026-11-01', '--group-by', 'week'], io)
 */
export async function usageCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: USAGE.options })
  if (positionals.length > 0) throw new UsageError(`usage takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'usage')
  const now = clockOf(io).now()
  const query = new URLSearchParams()
  if (values.from !== undefined) query.set('start', values.from)
  if (values.to !== undefined) query.set('end', values.to)
  if (values['group-by'] !== undefined) query.set('groupBy', values['group-by'])
  let params
  try {
    // The same checks as the HTTP query, reported with the flags' names.
    params = parseUsageParams(query, now)
  } catch (error) {
    if (LithoError.isInstance(error) && error.code === 'ERR_INVALID_REQUEST') throw new UsageError(error.issues.map((issue) => `${FLAG_OF[issue.path] ?? issue.path}: ${issue.message}`).join('; '))
    throw error
  }
  const { plans } = readPlanSettings(io.env ?? process.env)
  return withBackends(values.data, io, async ({ accounts, meter }) => {
    const user = await findUser(accounts, email)
    const plan = plans[user.plan]
    if (plan === undefined) throw new CommandError(`${email} is on the plan ${JSON.stringify(user.plan)}, which this server's table does not define (plans: ${Object.keys(plans).join(', ')}); move them with litho users set-plan`, 'ERR_UNKNOWN_PLAN')
    const usage = await getUsage({ meter, plans }, { account: { id: user.id, plan: user.plan }, ...params })
    // The render window counted now, as the render routes meter it.
    const window = quotaWindow(now, plan.window)
    const used = await meter.usage({ subject: user.id, window: window.id })
    const remaining = plan.renders === null ? null : Math.max(0, plan.renders - used)
    await printJson(io, { ...usage, plan: { id: user.plan, renders: plan.renders, window: plan.window, windowId: window.id, used, remaining, resetAt: window.resetAt.toISOString() } })
    return 0
  })
}
