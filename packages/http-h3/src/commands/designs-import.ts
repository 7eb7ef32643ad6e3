/**
 * `litho designs import --email E FILE [--publish] [--id ID] [--name NAME] [--data DIR]`:
 * stores a design document for a user and prints `{"id":"d_…","renderCode":"…"}`.
 *
 * - FILE is a DesignDocument or a `{ "name", "design" }` record; it is validated first (every
 *   problem is listed) and stored as written, not with defaults filled in.
 * - Without `--publish` it becomes the draft (the published version, if any, stays); with it,
 *   it becomes the published version and the draft is cleared.
 * - With `--id` it goes into that design of the user (id, render code and creation time kept);
 *   without, a new design is made, within the plan's template limit.
 *
 * @module commands/designs-import
 */
import { basename, extname } from 'node:path'
import { parseArgs } from 'node:util'
import { PLANS, createOwned, validateDesign } from '@litho/core'
import type { DesignRecord } from '@litho/core/contracts'
import { printJson, randomId, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { DESIGNS_IMPORT } from './definitions.js'
import { readDesignFile } from './_read-design-file.js'
import { UsageError } from './usage-error.js'

/** Design ids, as every design store accepts them. */
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/
/** A design name is a label shown in lists. */
const MAX_NAME_LENGTH = 200

/** Runs `litho designs import`. Returns the exit code; throws UsageError (exit 2), CommandError or LithoError (exit 1). */
export async function designsImportCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: DESIGNS_IMPORT.options,
  })
  const email = readEmail(values.email, 'designs import')
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'designs import needs a FILE (a design document)' : `designs import takes one FILE, received ${positionals.length}`)
  const file = positionals[0]!
  if (values.id !== undefined && !ID_RE.test(values.id)) throw new UsageError(`--id: expected a design id (1 to 64 of A-Z a-z 0-9 _ -), received ${JSON.stringify(values.id.slice(0, 80))}`)
  const flagName = values.name === undefined ? undefined : checkName('--name', values.name.trim(), UsageError)

  const { document, name: recordName } = await readDesignRecord(file)
  // Throws LithoError ERR_INVALID_DESIGN listing every problem, before any store is opened.
  validateDesign(document)

  return withBackends(values.data, io, async ({ accounts, designs, meter }) => {
    const user = await accounts.findUserByEmail(email)
    if (user === null) throw new CommandError(`no user with email ${email}`)
    const now = (io.now?.() ?? new Date()).toISOString()
    const content = values.publish ? { design: document, draft: null } : { draft: document }

    if (values.id !== undefined) {
      const stored = await designs.get(values.id)
      // Someone else's design is reported exactly like a missing one.
      if (stored === null || stored.ownerId !== user.id) throw new CommandError(`no design ${values.id} owned by ${email}`)
      const record: DesignRecord = { ...stored, ...content, name: flagName ?? recordName ?? stored.name, updatedAt: now }
      if (!(await designs.update(record))) throw new CommandError(`no design ${values.id} owned by ${email} (it was deleted meanwhile)`)
      await printJson(io, { id: record.id, renderCode: record.renderCode })
      return 0
    }

    const record: DesignRecord = {
      id: randomId('d_', 12),
      ownerId: user.id,
      name: flagName ?? recordName ?? checkName('the file name', basename(file, extname(file)) || basename(file), CommandError),
      renderCode: randomId('', 16),
      ...(values.publish ? { design: document, draft: null } : { design: null, draft: document }),
      createdAt: now,
      updatedAt: now,
    }
    const limit = PLANS[user.plan].templates
    // The same atomic count as the HTTP and MCP creates (quota/owned-count of @litho/core).
    const owned = { kind: 'designs' as const, owner: user.id, countExisting: async () => (await designs.listByOwner(user.id, { offset: 0, limit: 1 })).total }
    const outcome = await createOwned(meter, owned, { id: record.id, limit }, () => designs.create(record))
    if (!outcome.created) {
      throw new CommandError(`${email} is on the ${user.plan} plan, which allows ${limit} designs, and has ${outcome.count}; import into an existing one with --id, or move the user to a larger plan`)
    }
    await printJson(io, { id: record.id, renderCode: record.renderCode })
    return 0
  })
}

/** Reads FILE and checks the record's name, when it has one. */
async function readDesignRecord(file: string): Promise<{ document: unknown; name: string | undefined }> {
  const { document, name } = await readDesignFile(file)
  if (name === undefined || name === null) return { document, name: undefined }
  if (typeof name !== 'string') throw new CommandError(`${file}: expected "name" to be a string, received ${typeof name}`)
  return { document, name: name.trim() === '' ? undefined : checkName(`${file}: "name"`, name.trim(), CommandError) }
}

function checkName(what: string, name: string, ErrorClass: new (message: string) => Error): string {
  if (name === '' || name.length > MAX_NAME_LENGTH) throw new ErrorClass(`${what}: expected a design name of 1 to ${MAX_NAME_LENGTH} characters, received ${name.length}`)
  return name
}
