/**
 * `litho keys link-secret --email E --id KEY_ID [--data DIR]`: gives a render key a new link
 * secret (docs/signed-render-links.md) and prints `{"id","linkSecret"}`, the only time it is
 * shown. Links signed with the previous secret stop working; the key itself keeps working.
 * The same operation as `POST /settings/api-keys/:id/link-secret`.
 *
 * @module commands/keys-link-secret
 */
import { parseArgs } from 'node:util'
import { LithoError, rotateRenderLinkSecret } from '@litho/core'
import { printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { KEYS_LINK_SECRET } from './definitions.js'
import { UsageError } from './usage-error.js'

/** Runs `litho keys link-secret`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1). */
export async function keysLinkSecretCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: KEYS_LINK_SECRET.options })
  if (positionals.length > 0) throw new UsageError(`keys link-secret takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'keys link-secret')
  if (values.id === undefined) throw new UsageError('keys link-secret needs --id (the key id)')
  const id = values.id

  return withBackends(values.data, io, async ({ accounts, renderLinks }) => {
    const user = await accounts.findUserByEmail(email)
    if (user === null) throw new CommandError(`no user with email ${email}`)
    try {
      const rotated = await rotateRenderLinkSecret({ accounts, ...(renderLinks ? { renderLinks } : {}) }, { account: user, id })
      await printJson(io, { id: rotated._id, linkSecret: rotated.linkSecret })
    } catch (error) {
      if (LithoError.isInstance(error) && error.code === 'ERR_KEY_NOT_FOUND') throw new CommandError(`--id: ${email} has no render key with the id ${JSON.stringify(id.slice(0, 64))}`)
      throw error
    }
    return 0
  })
}
