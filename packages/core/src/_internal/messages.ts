/**
 * The pieces every "expected …, received …" message is built from (internal): how a received
 * value is shown, the zod error option that writes such a message, the whole-number schema the
 * parameters share, and the `ERR_INVALID_REQUEST` that lists every issue.
 *
 * @module _internal/messages
 */
import * as z from 'zod'
import { LithoError, type LithoIssue } from '../errors.js'

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

/** An `ERR_INVALID_REQUEST` whose message lists every issue, e.g. `quality: expected a whole number from 1 to 100, received 0`. */
export function invalidRequest(issues: LithoIssue[]): LithoError {
  const message = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')
  return new LithoError('ERR_INVALID_REQUEST', message, { issues })
}
