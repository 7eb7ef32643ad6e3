/**
 * `litho users create --email E [--password-stdin | --password P] [--plan PLAN] [--data DIR]`:
 * creates an account and prints `{"userId":"u_…","plan":"free"}`. The plan is one of the
 * server's table (`LITHO_PLANS`, else free, basic, pro, unlimited); without `--plan`,
 * `LITHO_DEFAULT_PLAN` (else `free`). The password comes from stdin
 * (`--password-stdin`), else from a prompt with echo off when stdin is a terminal; `--password`
 * still works but warns, since a command line is visible to every local user.
 *
 * @module commands/users-create
 */
import { parseArgs } from 'node:util'
import { hashPassword } from '@litho/auth-adapters'
import { isPlanId, LithoError } from '@litho/core'
import type { UserRecord } from '@litho/core/contracts'
import { readPlanSettings } from '../plans-config.js'
import { printJson, randomId, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { promptPassword, readPasswordFromPipe, type PasswordStdin } from './_password-input.js'
import { CommandError } from './command-error.js'
import { USERS_CREATE } from './definitions.js'
import { UsageError } from './usage-error.js'

/** Shorter passwords are refused: the sign-in page is the only thing between them and an account. */
const MIN_PASSWORD_LENGTH = 8
/** hashPassword's bound (bytes), checked here for a clear message. */
const MAX_PASSWORD_BYTES = 1024

/** What `users create` reads beyond the other admin commands: stdin, for the password. */
export interface UsersCreateIo extends AdminCommandIo {
  /** Where `--password-stdin` and the prompt read. @default process.stdin */
  stdin?: PasswordStdin
}

/** The warning for `--password`: `ps`, /proc/<pid>/cmdline and shell history show it. */
const PASSWORD_FLAG_WARNING =
  'litho: warning: --password is visible to other local users (ps, /proc) and may stay in your shell history; use --password-stdin or the prompt instead\n'

/**
 * Runs `litho users create`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await usersCreateCommand(['--email', 'ann@example.com', '--password-stdin'], { writeStdout, writeStderr, stdin: process.stdin })
 */
export async function usersCreateCommand(argv: string[], io: UsersCreateIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: USERS_CREATE.options,
  })
  if (positionals.length > 0) throw new UsageError(`users create takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'users create')
  // A bad LITHO_PLANS or LITHO_DEFAULT_PLAN is a ConfigError naming the variable.
  const { plans, defaultPlan } = readPlanSettings(io.env ?? process.env)
  const plan = values.plan ?? defaultPlan
  if (!isPlanId(plan, plans)) throw new UsageError(`--plan: expected a plan of this server (${Object.keys(plans).join(', ')}), received ${JSON.stringify(plan)}`)
  const { password, source } = await readPassword(values.password, values['password-stdin'] === true, io)
  // The password itself never appears in a message.
  if ([...password].length < MIN_PASSWORD_LENGTH) throw new UsageError(`${source}: expected at least ${MIN_PASSWORD_LENGTH} characters`)
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) throw new UsageError(`${source}: expected at most ${MAX_PASSWORD_BYTES} bytes`)

  return withBackends(values.data, io, async ({ accounts }) => {
    if ((await accounts.findUserByEmail(email)) !== null) throw new CommandError(`a user with email ${email} already exists`)
    const now = (io.now?.() ?? new Date()).toISOString()
    const user: UserRecord = { id: randomId('u_', 16), email, passwordHash: await hashPassword(password), plan, createdAt: now, updatedAt: now }
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

/** The password and the name of where it came from (for messages): the flag, the pipe or the prompt. */
async function readPassword(flag: string | undefined, fromStdin: boolean, io: UsersCreateIo): Promise<{ password: string; source: string }> {
  if (flag !== undefined && fromStdin) throw new UsageError('--password and --password-stdin: expected one of them, received both')
  if (flag !== undefined) {
    io.writeStderr(PASSWORD_FLAG_WARNING)
    return { password: flag, source: '--password' }
  }
  const stdin = io.stdin ?? process.stdin
  if (stdin.isTTY === true) {
    // A terminal: never read it as a pipe (that would echo), prompt with echo off instead.
    return { password: await promptPassword(stdin, { write: (text) => io.writeStderr(text) }), source: 'the password' }
  }
  if (fromStdin) return { password: await readPasswordFromPipe(stdin, MAX_PASSWORD_BYTES), source: '--password-stdin' }
  throw new UsageError('users create needs a password: pipe it with --password-stdin, or run the command in a terminal to be asked for it')
}
