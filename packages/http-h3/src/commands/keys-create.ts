/**
 * `litho keys create --email E [--name N] [--data DIR]`: creates a render key for a user and
 * prints `{"id":"key_…","key":"lk_…","linkSecret":"lks_…"}`, the only time the secret (only its
 * hash is stored) and the link secret of signed render links (docs/signed-render-links.md) are shown.
 *
 * @module commands/keys-create
 */
import { parseArgs } from 'node:util'
import { createRenderKey } from '@litho/auth-adapters'
import { DEFAULT_KEY_NAME, LithoError, MAX_KEY_NAME_LENGTH, createApiKey } from '@litho/core'
import { printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { KEYS_CREATE } from './definitions.js'
import { UsageError } from './usage-error.js'

/** Runs `litho keys create`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1). */
export async function keysCreateCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: KEYS_CREATE.options,
  })
  if (positionals.length > 0) throw new UsageError(`keys create takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'keys create')
  // The same rules as POST /settings/api-keys: one operation, one set of limits.
  const name = (values.name ?? DEFAULT_KEY_NAME).trim()
  if (name === '' || name.length > MAX_KEY_NAME_LENGTH) throw new UsageError(`--name: expected 1 to ${MAX_KEY_NAME_LENGTH} characters, received ${name === '' ? 'none' : `${name.length}`}`)

  return withBackends(values.data, io, async ({ accounts, meter, renderLinks }) => {
    const user = await accounts.findUserByEmail(email)
    if (user === null) throw new CommandError(`no user with email ${email} (create one with: litho users create --email ${email})`)
    try {
      const services = { accounts, meter, clock: { now: () => io.now?.() ?? new Date() }, ...(renderLinks ? { renderLinks } : {}) }
      const created = await createApiKey(services, { account: user, name, newKey: createRenderKey })
      await printJson(io, { id: created._id, key: created.key, ...(created.linkSecret ? { linkSecret: created.linkSecret } : {}) })
    } catch (error) {
      // A bad name (control characters) or the per-account limit: a message, not a stack.
      if (LithoError.isInstance(error) && error.code === 'ERR_INVALID_REQUEST') throw new CommandError(error.issues.map((i) => `${i.path ? `--name: ` : ''}${i.message}`).join('; ') || error.message)
      throw error
    }
    return 0
  })
}
