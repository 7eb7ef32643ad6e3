/**
 * Conditional GET renders: the strong `ETag` of a stream render, `If-None-Match` (RFC 9110,
 * section 13.1.2) and its `304 Not Modified`. A 304 is still a metered render: every fetch of a
 * render URL counts (docs/performance.md, "ETag and 304").
 *
 * @module app/conditional-render
 */
import type { RenderNotModified } from '@litho/core'
import { quotaHeaders } from './render-response.js'

/**
 * `Cache-Control` of a GET render with a key: a browser may keep it but must ask again before
 * each use (`no-cache`), so every use is a request the meter sees, answered by a 304 when
 * nothing changed; `private`, because the URL may carry the render key (`?key=`) and the image
 * belongs to that account: a shared cache (a CDN, a proxy) must not keep or serve it.
 */
export const KEYED_RENDER_CACHE_CONTROL = 'private, no-cache'

/** An `If-None-Match` field value parsed: any representation (`*`), or a list of opaque tags. */
type IfNoneMatch = { any: true } | { any: false; tags: Set<string> }

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text (RFC 9110, 8.8.3)
const ENTITY_TAG = /^(?:W\/)?("[\x21\x23-\x7e\x80-\xff]*")$/

/**
 * Parses an `If-None-Match` field value (several fields arrive joined by commas). A value that
 * is not `*` or a list of entity tags is ignored, as if absent (the render is answered in full):
 * RFC 9110 lets a server ignore a condition it cannot evaluate, and a 400 would break an image
 * for a client's bad cache.
 *
 * @example parseIfNoneMatch('W/"a", "b"') // { any: false, tags: Set { '"a"', '"b"' } }
 */
export function parseIfNoneMatch(value: string | null): IfNoneMatch | undefined {
  if (value === null) return undefined
  const trimmed = value.trim()
  if (trimmed === '*') return { any: true }
  const tags = new Set<string>()
  // #rule lists allow empty elements (RFC 9110, 5.6.1); a comma never occurs inside an etagc.
  for (const member of trimmed.split(',')) {
    const item = member.trim()
    if (item === '') continue
    const opaque = ENTITY_TAG.exec(item)?.[1]
    if (opaque === undefined) return undefined
    tags.add(opaque)
  }
  return tags.size > 0 ? { any: false, tags } : undefined
}

/**
 * The `ifNoneMatch` predicate of `renderDesign` for a request's `If-None-Match` header, or
 * `undefined` without a usable one. Weak comparison, as RFC 9110 requires for `If-None-Match`:
 * `W/"x"` matches `"x"`. `*` matches any render that exists (a render that fails before, e.g.
 * an unknown design, is answered by its error, not a 304).
 */
export function ifNoneMatchPredicate(header: string | null): ((etag: string) => boolean) | undefined {
  const parsed = parseIfNoneMatch(header)
  if (parsed === undefined) return undefined
  return parsed.any ? () => true : (etag) => parsed.tags.has(etag)
}

/**
 * The headers a GET render (stream delivery) adds to the image: its `ETag` and `cacheControl`
 * (a URL whose credential is not a key, e.g. a signed link, may pass a public policy).
 */
export function entityTagHeaders(result: { delivery: string; etag?: string }, cacheControl: string = KEYED_RENDER_CACHE_CONTROL): Record<string, string> {
  if (result.delivery !== 'stream' || result.etag === undefined) return {}
  return { etag: result.etag, 'cache-control': cacheControl }
}

/**
 * The `304 Not Modified` of a GET render: no body; the `ETag`, `Cache-Control` (RFC 9110,
 * 15.4.5: the fields a 200 would carry, so the same `cacheControl` as the image's) and the
 * quota headers, since it was metered.
 */
export function notModifiedResponse(result: RenderNotModified, cacheControl: string = KEYED_RENDER_CACHE_CONTROL): Response {
  return new Response(null, {
    status: 304,
    headers: { ...quotaHeaders(result.quota), etag: result.etag, 'cache-control': cacheControl },
  })
}
