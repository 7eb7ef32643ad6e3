/**
 * Reading the query parameters of the bearer endpoints: one value per parameter (a repeated
 * one is an error, not a silent pick) and whole numbers coerced from their strings. The schema
 * helpers it used to hold live in `../contracts/schemas/common.ts`.
 *
 * @module service/query
 */
import type * as z from 'zod'
import { expected, invalidRequest, wholeNumber } from '../_internal/messages.js'
import { toLithoIssues } from '../design/validate-design.js'
import type { LithoIssue } from '../errors.js'

export { expected, wholeNumber }

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageSizeSchema } from '../contracts/schemas/common.js'

/** A number as a query writes it: digits, an optional sign and fraction (no exponent, no hex). */
const NUMERIC = /^[+-]?\d+(?:\.\d+)?$/

/**
 * `value` as a number when it is a string that looks like one (`" 90 "`, `"1.5"`), else as it
 * is: query values are strings, and a JSON body may send numbers as strings too.
 *
 * @example coerceNumeric('90') // 90; coerceNumeric('x') // 'x'
 */
export function coerceNumeric(value: unknown): unknown {
  return typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value) : value
}

/**
 * The named parameters of a query (one value each: a repeated one is pushed to `issues`) or of
 * a JSON object, with the `numeric` ones coerced ({@link coerceNumeric}); absent ones left out.
 * How every query of the HTTP interface becomes typed parameters, before its schema checks them.
 *
 * @example readParams(new URLSearchParams('quality=90'), ['format', 'quality'], ['quality'], []) // { quality: 90 }
 */
export function readParams(source: URLSearchParams | Record<string, unknown>, names: readonly string[], numeric: readonly string[], issues: LithoIssue[]): Record<string, unknown> {
  const raw: Record<string, unknown> = {}
  for (const name of names) {
    let value: unknown
    if (source instanceof URLSearchParams) {
      const all = source.getAll(name)
      if (all.length > 1) issues.push({ path: name, message: `expected one value, received ${all.length}` })
      value = all[0]
    } else value = source[name]
    if (value === undefined) continue
    raw[name] = numeric.includes(name) ? coerceNumeric(value) : value
  }
  return raw
}

/**
 * Validates the named parameters of `query` with `schema` (unknown parameters are ignored).
 * Values of `numeric` parameters that look like numbers are coerced first, so `1.5` reports as
 * a number that is not whole and `x` as a string.
 *
 * @throws LithoError `ERR_INVALID_REQUEST`, one issue per bad parameter, named as in the query.
 * @example parseQuery(new URLSearchParams('$limit=5'), z.object({ $limit: pageSizeSchema.optional() }), ['$limit']) // { $limit: 5 }
 */
export function parseQuery<T extends z.ZodObject>(query: URLSearchParams, schema: T, numeric: readonly string[] = []): z.output<T> {
  const issues: LithoIssue[] = []
  const raw = readParams(query, Object.keys(schema.shape), numeric, issues)
  const result = schema.safeParse(raw)
  if (!result.success) issues.push(...toLithoIssues(result.error))
  if (issues.length > 0) throw invalidRequest(issues)
  return result.data as z.output<T>
}

/** How a query writes a boolean parameter. */
const QUERY_BOOLEANS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false }

/**
 * Turns `raw[name]`, read from a query, into a boolean when it says `true`, `false`, `1` or `0`
 * (any case, spaces aside); anything else is left for the schema to refuse, named.
 *
 * @example const raw = { draft: 'TRUE' }; coerceQueryBoolean(raw, 'draft') // raw.draft === true
 */
export function coerceQueryBoolean(raw: Record<string, unknown>, name: string): void {
  const value = raw[name]
  if (typeof value !== 'string') return
  const word = value.trim().toLowerCase()
  if (Object.hasOwn(QUERY_BOOLEANS, word)) raw[name] = QUERY_BOOLEANS[word]
}
