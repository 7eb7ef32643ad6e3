/**
 * The render endpoints of `{render_url}` (docs/http-reference.md), with a render key: `GET|POST
 * /v1/:design_id` (one render) and `POST /bulk` (1-25 renders in one call).
 *
 * @module routes/render-routes
 */
import { BULK_DEFAULT_FORMAT, BulkRequestSchema, MAX_BULK_ITEMS, RENDER_PARAM_NAMES, RenderParamsSchema, bulkRender, invalidRequest, parseBulkRequest, parseRenderParams, renderDesign, type RenderParams } from '@litho/core'
import * as z from 'zod'
import { entityTagHeaders, ifNoneMatchPredicate, notModifiedResponse } from '../app/conditional-render.js'
import { json } from '../app/errors.js'
import { renderLinkOf } from '../app/render-link.js'
import { quotaHeaders, renderOutcomeResponse } from '../app/render-response.js'
import { BulkResponseSchema, RenderResultSchema } from '../openapi/components.js'
import { ifNoneMatchParam, withConditionalGet } from '../openapi/conditional.js'
import { commonErrors, errorBody, quotaResponseHeaders, STORAGE_FULL, UNKNOWN_PLAN } from '../openapi/responses.js'
import { defineRoute, type OpenApiObject } from './define-route.js'
import { RENDER_LINK_403, RENDER_LINK_QUERY } from './render-link-routes.js'

const designIdParams = z.object({ design_id: z.string().meta({ description: 'The render code of the design (from its render config), not its `_id`.' }) })

/** The `overrides` query parameter of renders and exports: dot-paths, one parameter each. */
export const overridesParam: OpenApiObject = {
  name: 'overrides',
  in: 'query',
  required: false,
  style: 'form',
  explode: true,
  description: 'Dynamic-field overrides as `<component_key>.<field>=<value>` (e.g. `title.text=Hello`). Keys that name nothing are ignored and reported in `X-Litho-Ignored-Overrides` (with `strict=true`: refused with 400).',
  schema: { type: 'object', additionalProperties: { type: 'string' } },
}

/** The image types a render or an export may answer with. */
export const IMAGE_CONTENT = {
  'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
  'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } },
  'image/webp': { schema: { type: 'string', contentMediaType: 'image/webp' } },
  'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
}

const renderResponses = {
  '200': {
    description: 'The image (`delivery=stream`, the default) or the render result (`hosted`, `signed`).',
    headers: {
      ...quotaResponseHeaders,
      'X-Litho-Ignored-Overrides': { description: 'Comma-separated, percent-encoded override keys that were ignored.', schema: { type: 'string' } },
      'X-Litho-Override-Suggestions': { description: 'For ignored keys that look like a typo of an overridable key: comma-separated `ignored=meant` pairs, percent-encoded, e.g. `titel.text=title.text`.', schema: { type: 'string' } },
      'X-Litho-Warnings': { description: 'Number of render warnings.', schema: { type: 'integer' } },
      'X-Litho-Cache': { description: '`hit` when the output cache served an image (`delivery=stream`) without rendering it, `miss` otherwise; still metered.', schema: { type: 'string', enum: ['hit', 'miss'] } },
    },
    content: { ...IMAGE_CONTENT, 'application/json': { schema: RenderResultSchema } },
  },
  ...commonErrors,
  '400': errorBody('A parameter or the body is invalid; `message` names it. With `strict=true` (or the server\'s `LITHO_STRICT_OVERRIDES=1`), also an override key that names no overridable field: `code` `ERR_INVALID_OVERRIDE`, `unknown` lists each key with its `suggestion` ("did you mean"), `valid` the keys that exist.'),
  '403': errorBody(`${STORAGE_FULL} Or: ${UNKNOWN_PLAN}`),
  '404': errorBody('No published design of this account has this render code. Given the `_id` of one of your own designs instead, the message names the render code to use.'),
  '413': errorBody('The body is larger than the limit.'),
  '422': errorBody('A remote image or font the design needs could not be fetched or decoded.'),
}

