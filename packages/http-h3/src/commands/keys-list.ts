/**
 * `litho keys list --email E [--data DIR]`: the user's render keys, newest first, as
 * `{"keys":[{"id","prefix","name","createdAt","lastUsedAt","active"}]}`: the same operation as
 * `GET /settings/api-keys`, so never a secret or a hash. An account holds at most
 * `MAX_API_KEYS` (100) keys, so one page lists them all.
 *
 * @module commands/keys-list
 */
import { parseArgs } from 'node:util'
import { MAX_API_KEYS, listApiKeys } from '@litho/core'
import { findUser, printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { KEYS_LIST } from './definitions.js'
import { UsageError } from './usage-error.js'

/**
 * Runs `litho keys list`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await keysListCommand(['--email', 'ann@example.com'], io)
 */
export async function keysListCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: KEYS_LIST.options })
  if (positionals.length > 0) throw new UsageError(`keys list takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'keys list')
  return withBackends(values.data, io, async ({ accounts, meter }) => {
    const user = await findUser(accounts, email)
    const { docs } = await listApiKeys({ accounts, meter }, { account: { id: user.id }, page: 1, limit: MAX_API_KEYS })
    // Chosen fields only: nothing the key list does not show.
    const keys = docs.map((key) => ({ id: key._id, prefix: key.prefix, name: key.name, createdAt: key.createdAt, lastUsedAt: key.lastUsedAt ?? null, active: key.active }))
    await printJson(io, { keys })
    return 0
  })
}
