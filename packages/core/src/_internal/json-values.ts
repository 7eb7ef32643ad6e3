/**
 * Deep equality, copying, sizing and freezing of JSON values (internal): what the memos of
 * validated documents (design/validated-documents) compare and keep.
 *
 * @module _internal/json-values
 */
import { isPlainObject } from './is-plain-object.js'

/** Deep equality of two JSON values (as `JSON.parse` returns them); strings compare by value. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false
  }
  return true
}

/** What {@link copyJson} returns for a value that is not plain JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON')

/**
 * A deep copy of a JSON value, its strings shared (they are immutable), or {@link NOT_JSON} when
 * it holds anything else (a class instance such as a Date, a function, a symbol, a bigint): a
 * copy of those would not compare, nor validate, as the original does.
 *
 * @example copyJson({ a: [1, 'x'] }) // { a: [1, 'x'] }, a new object; copyJson({ at: new Date() }) // NOT_JSON
 */
export function copyJson(value: unknown): unknown {
  if (value === null || value === undefined) return value
  const type = typeof value
  if (type === 'string' || type === 'number' || type === 'boolean') return value
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length)
    for (let i = 0; i < value.length; i++) {
      const member = copyJson(value[i])
      if (member === NOT_JSON) return NOT_JSON
      copy[i] = member
    }
    return copy
  }
  if (!isPlainObject(value)) return NOT_JSON
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const member = copyJson(value[key])
    if (member === NOT_JSON) return NOT_JSON
    if (key === '__proto__') Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true })
    else copy[key] = member
  }
  return copy
}

/** The characters of a JSON value's strings and keys: what keeping it costs. */
export function jsonChars(value: unknown): number {
  if (typeof value === 'string') return value.length
  if (value === null || typeof value !== 'object') return 0
  let chars = 0
  for (const [key, member] of Object.entries(value)) chars += (Array.isArray(value) ? 0 : key.length) + jsonChars(member)
  return chars
}

/** Freezes `value` and everything it holds, in place; returns it. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  Object.freeze(value)
  for (const member of Object.values(value)) deepFreeze(member)
  return value
}
