/**
 * `litho users delete --email E --yes [--force] [--data DIR]`: deletes a user for good.
 *
 * - Their render keys are revoked first (`revokeApiKey` of core, as
 *   `DELETE /settings/api-keys/{id}`), so no key of a deleted user ever renders again.
 * - A user who owns designs is refused (exit 1, `ERR_USER_HAS_DESIGNS`) unless `--force`, which
 *   deletes each design (`deleteDesign` of core, as `DELETE /designs/v2/{id}`): their render
 *   URLs answer 404 at once.
 * - Then the account itself: its access tokens stop working (bearer routes answer 401: the
 *   account no longer exists) and the email can be used again.
 * - Stored renders (hosted and signed files) are not indexed by user: they stay until they
 *   expire or `litho gc` sweeps them under the retention. The meter's counts (usage history)
 *   are kept by user id and simply no longer read.
 *
 * Prints `{"deleted":true,"userId","keys":N,"designs":N}`. Without `--yes` nothing is done (exit 2).
 *
 * @module commands/users-delete
 */
import { parseArgs } from 'node:util'
import { LithoError, MAX_PAGE_SIZE, deleteDesign, revokeApiKey } from '@litho/core'
import { findUser, printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { USERS_DELETE } from './definitions.js'
import { UsageError } from './usage-error.js'

/**
 * Runs `litho users delete`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await usersDeleteCommand(['--email', 'ann@example.com', '--yes', '--force'], io)
 */
export async function usersDeleteCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: USERS_DELETE.options })
  if (positionals.length > 0) throw new UsageError(`users delete takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'users delete')
  if (values.yes !== true) throw new UsageError(`users delete needs --yes: ${email}, their render keys${values.force === true ? ' and designs' : ''} are deleted for good`)
  return withBackends(values.data, io, async ({ accounts, designs, meter }) => {
    if (!accounts.deleteUser) throw new CommandError(`the ${accounts.name} account store cannot delete users (it has no deleteUser)`, 'ERR_UNSUPPORTED')
    const user = await findUser(accounts, email)
    const account = { id: user.id }
    const owned = await designs.listByOwner(user.id, { offset: 0, limit: 1 })
    if (owned.total > 0 && values.force !== true) {
      throw new CommandError(`${email} owns ${owned.total} design${owned.total === 1 ? '' : 's'}: export what should be kept (litho designs export), then add --force to delete them with the user`, 'ERR_USER_HAS_DESIGNS')
    }
    // Keys first: from the first step on, nothing of this user renders by key.
    let keys = 0
    for (let page = await accounts.listKeys(user.id, { limit: MAX_PAGE_SIZE }); page.length > 0; page = await accounts.listKeys(user.id, { limit: MAX_PAGE_SIZE })) {
      for (const key of page) {
        await revokeApiKey({ accounts, meter }, { account, id: key.id })
        keys++
      }
    }
    let deletedDesigns = 0
    // Always the first page: each pass deletes what it lists (a list may lag: re-read until empty).
    for (let page = await designs.listByOwner(user.id, { offset: 0, limit: MAX_PAGE_SIZE }); page.items.length > 0; page = await designs.listByOwner(user.id, { offset: 0, limit: MAX_PAGE_SIZE })) {
      let progress = 0
      for (const item of page.items) {
        try {
          await deleteDesign({ designs, meter }, { account, id: item.id })
          progress++
        } catch (error) {
          // Deleted meanwhile (the list lags): nothing left to do for it. Anything else stops here, the user kept.
          if (!(LithoError.isInstance(error) && error.code === 'ERR_DESIGN_NOT_FOUND')) throw error
        }
      }
      deletedDesigns += progress
      if (progress === 0) throw new CommandError(`the design list of ${email} still shows designs that cannot be deleted (a lagging list?): try again in a moment; the user is kept`)
    }
    await accounts.deleteUser(user.id)
    await printJson(io, { deleted: true, userId: user.id, keys, designs: deletedDesigns })
    return 0
  })
}
