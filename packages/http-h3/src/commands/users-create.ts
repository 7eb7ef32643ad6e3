/**
 * `litho users create --email E --password P [--plan free|basic|pro|unlimited] [--data DIR]`:
 * creates an account and prints `{"userId":"u_…","plan":"free"}`.
 *
 * @module commands/users-create
 */
import { parseArgs } from 'node:util'
import { hashPassword } from '@litho/auth-adapters'
import { isPlanId, LithoError, PLANS, type PlanId } from '@litho/core'
import type { UserRecord } from '@litho/core/contracts'
import { DATA_OPTION, printJson, randomId, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { UsageError } from './usage-error.js'

/** Shorter passwords are refused: the sign-in page is the only thing between them and an account. */
const MIN_PASSWORD_LENGTH = 8
/** hashPassword's bound (bytes), checked here for a clear message. */
const MAX_PASSWORD_BYTES = 1024

/** Runs `litho users create`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1). */
export async function usersCreateCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { email: { type: 'string' }, password: { type: 'string' }, plan: { type: 'string' }, ...DATA_OPTION },
  })
  if (positionals.length > 0) throw new UsageError(`users create takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'users create')
  const password = values.password
  if (password === undefined) throw new UsageError('users create needs --password')
  // The password itself never appears in a message.
  if ([...password].length < MIN_PASSWORD_LENGTH) throw new UsageError(`--password: expected at least ${MIN_PASSWORD_LENGTH} characters`)
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) throw new UsageError(`--password: expected at most ${MAX_PASSWORD_BYTES} bytes`)
  const plan = values.plan ?? 'free'
  if (!isPlanId(plan)) throw new UsageError(`--plan: expected one of ${Object.keys(PLANS).join(', ')}, received ${JSON.stringify(plan)}`)

  return withBackends(values.data, io, async ({ accounts }) => {
    if ((await accounts.findUserByEmail(email)) !== null) throw new CommandError(`a user with email ${email} already exists`)
    const now = (io.now?.() ?? new Date()).toISOString()
    const user: UserRecord = { id: randomId('u_', 16), email, passwordHash: await hashPassword(password), plan: plan as PlanId, createdAt: now, updatedAt: now }
    try {
      await accounts.createUser(user)
    } catch (error) {
      // Another process created the same email between the check and the write.
      if (LithoError.isInstance(error) && error.code === 'ERR_STORE_CONFLICT' && error.details.field === 'email') throw new CommandError(`a user with email ${email} already exists`)
      throw error
    }
    await printJson(io, { userId: user.id, plan: user.plan })
    return 0
  })
}
