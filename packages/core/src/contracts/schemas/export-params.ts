/**
 * The parameters of the synchronous exports (docs/exports-and-jobs.md) as a zod schema.
 *
 * @module contracts/schemas/export-params
 */
import * as z from 'zod'
import { expected } from './common.js'
import { RenderParamsSchema } from './render-params.js'

import { EXPORT_DEFAULT_FORMAT } from '../defaults.js'

export { EXPORT_DEFAULT_FORMAT }

/**
 * Body keys that are parameters of an export, never overrides: stripped from the body before
 * the rest is applied (docs/exports-and-jobs.md), so a component keyed `format` cannot be overridden
 * through the body.
 */
export const EXPORT_RESERVED_KEYS: readonly string[] = Object.freeze(['format', 'quality', 'variation', 'draft', 'delivery', 'expiresIn', 'webhookUrl', 'dma-api-key'])

/**
 * The parameters of the synchronous exports, from the query or the JSON body (the query wins).
 * `expiresIn` applies to `signed-url` only; it is validated everywhere.
 *
 * @example ExportParamsSchema.parse({ format: 'webp', draft: true }) // { format: 'webp', draft: true }
 */
export const ExportParamsSchema = z.object({
  format: RenderParamsSchema.shape.format.unwrap().optional().meta({ description: 'Output format.', default: EXPORT_DEFAULT_FORMAT }),
  quality: RenderParamsSchema.shape.quality,
  variation: RenderParamsSchema.shape.variation,
  draft: z
    .boolean(expected('true or false'))
    .optional()
    .meta({ description: 'Export the unpublished draft instead of the published design; ignored when the design has no draft. In the query: `true`, `false`, `1` or `0`; in the body: a JSON boolean.', default: false }),
  expiresIn: RenderParamsSchema.shape.expiresIn,
})
/** Validated export parameters, e.g. `{ format: 'png', draft: true, expiresIn: 30 }`. */
export type ExportParams = z.infer<typeof ExportParamsSchema>
/** The names of {@link ExportParamsSchema}'s fields. */
export const EXPORT_PARAM_NAMES: readonly (keyof ExportParams)[] = Object.freeze(['format', 'quality', 'variation', 'draft', 'expiresIn'])

