/**
 * The parameters of the render and bulk operations (docs/http-reference.md) as zod schemas: the
 * one source that validates requests and generates the OpenAPI document and the reference.
 * Messages name the field and say what was expected and what was received.
 *
 * @module contracts/schemas/render-params
 */
import * as z from 'zod'
import { OUTPUT_FORMATS, type OutputFormat } from '../formats.js'
import { BULK_DEFAULT_DELIVERY, BULK_DEFAULT_FORMAT, DEFAULT_DELIVERY, DEFAULT_EXPIRES_IN_MINUTES, DEFAULT_FORMAT, DEFAULT_QUALITY } from '../defaults.js'
import { expected, wholeNumber } from './common.js'

/** How a render is delivered: the bytes, a stored public URL, or an expiring signed URL. */
export type Delivery = 'stream' | 'hosted' | 'signed'
/** The deliveries, e.g. `'signed'`. */
export const DELIVERIES: readonly Delivery[] = ['stream', 'hosted', 'signed']
/** Longest signed-URL lifetime in minutes (7 days). */
export const MAX_EXPIRES_IN_MINUTES = 10_080
/** Most items in one bulk request. */
export const MAX_BULK_ITEMS = 25
export { BULK_DEFAULT_DELIVERY, BULK_DEFAULT_FORMAT, DEFAULT_DELIVERY, DEFAULT_EXPIRES_IN_MINUTES }

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, expected(`one of ${values.join(', ')}`))
const idString = (what: string, max: number) => z.string(expected(what)).min(1, expected(what)).max(max, expected(`${what} of at most ${max} characters`))

const formatSchema = oneOf(OUTPUT_FORMATS as unknown as readonly [OutputFormat, ...OutputFormat[]]).meta({ description: 'Output format.' })
const qualitySchema = wholeNumber(1, 100).meta({ description: 'JPEG quality; affects jpeg output only.' })
const variationSchema = idString('a variation id', 64).meta({ description: 'A variation id from the render config; omitted or `master` is the base size.' })
const expiresInSchema = wholeNumber(1, MAX_EXPIRES_IN_MINUTES).meta({ description: 'Minutes a signed URL stays valid (signed delivery only).', default: DEFAULT_EXPIRES_IN_MINUTES })

/** The reserved parameters of a render (query of GET and POST; also accepted in a POST body). */
export const RenderParamsSchema = z.object({
  format: formatSchema.optional().meta({ description: 'Output format.', default: DEFAULT_FORMAT }),
  quality: qualitySchema.optional().meta({ description: 'JPEG quality 1-100; affects jpeg output only.', default: DEFAULT_QUALITY }),
  variation: variationSchema.optional(),
  delivery: oneOf(['stream', 'hosted', 'signed']).optional().meta({ description: '`stream` returns the bytes; `hosted` and `signed` store the render and return JSON.', default: DEFAULT_DELIVERY }),
  expiresIn: expiresInSchema.optional(),
  strict: z
    .boolean(expected('true or false'))
    .optional()
    .meta({ description: 'Refuse override keys that name no overridable field (400 naming each, with the closest existing key) instead of ignoring them. In the query: `true`, `false`, `1` or `0`; in a body: a JSON boolean. Default: the server\'s (`LITHO_STRICT_OVERRIDES`), else false.' }),
})
/** Validated render parameters, e.g. `{ format: 'png', delivery: 'signed', expiresIn: 30 }`. */
export type RenderParams = z.infer<typeof RenderParamsSchema>
/** The names of {@link RenderParamsSchema}'s fields. */
export const RENDER_PARAM_NAMES: readonly (keyof RenderParams)[] = Object.freeze(['format', 'quality', 'variation', 'delivery', 'expiresIn', 'strict'])

/** One item of a bulk request. */
export const BulkItemSchema = z.object({
  designId: idString('a design render code', 200).meta({ description: 'Render code of the design.' }),
  variation: variationSchema.optional(),
  overrides: z.record(z.string(), z.unknown(), expected('an object of "key.field" values')).optional().meta({ description: 'Overrides in `key.field` form (or nested); a bare key is ignored.' }),
  format: formatSchema.optional().meta({ description: 'Overrides the request default.' }),
  quality: qualitySchema.optional().meta({ description: 'Overrides the request default.' }),
  filename: z.string(expected('a string')).max(255, expected('a string of at most 255 characters')).optional().meta({ description: 'A label echoed on the result row.' }),
})
/** A validated bulk item. */
export type BulkItem = z.infer<typeof BulkItemSchema>

/** The body of `POST {render_url}/bulk`. */
export const BulkRequestSchema = z.object({
  items: z
    .array(BulkItemSchema, expected(`an array of 1 to ${MAX_BULK_ITEMS} items`))
    .min(1, { error: (issue) => `expected 1 to ${MAX_BULK_ITEMS} items, received ${(issue.input as unknown[]).length}` })
    .max(MAX_BULK_ITEMS, { error: (issue) => `expected 1 to ${MAX_BULK_ITEMS} items, received ${(issue.input as unknown[]).length}` })
    .meta({ description: `Rendered in order; results[i] corresponds to items[i]. 1-${MAX_BULK_ITEMS} entries.` }),
  delivery: oneOf(['hosted', 'signed']).optional().meta({ description: 'Applies to all items.', default: BULK_DEFAULT_DELIVERY }),
  format: formatSchema.optional().meta({ description: 'Default for items without their own.', default: BULK_DEFAULT_FORMAT }),
  quality: qualitySchema.optional().meta({ description: 'Default for items without their own.', default: DEFAULT_QUALITY }),
  expiresIn: expiresInSchema.optional(),
  strict: z.boolean(expected('true or false')).optional().meta({ description: 'Refuse, on its row, an item whose overrides name no overridable field (with the closest existing key) instead of ignoring them. Default: the server\'s, else false.' }),
})
/** A validated bulk request. */
export type BulkRequest = z.infer<typeof BulkRequestSchema>

