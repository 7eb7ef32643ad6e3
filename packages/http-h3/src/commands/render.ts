/**
 * `litho render FILE [--set key.field=value]… [--format png] [--quality 80] [--variation ID] [-o OUT]`:
 * renders a design document in-process (no server, no quota).
 *
 * @module commands/render
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { createRenderer, OUTPUT_FORMATS, type OutputFormat } from '@litho/core'
import { readDesignFile } from './_read-design-file.js'
import { RENDER } from './definitions.js'
import { UsageError } from './usage-error.js'

/** What `render` needs from its surroundings (so tests can run it without a process). */
export interface RenderCommandIo {
  writeStdout(bytes: Uint8Array | string): Promise<void> | void
  writeStderr(text: string): void
}

/** Runs `litho render`. Returns the process exit code. */
export async function renderCommand(argv: string[], io: RenderCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: RENDER.options,
  })
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'render needs a FILE (a design document)' : `render takes one FILE, received ${positionals.length}`)
  const file = positionals[0]!

  const format = (values.format ?? 'png') as OutputFormat
  if (!OUTPUT_FORMATS.includes(format)) throw new UsageError(`--format: expected one of ${OUTPUT_FORMATS.join(', ')}, received "${values.format}"`)
  let quality: number | undefined
  if (values.quality !== undefined) {
    if (!/^\d+$/.test(values.quality)) throw new UsageError(`--quality: expected a whole number between 1 and 100, received "${values.quality}"`)
    quality = Number(values.quality)
  }
  const overrides = new URLSearchParams()
  for (const pair of values.set ?? []) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new UsageError(`--set: expected key.field=value, received "${pair}"`)
    overrides.append(pair.slice(0, eq), pair.slice(eq + 1))
  }

  const { document } = await readDesignFile(file)

  const renderer = createRenderer()
  try {
    const result = await renderer.render(document, { format, overrides, ...(quality === undefined ? {} : { quality }), ...(values.variation ? { variation: values.variation } : {}) })
    for (const warning of result.warnings) io.writeStderr(`warning: ${warning.message}\n`)
    if (values.output) {
      await mkdir(dirname(values.output), { recursive: true })
      await writeFile(values.output, result.bytes)
      await io.writeStdout(
        `${JSON.stringify({ file: values.output, format: result.format, contentType: result.contentType, width: result.width, height: result.height, variation: result.variation, bytes: result.bytes.length, warnings: result.warnings.map((w) => w.message) })}\n`,
      )
    } else {
      await io.writeStdout(result.bytes)
    }
    return 0
  } finally {
    await renderer.close()
  }
}
