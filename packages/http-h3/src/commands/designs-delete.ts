/**
 * `litho designs delete --email E --id ID [--data DIR]`: deletes one of the user's designs,
 * published version and draft, as `DELETE /designs/v2/{id}` and the MCP tool `delete_design`
 * do (`deleteDesign` of core, which also gives back its unit of the plan's design count): its
 * render URL answers 404 at once. Prints `{"deleted":true,"id":"d_…"}`.
 *
 * @module commands/designs-delete
 */
import { parseArgs } from 'node:util'
import { deleteDesign } from '@litho/core'
import { findUser, printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { DESIGNS_DELETE } from './definitions.js'
import { designNotFound, readDesignId } from './designs-export.js'
import { UsageError } from './usage-error.js'

/**
 * Runs `litho designs delete`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await designsDeleteCommand(['--email', 'ann@example.com', '--id', 'd_3Jx9Qm2LpZ7a'], io)
 */
export async function designsDeleteCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: DESIGNS_DELETE.options })
  if (positionals.length > 0) throw new UsageError(`designs delete takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'designs delete')
  const id = readDesignId(values.id, 'designs delete')
  return withBackends(values.data, io, async ({ accounts, designs, meter }) => {
    const user = await findUser(accounts, email)
    try {
      await deleteDesign({ designs, meter }, { account: { id: user.id }, id })
    } catch (error) {
      throw designNotFound(error, id, email)
    }
    await printJson(io, { deleted: true, id })
    return 0
  })
}
