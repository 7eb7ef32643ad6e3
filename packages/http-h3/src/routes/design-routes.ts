/**
 * The signed-in user's designs (docs/http-reference.md, bearer `read`): the list, one design, and its
 * render configuration.
 *
 * @module routes/design-routes
 */
import { DesignResourceSchema, ListDesignsParamsSchema, PaginatedDesignsSchema, RenderConfigSchema, getDesign, getRenderConfig, listDesigns, parseListDesignsParams } from '@litho/core'
import * as z from 'zod'
import { bearerErrors, errorBody, jsonResponse } from '../openapi/responses.js'
import type { AppContext } from './app-context.js'
import { defineRoute } from './define-route.js'

/** Mounted with a bearer verifier (`oauth` or `bearer`). */
export const hasVerifier = (app: AppContext) => app.verifier !== undefined

/** The `id` path parameter of the design routes. */
export const designIdParams = z.object({ id: z.string().meta({ description: "The design's `_id` (from the design list), not its render code." }) })

/** `GET /designs/v2`. */
export const listDesignsRoute = defineRoute({
  method: 'GET',
  path: '/designs/v2',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: hasVerifier,
  operationId: 'listDesigns',
  tags: ['designs'],
  summary: 'List your designs, most recently updated first',
  query: [ListDesignsParamsSchema],
  responses: {
    '200': jsonResponse('A page of designs.', PaginatedDesignsSchema),
    '400': errorBody('`$page` or `$limit` is not a whole number in range (or given twice); `message` names it.'),
    ...bearerErrors,
  },
  handler: ({ app, account, event }) => listDesigns(app.services, { account, ...parseListDesignsParams(event.url.searchParams) }),
})

/** `GET /designs/v2/:id`. */
export const getDesignRoute = defineRoute({
  method: 'GET',
  path: '/designs/v2/:id',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: hasVerifier,
  operationId: 'getDesign',
  tags: ['designs'],
  summary: 'Get one of your designs',
  description: 'The design record (same shape as the MCP `get_design` tool): the published document in `design` (null while there is only a draft) and the unpublished `draft` when there is one.',
  params: designIdParams,
  responses: {
    '200': jsonResponse('The design.', DesignResourceSchema),
    ...bearerErrors,
    '404': errorBody("No design of yours has this id (another account's design is not found either)."),
  },
  handler: ({ app, account, param }) => getDesign(app.services, { account, id: param('id') }),
})

/** `GET /designs/v2/:id/config`. */
export const getRenderConfigRoute = defineRoute({
  method: 'GET',
  path: '/designs/v2/:id/config',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: hasVerifier,
  operationId: 'getRenderConfig',
  tags: ['designs'],
  summary: 'Get the render configuration of one of your designs',
  description: 'The render URL, the overridable dynamic fields (`data.pure` nested, `data.flatten` as the dot-path keys renders accept) and the sizes (`master` first). Describes the published version, or the draft of a design never published (whose render URL answers 404 until it is).',
  params: designIdParams,
  responses: {
    '200': jsonResponse('The render configuration.', RenderConfigSchema),
    '400': errorBody('The stored design document is invalid.'),
    ...bearerErrors,
    '404': errorBody('No design of yours has this id.'),
  },
  handler: ({ app, account, param }) => getRenderConfig(app.services, { account, id: param('id'), renderUrl: app.renderUrl }),
})
