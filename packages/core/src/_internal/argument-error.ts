/**
 * Caller misuse (a bad option, a malformed policy) is a coded `TypeError` thrown at once,
 * never a {@link LithoError}: it is a bug in the calling code, not a property of the input.
 *
 * @module _internal/argument-error
 */

/** A `TypeError` with Node's `ERR_INVALID_ARG_VALUE` code, for options that fail validation. */
export function invalidArgument(message: string): TypeError & { code: 'ERR_INVALID_ARG_VALUE' } {
  return Object.assign(new TypeError(message), { code: 'ERR_INVALID_ARG_VALUE' as const })
}

/** Shows a received value in an "Expected … but received …" message, short and on one line. */
export function describeReceived(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value)
  return Array.isArray(value) ? 'an array' : `a value of type ${typeof value}`
}
