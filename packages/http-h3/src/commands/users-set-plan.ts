/**
 * `litho users set-plan --email E --plan P [--data DIR]`: moves a user to another plan of the
 * server's table (`LITHO_PLANS`, else free, basic, pro, unlimited) and prints
 * `{"userId":"u_…","plan":"pro","previousPlan":"free"}`. The usage counted so far stays: the
 * counters are kept by account and window, not by plan (docs/quotas-and-plans.md).
 *
 * @module commands/users-set-plan
 */
import { parseArgs } from 'node:util'
import { isPlanId } from '@litho/core'
import { readPlanSettings } from '../plans-config.js'
import { printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { USERS_SET_PLAN } from './definitions.js'
import { UsageError } from './usage-error.js'

/**
 * Runs `litho users set-plan`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await usersSetPlanCommand(['--email', 'ann@example.com', '--plan', 'pro'], { writeStdout, writeStderr })
 */
export async function usersSetPlanCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: USERS_SET_PLAN.options })
  if (positionals.length > 0) throw new UsageError(`users set-plan takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'users set-plan')
  const { plans } = readPlanSettings(io.env ?? process.env)
  const plan = values.plan
  if (plan === undefined) throw new UsageError(`users set-plan needs --plan (plans of this server: ${Object.keys(plans).join(', ')})`)
  if (!isPlanId(plan, plans)) throw new UsageError(`--plan: expected a plan of this server (${Object.keys(plans).join(', ')}), received ${JSON.stringify(plan)}`)

  return withBackends(values.data, io, async ({ accounts }) => {
    const user = await accounts.findUserByEmail(email)
    if (user === null) throw new CommandError(`no user with email ${email} (create one with: litho users create --email ${email})`)
    const updatedAt = (io.now?.() ?? new Date()).toISOString()
    await accounts.updateUser({ ...user, plan, updatedAt })
    await printJson(io, { userId: user.id, plan, previousPlan: user.plan })
    return 0
  })
}
