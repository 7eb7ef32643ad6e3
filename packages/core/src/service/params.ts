/**
 * Parsing the parameters of the render and bulk operations. Their zod schemas live in the
 * contracts entry (`../contracts/schemas/render-params.ts`) and are re-exported here.
 *
 * @module service/params
 */
import { LithoError, type LithoIssue } from '../errors.js'
import { describeReceived } from '../design/schema.js'
import { toLithoIssues } from '../design/validate-design.js'
import { BulkRequestSchema, RENDER_PARAM_NAMES, RenderParamsSchema, type BulkRequest, type RenderParams } from '../contracts/schemas/render-params.js'

export {
  BULK_DEFAULT_FORMAT,
  BulkItemSchema,
  BulkRequestSchema,
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

const NUMERIC = /^[+-]?\d+(?:\.\d+)?$/

/**
 * Validates render parameters from a query (strings; numbers are coerced) or a JSON body.
 * A parameter given twice in a query is an error, not a silent pick.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` with one issue per bad parameter.
 * @example parseRenderParams(new URLSearchParams('format=png&quality=90')) // { format: 'png', quality: 90 }
 */
export function parseRenderParams(source: URLSearchParams | Record<string, unknown>): RenderParams {
  const raw: Record<string, unknown> = {}
  const issues: LithoIssue[] = []
  for (const name of RENDER_PARAM_NAMES) {
    let value: unknown
    if (source instanceof URLSearchParams) {
      const all = source.getAll(name)
      if (all.length > 1) issues.push({ path: name, message: `expected one value, received ${all.length}` })
      value = all[0]
    } else value = source[name]
    if (value === undefined) continue
    if ((name === 'quality' || name === 'expiresIn') && typeof value === 'string' && NUMERIC.test(value.trim())) value = Number(value)
    raw[name] = value
  }
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
  const record = body as Record<string, unknown>
  const copy: Record<string, unknown> = { ...record }
  // Numbers sent as strings are accepted, as in a query.
  for (const key of ['quality', 'expiresIn'] as const) if (typeof copy[key] === 'string' && NUMERIC.test(String(copy[key]).trim())) copy[key] = Number(copy[key])
  if (Array.isArray(copy.items))
    copy.items = copy.items.map((item) =>
      typeof item === 'object' && item !== null && typeof (item as Record<string, unknown>).quality === 'string' && NUMERIC.test(String((item as Record<string, unknown>).quality).trim())
        ? { ...item, quality: Number((item as Record<string, unknown>).quality) }
        : item,
    )
  const result = BulkRequestSchema.safeParse(copy)
  if (!result.success) throw invalidRequest(toLithoIssues(result.error))
  return result.data
}

/** An `ERR_INVALID_REQUEST` whose message lists every issue, e.g. `quality: expected a whole number from 1 to 100, received 0`. */
export function invalidRequest(issues: LithoIssue[]): LithoError {
  const message = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')
  return new LithoError('ERR_INVALID_REQUEST', message, { issues })
}
