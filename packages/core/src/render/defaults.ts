/**
 * The defaults of a render, in one place: every entry (the renderer, the pool, the render, bulk
 * and export operations, the HTTP parameters' documentation) reads them from here.
 *
 * @module render/defaults
 */
import { LithoError } from '../errors.js'
import { OUTPUT_FORMATS, type OutputFormat } from './types.js'

/** Format of a render that names none: `jpeg`, the default of the render endpoints. */
export const DEFAULT_FORMAT: OutputFormat = 'jpeg'
/** JPEG quality of a render that names none (1-100; the other formats ignore it). */
export const DEFAULT_QUALITY = 80
/** The id of the base size of a design, offered by every design and used when no variation is named. */
export const MASTER_VARIATION = 'master'
/**
 * Format of a bulk item when neither the item nor the request names one: `jpeg`, the default
 * of the render endpoints on the same address.
 */
export const BULK_DEFAULT_FORMAT: OutputFormat = DEFAULT_FORMAT
/** Format of an export when neither the query nor the body names one: `png`. */
export const EXPORT_DEFAULT_FORMAT: OutputFormat = 'png'

/** A render's output options, checked and with their defaults, e.g. `{ format: 'png', quality: 80 }`. */
export interface OutputOptions {
  format: OutputFormat
  quality: number
}

/**
 * Checks and defaults the format and quality of a render.
 *
 * @throws LithoError `ERR_INVALID_RENDER_OPTION` naming the option, what was expected and what was received.
 * @example resolveOutputOptions({ format: 'png' }) // { format: 'png', quality: 80 }
 */
export function resolveOutputOptions(options: { format?: OutputFormat | undefined; quality?: number | undefined }): OutputOptions {
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
  return { format, quality }
}
