/**
 * `litho designs export --email E --id ID [-o FILE] [--draft] [--data DIR]`: the user's design
 * as `{"name","design"}`, the record `litho designs import` reads back (so export, then import,
 * gives the same document). The published version by default, the draft with `--draft`; read
 * with `getDesign` of core, as `GET /designs/v2/{id}`. Without `-o` the record is the printed
 * JSON object; with `-o FILE` it is written there and `{"id","output"}` is printed.
 *
 * @module commands/designs-export
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { LithoError, getDesign } from '@litho/core'
import { findUser, printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { DESIGNS_EXPORT } from './definitions.js'
import { UsageError } from './usage-error.js'

/** Design ids, as every design store accepts them. */
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/

/** The `--id` of a design command, checked (internal: shared by the design commands). */
export function readDesignId(value: string | undefined, command: string): string {
  if (value === undefined) throw new UsageError(`${command} needs --id (the design ids: litho designs list --email E)`)
  if (!ID_RE.test(value)) throw new UsageError(`--id: expected a design id (1 to 64 of A-Z a-z 0-9 _ -), received ${JSON.stringify(value.slice(0, 80))}`)
  return value
}

/** `ERR_DESIGN_NOT_FOUND` as a CommandError; any other error as it is (internal). */
export function designNotFound(error: unknown, id: string, email: string): unknown {
  // Someone else's design is reported exactly like a missing one.
  if (LithoError.isInstance(error) && error.code === 'ERR_DESIGN_NOT_FOUND') return new CommandError(`no design ${id} owned by ${email} (the designs: litho designs list --email ${email})`, 'ERR_DESIGN_NOT_FOUND')
  return error
}

/**
 * Runs `litho designs export`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await designsExportCommand(['--email', 'ann@example.com', '--id', 'd_3Jx9Qm2LpZ7a', '-o', 'card.json'], io)
 */
export async function designsExportCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: DESIGNS_EXPORT.options })
  if (positionals.length > 0) throw new UsageError(`designs export takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'designs export')
  const id = readDesignId(values.id, 'designs export')
  if (values.output === '') throw new UsageError('--output: expected a file name, received ""')
  const record = await withBackends(values.data, io, async ({ accounts, designs }) => {
    const user = await findUser(accounts, email)
    try {
      return await getDesign({ designs }, { account: { id: user.id }, id })
    } catch (error) {
      throw designNotFound(error, id, email)
    }
  })
  const document = values.draft === true ? record.draft : record.design
  if (document === undefined || document === null) {
    throw new CommandError(values.draft === true ? `design ${id} has no draft (export the published version without --draft)` : `design ${id} is not published yet (export its draft with --draft)`, 'ERR_DESIGN_NOT_FOUND')
  }
  const exported = { name: record.name, design: document }
  if (values.output === undefined) {
    await printJson(io, exported)
    return 0
  }
  const output = resolve(values.output)
  await mkdir(dirname(output), { recursive: true })
  await writeFile(output, `${JSON.stringify(exported, null, 2)}\n`)
  await printJson(io, { id, output })
  return 0
}
