/**
 * `litho assets list (--email E | --owner ID) [--limit N] [--page N] [--data DIR]`: a page of the
 * user's assets, newest first (`listAssets` of core, as `GET /assets`). Prints
 * `{"assets":[{"id","name","contentType","width","height","bytes","createdAt","ref"}],"page","totalPages","total"}`.
 *
 * @module commands/assets-list
 */
import { parseArgs } from 'node:util'
import { MAX_PAGE, MAX_PAGE_SIZE, listAssets } from '@litho/core'
import { printJson, readWholeNumber, withBackends, type AdminCommandIo } from './_admin.js'
import { findOwner, readOwnerFlag } from './_asset-owner.js'
import { ASSETS_LIST } from './definitions.js'
import { UsageError } from './usage-error.js'

/**
 * Runs `litho assets list`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await assetsListCommand(['--email', 'ann@example.com'], io)
 */
export async function assetsListCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: ASSETS_LIST.options })
  if (positionals.length > 0) throw new UsageError(`assets list takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const owner = readOwnerFlag(values, 'assets list')
  const limit = readWholeNumber('--limit', values.limit, { min: 1, max: MAX_PAGE_SIZE, fallback: MAX_PAGE_SIZE })
  const page = readWholeNumber('--page', values.page, { min: 1, max: MAX_PAGE, fallback: 1 })
  return withBackends(values.data, io, async ({ accounts, assets }) => {
    const user = await findOwner(accounts, owner)
    const list = await listAssets({ assets }, { account: { id: user.id }, page, limit })
    await printJson(io, { assets: list.docs, page: list.page, totalPages: list.totalPages, total: list.totalDocs })
    return 0
  })
}
