/**
 * Validation once per document content. Validating the reference card (a 205 KB photo in a data
 * URI) costs about 1 ms, as much as the rest of a cached render's work on the calling thread;
 * comparing it with the copy validated last time costs a few microseconds, because strings
 * compare by reference first and the caller's strings are the ones kept. So a memo keeps, by
 * slot, a private copy of the raw document and the validated result, and hands the result out
 * again while the raw document stays deep-equal to the copy. Two kinds of slot share one bound:
 * a stored design's id (the services, service/validated-designs) and the identity of the object
 * a caller passes to `render()` or a pool (held weakly: the memo never keeps a caller's object
 * alive, and a caller may change it between renders; the content decides, not the identity).
 *
 * @module design/validated-documents
 */
import { LRUCache } from 'lru-cache'
import { NOT_JSON, copyJson, deepFreeze, jsonChars, sameJson } from '../_internal/json-values.js'
import type { DesignDocument } from './schema.js'
import { validateDesign } from './validate-design.js'

/**
 * The bound, in characters of the strings the kept raw copies hold (least recently used dropped
 * first): a data URI of a photo is most of a design. Those strings are the caller's (strings are
 * shared, never copied), so while the caller holds its document this is not a second copy.
 */
const MAX_CHARS = 32 * 1024 * 1024
/** Slots kept at most: the objects of a bulk run each get one, and each costs a little. */
const MAX_SLOTS = 1024

interface Kept {
  raw: unknown
  document: DesignDocument
}

// A slot is a design id, or a token standing for a caller's object (`tokens`, weakly keyed).
const kept = new LRUCache<string | object, Kept>({ max: MAX_SLOTS, maxSize: MAX_CHARS, sizeCalculation: (entry) => Math.max(1, jsonChars(entry.raw)) })
const tokens = new WeakMap<object, object>()

/**
 * `validateDesign(raw)`, or the document validated last time in `slot` when `raw` is deep-equal
 * to what was validated then. `slot` is a stored design's id, or the caller's object itself
 * (`validateOnce(doc, doc)`). The result is shared, so it is deeply frozen (renders copy what they
 * change, as `applyOverrides` does); it is validated from the memo's own copy, so nothing of the
 * caller's object is frozen or kept by reference. A raw value that is not plain JSON (a Date, a
 * class instance) is validated as it is, every time.
 *
 * @throws LithoError `ERR_INVALID_DESIGN`, as {@link validateDesign}.
 * @example validateOnce('d_1', record.design) === validateOnce('d_1', structuredClone(record.design)) // true
 */
export function validateOnce(slot: string | object, raw: unknown): DesignDocument {
  const key = typeof slot === 'string' ? slot : tokenOf(slot)
  const entry = kept.get(key)
  if (entry !== undefined && sameJson(entry.raw, raw)) return entry.document
  kept.delete(key)
  const copy = copyJson(raw)
  if (copy === NOT_JSON) return validateDesign(raw)
  // Validated from the copy: zod hands back some values as they are (variation patches), and
  // those must be ours to freeze. The copy is then what later documents are compared with.
  const document = deepFreeze(validateDesign(copy))
  // lru-cache does not keep an entry larger than the whole bound.
  kept.set(key, { raw: copy, document })
  return document
}

/**
 * {@link validateOnce} for a document a caller passes to a render: by the object's identity when
 * it is one, else (a string, a number) validated as it is.
 *
 * @throws LithoError `ERR_INVALID_DESIGN`, as {@link validateDesign}.
 */
export function validateInput(document: unknown): DesignDocument {
  return typeof document === 'object' && document !== null ? validateOnce(document, document) : validateDesign(document)
}

function tokenOf(object: object): object {
  let token = tokens.get(object)
  if (token === undefined) {
    token = {}
    tokens.set(object, token)
  }
  return token
}
