/**
 * The one plain-object test of core (internal).
 *
 * @module _internal/is-plain-object
 */

/**
 * True for an object literal or `Object.create(null)`: not an array, not a class instance
 * (Date, URLSearchParams, Buffer), not null. JSON input is made only of these, so a value that
 * fails is not a JSON object.
 *
 * @example isPlainObject({ a: 1 }) // true; isPlainObject([]) // false; isPlainObject(new Date()) // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}
