/**
 * `litho assets upload FILE (--email E | --owner ID) [--name NAME] [--data DIR]`: stores an image
 * in the user's asset library (`uploadAsset` of core, as `POST /assets` and the MCP tool
 * `upload_asset`): the same checks and the same storage quota. Prints the asset, with the `ref`
 * (`asset:<id>`) a design's image `src` names.
 *
 * @module commands/assets-upload
 */
import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'
import { MAX_ASSET_BYTES, uploadAsset } from '@litho/core'
import { readPlanSettings } from '../plans-config.js'
import { clockOf, printJson, withBackends, type AdminCommandIo } from './_admin.js'
import { findOwner, readOwnerFlag } from './_asset-owner.js'
import { CommandError } from './command-error.js'
import { ASSETS_UPLOAD } from './definitions.js'
import { UsageError } from './usage-error.js'

/**
 * Runs `litho assets upload`. Returns the exit code; throws UsageError (exit 2), CommandError or LithoError (exit 1).
 *
 * @example await assetsUploadCommand(['logo.png', '--email', 'ann@example.com'], io)
 */
export async function assetsUploadCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: ASSETS_UPLOAD.options })
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'assets upload needs a FILE (an image)' : `assets upload takes one FILE, received ${positionals.length}`)
  const file = positionals[0]!
  const owner = readOwnerFlag(values, 'assets upload')
  const bytes = await readImage(file)
  const { plans } = readPlanSettings(io.env ?? process.env)
  return withBackends(values.data, io, async ({ accounts, assets, files, meter, designs }) => {
    const user = await findOwner(accounts, owner)
    const asset = await uploadAsset({ assets, files, meter, designs, plans, clock: clockOf(io) }, { account: { id: user.id, plan: user.plan }, name: values.name ?? basename(file), bytes })
    await printJson(io, asset)
    return 0
  })
}

/** The file's bytes; its size is checked first, so a huge file is refused without reading it. */
async function readImage(file: string): Promise<Uint8Array> {
  let size: number
  try {
    const info = await stat(file)
    if (!info.isFile()) throw new UsageError(`${file}: not a file`)
    size = info.size
  } catch (error) {
    // An unreadable FILE is a call gone wrong (exit 2), as for designs import.
    if (error instanceof UsageError) throw error
    throw new UsageError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  if (size > MAX_ASSET_BYTES) throw new CommandError(`${file}: the image is ${size} bytes, more than the limit of ${MAX_ASSET_BYTES} bytes`, 'ERR_ASSET_TOO_LARGE')
  return new Uint8Array(await readFile(file))
}
