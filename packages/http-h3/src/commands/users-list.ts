/**
 * `litho users list [--limit N] [--after CURSOR] [--data DIR]`: a page of users in id order,
 * as `{"users":[{"id","email","plan","createdAt"}],"next":"u_…"|null}`; `next` is the
 * `--after` of the following page (null after the last). Never a password hash: only those
 * four fields are copied out of each record.
 *
 * @module commands/users-list
 */
import { parseArgs } from 'node:util'
import { printJson, readWholeNumber, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { USERS_LIST } from './definitions.js'
import { UsageError } from './usage-error.js'

/** User ids, as every account store accepts them: the cursor is one. */
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/

/**
 * Runs `litho users list`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await usersListCommand(['--limit', '50'], io)
 */
export async function usersListCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: USERS_LIST.options })
  if (positionals.length > 0) throw new UsageError(`users list takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const limit = readWholeNumber('--limit', values.limit, { min: 1, max: 100, fallback: 100 })
  const after = values.after
  if (after !== undefined && !ID_RE.test(after)) throw new UsageError(`--after: expected the "next" of a previous page (a user id), received ${JSON.stringify(after.slice(0, 80))}`)
  return withBackends(values.data, io, async ({ accounts }) => {
    if (!accounts.listUsers) throw new CommandError(`the ${accounts.name} account store cannot list users (it has no listUsers)`, 'ERR_UNSUPPORTED')
    const page = await accounts.listUsers({ limit, ...(after === undefined ? {} : { after }) })
    const users = page.users.map((user) => ({ id: user.id, email: user.email, plan: user.plan, createdAt: user.createdAt }))
    await printJson(io, { users, next: page.next })
    return 0
  })
}
