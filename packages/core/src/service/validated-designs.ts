/**
 * Validated published designs, kept while their content is unchanged: a render reads its design
 * record on every request (a publish is seen on the very next one), and validating the same
 * document again would cost as much as the rest of a cached render's service work (about
 * 0.2 ms for the reference card). A record's document is compared member by member with the one
 * validated last time (strings by value, and a store's memo hands out the same strings, so this
 * is cheap); only an equal document reuses the validated one. Nothing depends on `updatedAt`.
 *
 * @module service/validated-designs
 */
import { createHash } from 'node:crypto'
import type { DesignDocument } from '../design/schema.js'
import { LRUCache } from 'lru-cache'
import { validateDesign } from '../design/validate-design.js'

/**
 * The bound, in characters of the strings the kept documents hold (least recently used dropped
 * first): a data URI of a photo is most of a design. Those strings are the stored record's (a
 * store's memo keeps the same ones), so this is not a second copy of them.
 */
const MAX_CHARS = 32 * 1024 * 1024

const kept = new LRUCache<string, { raw: unknown; document: DesignDocument }>({ maxSize: MAX_CHARS, sizeCalculation: (entry) => Math.max(1, jsonChars(entry.raw)) })

/**
 * `validateDesign(raw)`, or the document validated last time for `designId` when `raw` is
 * equal to what was validated then. The result is shared, so it is frozen (deeply): renders copy
 * what they change, as `applyOverrides` does, and a change in place throws rather than reaching
 * the next request.
 *
 * @throws LithoError `ERR_INVALID_DESIGN`, as {@link validateDesign}.
 */
export function validateStoredDesign(designId: string, raw: unknown): DesignDocument {
  const entry = kept.get(designId)
  if (entry !== undefined && sameJson(entry.raw, raw)) return entry.document
  kept.delete(designId)
  const document = deepFreeze(validateDesign(raw))
  // A private copy of the raw document (its strings shared): the caller may change its own.
  // lru-cache does not keep an entry larger than the whole bound.
  kept.set(designId, { raw: copyJson(raw), document })
  return document
}

const digests = new WeakMap<DesignDocument, string>()

/**
 * A digest of a validated document's content (base64url SHA-256 of its JSON), computed once per
 * document object ({@link validateStoredDesign} hands out the same object while the content is
 * unchanged). It joins `updatedAt` in a design's version, so two versions stamped in the same
 * millisecond, or by instances whose clocks differ, never share an output key or an ETag.
 *
 * @example documentDigest(validateStoredDesign('d_1', record.design)) // 'q3Zx…' (43 characters)
 */
export function documentDigest(document: DesignDocument): string {
  let digest = digests.get(document)
  if (digest === undefined) {
    digest = createHash('sha256').update(JSON.stringify(document)).digest('base64url')
    digests.set(document, digest)
  }
  return digest
}

/** Deep equality of two JSON values (as `JSON.parse` returns them). */
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

/** A deep copy of a JSON value (strings shared). */
function copyJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(copyJson)
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const member = copyJson((value as Record<string, unknown>)[key])
    if (key === '__proto__') Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true })
    else copy[key] = member
  }
  return copy
}

/** The characters of a JSON value's strings and keys: what keeping it costs. */
function jsonChars(value: unknown): number {
  if (typeof value === 'string') return value.length
  if (value === null || typeof value !== 'object') return 0
  let chars = 0
  for (const [key, member] of Object.entries(value)) chars += (Array.isArray(value) ? 0 : key.length) + jsonChars(member)
  return chars
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  Object.freeze(value)
  for (const member of Object.values(value)) deepFreeze(member)
  return value
}
