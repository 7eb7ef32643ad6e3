/**
 * The output options of a render: their defaults (defined in contracts/defaults) and their check.
 *
 * @module render/defaults
 */
import { LithoError } from '../errors.js'
import { DEFAULT_FORMAT, DEFAULT_QUALITY } from '../contracts/defaults.js'
import { OUTPUT_FORMATS, type OutputFormat } from './types.js'

export { BULK_DEFAULT_FORMAT, DEFAULT_FORMAT, DEFAULT_QUALITY, EXPORT_DEFAULT_FORMAT, MASTER_VARIATION } from '../contracts/defaults.js'

/** A render's output options, checked and with their defaults, e.g. `{ format: 'png', quality: 80 }`. */
export interface OutputOptions {
  format: OutputFormat
  quality: number
  /** Also return every visible component's box (`RenderResult.layout`); cached static layers give theirs from the cache. */
  layout?: boolean
}

/**
 * Checks and defaults the format and quality of a render.
 *
 * @throws LithoError `ERR_INVALID_RENDER_OPTION` naming the option, what was expected and what was received.
 * @example resolveOutputOptions({ format: 'png' }) // { format: 'png', quality: 80 }
 */
export function resolveOutputOptions(options: { format?: OutputFormat | undefined; quality?: number | undefined; layout?: boolean | undefined }): OutputOptions {
  const format = options.format ?? DEFAULT_FORMAT
  if (!OUTPUT_FORMATS.includes(format))
    throw new LithoError('ERR_INVALID_RENDER_OPTION', `format: expected one of ${OUTPUT_FORMATS.join(', ')}, received ${JSON.stringify(format)}`, {
      issues: [{ path: 'format', message: `expected one of ${OUTPUT_FORMATS.join(', ')}` }],
    })
  const quality = options.quality ?? DEFAULT_QUALITY
  if (typeof quality !== 'number' || !Number.isInteger(quality) || quality < 1 || quality > 100)
    throw new LithoError('ERR_INVALID_RENDER_OPTION', `quality: expected a whole number between 1 and 100, received ${JSON.stringify(quality)}`, {
      issues: [{ path: 'quality', message: 'expected a whole number between 1 and 100' }],
    })
  return options.layout === true ? { format, quality, layout: true } : { format, quality }
}
