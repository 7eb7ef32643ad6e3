/**
 * The defaults of a render, in one place: the renderer, the pool, the render, bulk and export
 * operations and the parameters' documentation all read them from here.
 *
 * @module contracts/defaults
 */
import type { OutputFormat } from './formats.js'

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
/** Format of an export when neither the query nor the body names one: `png` (docs/exports-and-jobs.md). */
export const EXPORT_DEFAULT_FORMAT: OutputFormat = 'png'
/** How a render is delivered when `delivery` is absent: the bytes. */
export const DEFAULT_DELIVERY = 'stream' as const
/** How bulk renders are delivered when `delivery` is absent: stored, at a public URL. */
export const BULK_DEFAULT_DELIVERY = 'hosted' as const
/** Signed-URL lifetime when `expiresIn` is absent, in minutes. */
export const DEFAULT_EXPIRES_IN_MINUTES = 60
