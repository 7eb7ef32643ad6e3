/**
 * `litho keys create --email E [--name N] [--data DIR]`: creates a render key for a user and
 * prints `{"id":"key_…","key":"lk_…"}`, the only time the secret is shown (only its hash is stored).
 *
 * @module commands/keys-create
 */
import { parseArgs } from 'node:util'
import { createRenderKey } from '@litho/auth-adapters'
import type { KeyRecord } from '@litho/core/contracts'
import { DATA_OPTION, printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { UsageError } from './usage-error.js'

/** The account store's bound on a key name: a label, not a document. */
const MAX_NAME_LENGTH = 200

/** Runs `litho keys create`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1). */
export async function keysCreateCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' }, ...DATA_OPTION },
  })
  if (positionals.length > 0) throw new UsageError(`keys create takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'keys create')
  const name = (values.name ?? 'Default').trim()
  if (name === '' || name.length > MAX_NAME_LENGTH) throw new UsageError(`--name: expected 1 to ${MAX_NAME_LENGTH} characters, received ${name === '' ? 'none' : `${name.length}`}`)

  return withBackends(values.data, io, async ({ accounts }) => {
    const user = await accounts.findUserByEmail(email)
    if (user === null) throw new CommandError(`no user with email ${email} (create one with: litho users create --email ${email} --password …)`)
    const key = createRenderKey()
    const record: KeyRecord = {
      id: key.id,
      userId: user.id,
      name,
      hash: key.hash,
      prefix: key.displayPrefix,
      active: true,
      createdAt: (io.now?.() ?? new Date()).toISOString(),
      lastUsedAt: null,
    }
    await accounts.createKey(record)
    await printJson(io, { id: key.id, key: key.secret })
    return 0
  })
}
