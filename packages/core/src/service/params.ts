/**
 * Parsing the parameters of the render and bulk operations. Their zod schemas live in the
 * contracts entry (`../contracts/schemas/render-params.ts`) and are re-exported here.
 *
 * @module service/params
 */
import type { LithoIssue } from '../errors.js'
import { describeReceived, invalidRequest } from '../_internal/messages.js'
import { coerceNumeric, coerceQueryBoolean, readParams } from './query.js'
import { toLithoIssues } from '../design/validate-design.js'
import { BulkRequestSchema, RENDER_PARAM_NAMES, RenderParamsSchema, type BulkRequest, type RenderParams } from '../contracts/schemas/render-params.js'

/** The parameters that a query (or a body) may send as numeric strings. */
const NUMERIC_PARAMS = ['quality', 'expiresIn']

export {
  BULK_DEFAULT_DELIVERY,
  BULK_DEFAULT_FORMAT,
  BulkItemSchema,
  BulkRequestSchema,
  DEFAULT_DELIVERY,
  DEFAULT_EXPIRES_IN_MINUTES,
  DELIVERIES,
  MAX_BULK_ITEMS,
  MAX_EXPIRES_IN_MINUTES,
  RENDER_PARAM_NAMES,
  RenderParamsSchema,
  type BulkItem,
  type BulkRequest,
  type Delivery,
  type RenderParams,
} from '../contracts/schemas/render-params.js'

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
  // A query says true/false/1/0; a JSON body must say a JSON boolean.
  if (source instanceof URLSearchParams) coerceQueryBoolean(raw, 'strict')
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
