/**
 * The OpenAPI parts of conditional GET renders (app/conditional-render): the `If-None-Match`
 * parameter, the `ETag` and `Cache-Control` of the image, and the 304.
 *
 * @module openapi/conditional
 */
import type { OpenApiObject } from '../routes/define-route.js'
import { quotaResponseHeaders } from './responses.js'

/** The `If-None-Match` request header of a GET render. */
export const ifNoneMatchParam: OpenApiObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'Entity tags of renders the client holds (`"…"`, `W/"…"`, comma-separated) or `*`. Compared weakly (RFC 9110, 13.1.2); a value of another shape is ignored.',
  schema: { type: 'string' },
}

/** The headers a GET render adds to the image (stream delivery). */
export const entityTagResponseHeaders = {
  ETag: { description: 'Strong entity tag of the output: changes with the design version (every update or publish), the applied overrides, the variation, the format and the quality.', schema: { type: 'string' } },
  'Cache-Control': { description: '`private, no-cache` for an image: a browser may keep it and revalidate with `If-None-Match`; shared caches must not keep a keyed render.', schema: { type: 'string' } },
}

/** The 304 of a GET render. */
export const notModifiedResponse: OpenApiObject = {
  description: '`If-None-Match` matched the render\'s `ETag`: no body. Metered as a render (every fetch of a render URL counts); carries the quota headers.',
  headers: { ...quotaResponseHeaders, ...entityTagResponseHeaders },
}

/** `responses` of a GET render with the ETag headers on its 200 and the 304 added. */
export function withConditionalGet<R extends { '200': { headers: Record<string, unknown> } }>(responses: R): R & { '304': OpenApiObject } {
  return { ...responses, '200': { ...responses['200'], headers: { ...responses['200'].headers, ...entityTagResponseHeaders } }, '304': notModifiedResponse }
}
