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
import { validateOnce } from '../design/validated-documents.js'

/**
 * `validateDesign(raw)`, or the document validated last time for `designId` when `raw` is
 * equal to what was validated then (design/validated-documents, whose bound it shares with the
 * documents passed to `render()`). The result is shared, so it is frozen (deeply): renders copy
 * what they change, as `applyOverrides` does, and a change in place throws rather than reaching
 * the next request.
 *
 * @throws LithoError `ERR_INVALID_DESIGN`, as `validateDesign`.
 */
export function validateStoredDesign(designId: string, raw: unknown): DesignDocument {
  return validateOnce(designId, raw)
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
