/**
 * `litho keys revoke --email E --id KEY_ID [--data DIR]`: deletes one of the user's render
 * keys, as `DELETE /settings/api-keys/{id}` does (`revokeApiKey` of core): from then on it
 * authenticates nothing, on every server sharing the stores. Prints `{"revoked":true,"id":"key_…"}`.
 *
 * @module commands/keys-revoke
 */
import { parseArgs } from 'node:util'
import { LithoError, revokeApiKey } from '@litho/core'
import { findUser, printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { KEYS_REVOKE } from './definitions.js'
import { UsageError } from './usage-error.js'

/** Key ids, as every account store accepts them. */
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/

/**
 * Runs `litho keys revoke`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await keysRevokeCommand(['--email', 'ann@example.com', '--id', 'key_3Jx9Qm2LpZ7a'], io)
 */
export async function keysRevokeCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: KEYS_REVOKE.options })
  if (positionals.length > 0) throw new UsageError(`keys revoke takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'keys revoke')
  const id = values.id
  if (id === undefined) throw new UsageError('keys revoke needs --id (the key ids: litho keys list --email E)')
  if (!ID_RE.test(id)) throw new UsageError(`--id: expected a key id (1 to 64 of A-Z a-z 0-9 _ -), received ${JSON.stringify(id.slice(0, 80))}`)
  return withBackends(values.data, io, async ({ accounts, meter }) => {
    const user = await findUser(accounts, email)
    try {
      await revokeApiKey({ accounts, meter }, { account: { id: user.id }, id })
    } catch (error) {
      // Another user's key is reported exactly like a missing one.
      if (LithoError.isInstance(error) && error.code === 'ERR_KEY_NOT_FOUND') throw new CommandError(`no key ${id} of ${email} (the keys: litho keys list --email ${email})`, 'ERR_KEY_NOT_FOUND')
      throw error
    }
    await printJson(io, { revoked: true, id })
    return 0
  })
}