/** `GET /v1/:design_id`: a render, overrides in the query. */
export const renderRoute = defineRoute({
  method: 'GET',
  path: '/v1/:design_id',
  server: 'render',
  auth: { kind: 'render-key', mode: 'get-render' },
  operationId: 'renderDesign',
  tags: ['render'],
  summary: 'Render a design (overrides in the query)',
  description:
    'A GET render URL used in an image tag counts as a render. Takes a render key, or is a [signed render link](./signed-render-links.md) (`sig`, `kid`, optional `exp`), which needs none and is answered with a public `Cache-Control`. An image (`delivery=stream`) carries a strong `ETag` derived from the design version, the applied overrides, the variation, the format and the quality, and (with a key) `Cache-Control: private, no-cache`; a request whose `If-None-Match` matches it gets a 304 without a body, metered as a render (every fetch of a render URL counts). An `If-None-Match` that is not `*` or a list of entity tags is ignored.',
  params: designIdParams,
  query: [RenderParamsSchema, overridesParam, ...RENDER_LINK_QUERY, ifNoneMatchParam],
  responses: { ...withConditionalGet(renderResponses), '403': RENDER_LINK_403 },
  async handler({ app, account, event, param }) {
    // A signed link: its query without exp, kid and sig, and its Cache-Control (app/render-link.ts).
    const link = renderLinkOf(event)
    const query = link?.query ?? event.url.searchParams
    const cacheControl = link?.headers['cache-control']
    const ifNoneMatch = ifNoneMatchPredicate(event.req.headers.get('if-none-match'))
    const result = await renderDesign(app.services, { account, renderCode: param('design_id'), params: parseRenderParams(query), overrides: query, ...(ifNoneMatch ? { ifNoneMatch } : {}) })
    if (result.delivery === 'not-modified') return notModifiedResponse(result, cacheControl)
    return renderOutcomeResponse(result, { name: param('design_id'), disposition: 'inline', headers: { ...link?.headers, ...entityTagHeaders(result, cacheControl) } })
  },
})

/** `POST /v1/:design_id`: a render, overrides (and parameters) in a JSON body. */
export const renderWithBodyRoute = defineRoute({
  method: 'POST',
  path: '/v1/:design_id',
  server: 'render',
  auth: { kind: 'render-key', mode: 'post-render' },
  body: { kind: 'json' },
  operationId: 'renderDesignWithBody',
  tags: ['render'],
  summary: 'Render a design (overrides in a JSON body)',
  description: 'The body is an object of overrides (dot-paths or nested). `format`, `quality`, `variation`, `delivery` and `expiresIn` may also be given in the body; the query wins. Nothing is stored unless delivery is hosted or signed.',
  params: designIdParams,
  query: [RenderParamsSchema],
  requestBody: { required: false, content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } },
  responses: renderResponses,
  async handler({ app, account, event, body, param }) {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
      throw invalidRequest([{ path: 'body', message: `expected a JSON object of overrides, received ${Array.isArray(body) ? 'an array' : JSON.stringify(body)}` }])
    const { params, overrides } = splitBody(body as Record<string, unknown> | undefined)
    // The query wins over the body for the same parameter.
    const result = await renderDesign(app.services, {
      account,
      renderCode: param('design_id'),
      params: { ...params, ...parseRenderParams(event.url.searchParams) },
      overrides: [event.url.searchParams, overrides],
    })
    return renderOutcomeResponse(result, { name: param('design_id'), disposition: 'inline' })
  },
})

/** `POST /bulk`: several renders, stored, in one call. */
export const bulkRoute = defineRoute({
  method: 'POST',
  path: '/bulk',
  server: 'render',
  auth: { kind: 'render-key', mode: 'bulk' },
  body: { kind: 'json' },
  operationId: 'bulkRender',
  tags: ['render'],
  summary: `Render 1-${MAX_BULK_ITEMS} items in one call`,
  description: `Each item is one render against the quota, metered all or nothing (a 429 renders nothing); a failed item is refunded and reported on its row without aborting the others. Items without a format of their own use the request's, else ${BULK_DEFAULT_FORMAT}.`,
  requestBody: { required: true, content: { 'application/json': { schema: BulkRequestSchema } } },
  responses: {
    '200': { description: 'One row per item, in order, and a summary.', headers: quotaResponseHeaders, content: { 'application/json': { schema: BulkResponseSchema } } },
    ...commonErrors,
    '413': errorBody('The body is larger than the limit.'),
  },
  async handler({ app, account, body }) {
    if (body === undefined) throw invalidRequest([{ path: 'body', message: 'expected a JSON object with "items", received an empty body' }])
    const result = await bulkRender(app.services, { account, request: parseBulkRequest(body) })
    return json(result.body, 200, quotaHeaders(result.quota))
  },
})

/** Splits a POST body into render parameters (`format`… also accepted there) and overrides. */
function splitBody(body: Record<string, unknown> | undefined): { params: RenderParams; overrides: Record<string, unknown> } {
  if (body === undefined) return { params: {}, overrides: {} }
  const picked: Record<string, unknown> = {}
  const overrides: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body)) {
    if ((RENDER_PARAM_NAMES as readonly string[]).includes(key)) picked[key] = value
    else overrides[key] = value
  }
  return { params: parseRenderParams(picked), overrides }
}
