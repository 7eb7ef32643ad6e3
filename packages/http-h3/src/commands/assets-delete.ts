/**
 * `litho assets delete ID (--email E | --owner ID) [--force] [--data DIR]`: deletes one of the
 * user's assets (`deleteAsset` of core, as `DELETE /assets/{id}`), giving its bytes back to the
 * plan's storage; refused while a published design draws it, unless `--force`. Prints
 * `{"deleted":true,"id":"a_…"}`.
 *
 * @module commands/assets-delete
 */
import { parseArgs } from 'node:util'
import { LithoError, deleteAsset } from '@litho/core'
import { printJson, withBackends, type AdminCommandIo } from './_admin.js'
import { findOwner, readOwnerFlag } from './_asset-owner.js'
import { CommandError } from './command-error.js'
import { ASSETS_DELETE } from './definitions.js'
import { UsageError } from './usage-error.js'

/**
 * Runs `litho assets delete`. Returns the exit code; throws UsageError (exit 2), CommandError or LithoError (exit 1).
 *
 * @example await assetsDeleteCommand(['a_3Jx9Qm2LpZ7aK4tW', '--email', 'ann@example.com'], io)
 */
export async function assetsDeleteCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: ASSETS_DELETE.options })
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'assets delete needs the asset ID (from assets list)' : `assets delete takes one ID, received ${positionals.length}`)
  const id = positionals[0]!
  const owner = readOwnerFlag(values, 'assets delete')
  return withBackends(values.data, io, async ({ accounts, assets, files, meter, designs }) => {
    const user = await findOwner(accounts, owner)
    try {
      await printJson(io, await deleteAsset({ assets, files, meter, designs }, { account: { id: user.id }, id, force: values.force === true }))
    } catch (error) {
      if (LithoError.isInstance(error) && error.code === 'ERR_ASSET_IN_USE') throw new CommandError(`${error.message.replace('force=true', '--force')}`, error.code)
      throw error
    }
    return 0
  })
}
