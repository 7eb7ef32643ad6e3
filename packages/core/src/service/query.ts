/**
 * Reading the query parameters of the bearer endpoints: one value per parameter (a repeated
 * one is an error, not a silent pick), whole numbers coerced from their strings, and the
 * page-size schema shared by the lists (interface.md §8: `$limit` 1-100, default 10).
 *
 * @module service/query
 */
import * as z from 'zod'
import { describeReceived } from '../design/schema.js'
import { toLithoIssues } from '../design/validate-design.js'
import type { LithoIssue } from '../errors.js'
import { invalidRequest } from './params.js'

/** Items of a list page when `$limit` is absent. */
export const DEFAULT_PAGE_SIZE = 10
/** Most items of one list page (`$limit`). */
export const MAX_PAGE_SIZE = 100

/** A zod error option whose message is `expected <what>, received <input>`. */
export const expected = (what: string) => ({ error: (issue: { input?: unknown }) => `expected ${what}, received ${describeReceived(issue.input)}` })

/**
 * A whole number from `min` to `max`, with one message for every way to miss it.
 *
 * @example wholeNumber(1, 100).safeParse(1.5).success // false: "expected a whole number from 1 to 100, received 1.5"
 */
export function wholeNumber(min: number, max: number, what = `a whole number from ${min} to ${max}`) {
  return z.number(expected(what)).int(expected(what)).min(min, expected(what)).max(max, expected(what))
}

/** `$limit` of the lists. */
export const pageSizeSchema = wholeNumber(1, MAX_PAGE_SIZE)

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
