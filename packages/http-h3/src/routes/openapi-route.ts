/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of the route table, for this app's addresses.
 *
 * @module routes/openapi-route
 */
import { defineRoute } from './define-route.js'

/** `GET /openapi.json`. */
export const openApiRoute = defineRoute({
  method: 'GET',
  path: '/openapi.json',
  server: 'render',
  auth: { kind: 'public' },
  operationId: 'getOpenApiDocument',
  tags: ['openapi'],
  summary: 'This document',
  description: 'The OpenAPI 3.1 document of every route, generated from the route table that mounts them.',
  responses: { '200': { description: 'The document (cacheable for 5 minutes).', content: { 'application/json': {} } } },
  handler: ({ app }) => new Response(app.openApiDocument(), { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' } }),
})
