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
import { LithoError, createDesign, updateDesign, validateDesign } from '@litho/core'
import { readPlanSettings } from '../plans-config.js'
import { printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
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

  // The template limit of the user's plan comes from the server's table (LITHO_PLANS).
  const { plans } = readPlanSettings(io.env ?? process.env)
  return withBackends(values.data, io, async ({ accounts, designs, meter }) => {
    const user = await accounts.findUserByEmail(email)
    if (user === null) throw new CommandError(`no user with email ${email}`)
    // The same operations as the MCP tools and the HTTP routes (service/design-writes of
    // @litho/core): the atomic template count, the ids, the draft/publish rules live there.
    const services = { designs, meter, plans, clock: { now: () => io.now?.() ?? new Date() } }
    const publish = values.publish === true
    try {
      const written =
        values.id !== undefined
          ? await updateDesign(services, { account: { id: user.id }, id: values.id, document, publish, name: flagName ?? recordName })
          : await createDesign(services, {
              account: { id: user.id, plan: user.plan },
              name: flagName ?? recordName ?? checkName('the file name', basename(file, extname(file)) || basename(file), CommandError),
              document,
              publish,
            })
      await printJson(io, { id: written._id, renderCode: written.renderCode })
      return 0
    } catch (error) {
      // Someone else's design is reported exactly like a missing one.
      if (LithoError.isInstance(error) && error.code === 'ERR_DESIGN_NOT_FOUND') throw new CommandError(`no design ${values.id} owned by ${email}`)
      if (LithoError.isInstance(error) && error.code === 'ERR_UNKNOWN_PLAN') throw new CommandError(`${email}: ${error.message}`)
      if (LithoError.isInstance(error) && error.code === 'ERR_TEMPLATE_LIMIT') {
        const { limit, count } = error.details as { limit: number; count: number }
        throw new CommandError(`${email} is on the ${user.plan} plan, which allows ${limit} designs, and has ${count}; import into an existing one with --id, or move the user to a larger plan`)
      }
      throw error
    }
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
