/**
 * Reading the query parameters of the bearer endpoints: one value per parameter (a repeated
 * one is an error, not a silent pick) and whole numbers coerced from their strings. The schema
 * helpers it used to hold live in `../contracts/schemas/common.ts`.
 *
 * @module service/query
 */
import * as z from 'zod'
import { toLithoIssues } from '../design/validate-design.js'
import type { LithoIssue } from '../errors.js'
import { invalidRequest } from './params.js'

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, expected, pageSizeSchema, wholeNumber } from '../contracts/schemas/common.js'

const WHOLE = /^[+-]?\d+(?:\.\d+)?$/

/**
 * Validates the named parameters of `query` with `schema` (unknown parameters are ignored).
 * Values of `numeric` parameters that look like numbers are coerced first, so `1.5` reports as
 * a number that is not whole and `x` as a string.
 *
 * @throws LithoError `ERR_INVALID_REQUEST`, one issue per bad parameter, named as in the query.
 * @example parseQuery(new URLSearchParams('$limit=5'), z.object({ $limit: pageSizeSchema.optional() }), ['$limit']) // { $limit: 5 }
 */
export function parseQuery<T extends z.ZodObject>(query: URLSearchParams, schema: T, numeric: readonly string[] = []): z.output<T> {
  const raw: Record<string, unknown> = {}
  const issues: LithoIssue[] = []
  for (const name of Object.keys(schema.shape)) {
    const all = query.getAll(name)
    if (all.length > 1) issues.push({ path: name, message: `expected one value, received ${all.length}` })
    let value: unknown = all[0]
    if (value === undefined) continue
    if (numeric.includes(name) && typeof value === 'string' && WHOLE.test(value.trim())) value = Number(value)
    raw[name] = value
  }
  const result = schema.safeParse(raw)
  if (!result.success) issues.push(...toLithoIssues(result.error))
  if (issues.length > 0) throw invalidRequest(issues)
  return result.data as z.output<T>
}
