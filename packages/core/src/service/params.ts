/**
 * The parameters of the render and bulk operations (interface.md §4, §8) as zod schemas: the
 * one source that validates requests and generates the OpenAPI document and the reference.
 * Messages name the field and say what was expected and what was received.
 *
 * @module service/params
 */
import * as z from 'zod'
import type { LithoIssue } from '../errors.js'
import { describeReceived, expected, invalidRequest, wholeNumber } from '../_internal/messages.js'
import { coerceNumeric, readParams } from './query.js'
import { toLithoIssues } from '../design/validate-design.js'
import { BULK_DEFAULT_FORMAT, DEFAULT_FORMAT, DEFAULT_QUALITY } from '../render/defaults.js'
import { OUTPUT_FORMATS, type OutputFormat } from '../render/types.js'

export { BULK_DEFAULT_FORMAT }

/** How a render is delivered: the bytes, a stored public URL, or an expiring signed URL. */
export type Delivery = 'stream' | 'hosted' | 'signed'
/** The deliveries, e.g. `'signed'`. */
export const DELIVERIES: readonly Delivery[] = ['stream', 'hosted', 'signed']
/** How a render is delivered when `delivery` is absent: the bytes. */
export const DEFAULT_DELIVERY: Delivery = 'stream'
/** How bulk renders are delivered when `delivery` is absent: stored, at a public URL. */
export const BULK_DEFAULT_DELIVERY: Exclude<Delivery, 'stream'> = 'hosted'
/** Longest signed-URL lifetime in minutes (7 days). */
export const MAX_EXPIRES_IN_MINUTES = 10_080
/** Signed-URL lifetime when `expiresIn` is absent, in minutes. */
export const DEFAULT_EXPIRES_IN_MINUTES = 60
/** Most items in one bulk request. */
export const MAX_BULK_ITEMS = 25

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
})
/** Validated render parameters, e.g. `{ format: 'png', delivery: 'signed', expiresIn: 30 }`. */
export type RenderParams = z.infer<typeof RenderParamsSchema>
/** The parameters that a query (or a body) may send as numeric strings. */
const NUMERIC_PARAMS = ['quality', 'expiresIn']
/** The names of {@link RenderParamsSchema}'s fields. */
export const RENDER_PARAM_NAMES: readonly (keyof RenderParams)[] = Object.freeze(['format', 'quality', 'variation', 'delivery', 'expiresIn'])

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
})
/** A validated bulk request. */
export type BulkRequest = z.infer<typeof BulkRequestSchema>

/**
 * Validates render parameters from a query (strings; numbers are coerced) or a JSON body.
 * A parameter given twice in a query is an error, not a silent pick.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` with one issue per bad parameter.
 * @example parseRenderParams(new URLSearchParams('format=png&quality=90')) // { format: 'png', quality: 90 }
 */
export function parseRenderParams(source: URLSearchParams | Record<string, unknown>): RenderParams {
  const issues: LithoIssue[] = []
  const raw = readParams(source, RENDER_PARAM_NAMES, NUMERIC_PARAMS, issues)
  const result = RenderParamsSchema.safeParse(raw)
  if (!result.success) issues.push(...toLithoIssues(result.error))
  if (issues.length > 0) throw invalidRequest(issues)
  return result.data!
}

/**
 * Validates a bulk request body.
 *
 * @throws LithoError `ERR_INVALID_REQUEST`: not an object, 0 or more than 25 items, an item
 * without `designId`, an unknown format, a quality or expiresIn out of range…
 * @example parseBulkRequest({ items: [{ designId: 'Xc9…' }], format: 'png' })
 */
export function parseBulkRequest(body: unknown): BulkRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidRequest([{ path: '', message: `expected a JSON object with "items", received ${describeReceived(body)}` }])
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) }
  // Numbers sent as strings are accepted, as in a query.
  for (const key of NUMERIC_PARAMS) if (key in copy) copy[key] = coerceNumeric(copy[key])
  if (Array.isArray(copy.items))
    copy.items = copy.items.map((item) => (typeof item === 'object' && item !== null && 'quality' in item ? { ...item, quality: coerceNumeric(item.quality) } : item))
  const result = BulkRequestSchema.safeParse(copy)
  if (!result.success) throw invalidRequest(toLithoIssues(result.error))
  return result.data
}

export { invalidRequest }
