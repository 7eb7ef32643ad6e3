/**
 * `litho designs list --email E [--limit N] [--page N] [--data DIR]`: a page of the user's
 * designs, most recently updated first (`listDesigns` of core, as `GET /designs/v2`), each with
 * its render code and whether it is published and/or has a draft (`getDesign`, as
 * `GET /designs/v2/{id}`). Prints
 * `{"designs":[{"id","renderCode","name","published","draft","updatedAt"}],"page","totalPages","total"}`.
 *
 * @module commands/designs-list
 */
import { parseArgs } from 'node:util'
import { LithoError, MAX_PAGE, MAX_PAGE_SIZE, getDesign, listDesigns } from '@litho/core'
import { findUser, printJson, readEmail, readWholeNumber, withBackends, type AdminCommandIo } from './_admin.js'
import { DESIGNS_LIST } from './definitions.js'
import { UsageError } from './usage-error.js'

/**
 * Runs `litho designs list`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await designsListCommand(['--email', 'ann@example.com', '--limit', '20'], io)
 */
export async function designsListCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: DESIGNS_LIST.options })
  if (positionals.length > 0) throw new UsageError(`designs list takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'designs list')
  const limit = readWholeNumber('--limit', values.limit, { min: 1, max: MAX_PAGE_SIZE, fallback: MAX_PAGE_SIZE })
  const page = readWholeNumber('--page', values.page, { min: 1, max: MAX_PAGE, fallback: 1 })
  return withBackends(values.data, io, async ({ accounts, designs: store }) => {
    const user = await findUser(accounts, email)
    const account = { id: user.id }
    const list = await listDesigns({ designs: store }, { account, page, limit })
    const designs = []
    for (const item of list.docs) {
      try {
        const record = await getDesign({ designs: store }, { account, id: item._id })
        designs.push({ id: record._id, renderCode: record.renderCode, name: record.name, published: record.design !== null, draft: record.draft !== undefined, updatedAt: record.updatedAt })
      } catch (error) {
        // Deleted between the list and the read (the list may lag): left out.
        if (!(LithoError.isInstance(error) && error.code === 'ERR_DESIGN_NOT_FOUND')) throw error
      }
    }
    await printJson(io, { designs, page: list.page, totalPages: list.totalPages, total: list.totalDocs })
    return 0
  })
}
