/**
 * Building blocks of the request schemas: the `expected …, received …` message every field
 * gives, whole numbers, and the page size of the lists (docs/http-reference.md: `$limit`
 * 1-100, default 10).
 *
 * @module contracts/schemas/common
 */
import * as z from 'zod'

/** Items of a list page when `$limit` is absent. */
export const DEFAULT_PAGE_SIZE = 10
/** Most items of one list page (`$limit`). */
export const MAX_PAGE_SIZE = 100
/** The highest `$page`: the offset it implies stays a safe integer at any `$limit`. */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE)

/** Renders a received value for an error message, short and safe, e.g. `"big"`, `an array`, `nothing`. */
export function describeReceived(input: unknown): string {
  if (input === undefined) return 'nothing'
  if (typeof input === 'string') return JSON.stringify(input.length > 60 ? `${input.slice(0, 57)}...` : input)
  if (Array.isArray(input)) return 'an array'
  if (input === null) return 'null'
  if (typeof input === 'object') return 'an object'
  return String(input)
}

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

/** `$page` of the lists. */
export const pageSchema = wholeNumber(1, MAX_PAGE, 'a whole number ≥ 1')
