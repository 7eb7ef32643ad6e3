/**
 * One route, declared once: how it is mounted (method, path, credentials, CORS, body, error
 * bodies) and how it is documented (operation id, texts, parameters, responses). The route
 * table (`table.ts`) holds every route of the app; `mountRoutes` mounts it on an h3 app and
 * `createOpenApiDocument` documents it, so what is served and what is described cannot drift.
 *
 * @module routes/define-route
 */
import type { PlanId } from '@litho/core'
import type { BearerPrincipal } from '@litho/auth-adapters'
import type { H3Event, Middleware } from 'h3'
import type { ZodObject } from 'zod'
import type { Scope } from '../app/bearer.js'
import type { ErrorStyle } from '../app/errors.js'
import type { RenderKeyRoute } from '../app/render-key.js'
import type { AppContext } from './app-context.js'

/** A JSON value of the OpenAPI document (a response, a parameter, a schema). */
export type OpenApiObject = Record<string, unknown>

/** How a route is mounted: one method, or every method (the handler answers the others itself). */
export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'ALL'

/** Where a route is reached: `{render_url}`, `{base_url}` or `{auth_url}` (docs/http-reference.md). */
export type RouteServer = 'render' | 'base' | 'auth'

/**
 * The credential a route takes, checked before its body is read: a render key (where `mode`
 * accepts it, see render-key.ts), a bearer token with `scope` (issued for the API, or for the
 * MCP endpoint and the API with `audience: 'mcp'`), a signed URL the handler checks, or none.
 */
export type RouteAuth =
  | { kind: 'render-key'; mode: RenderKeyRoute }
  | { kind: 'bearer'; scope: Scope; audience?: 'api' | 'mcp' }
  | { kind: 'signed-url' }
  | { kind: 'public' }

/**
 * The CORS of a route. `bearer`: every answer readable by any origin, preflights answered
 * before auth (cors.ts), `expose` adding response headers; `methods` for an `ALL` route. `self`:
 * the handler answers its own preflights (the authorization server's documents).
 */
export type RouteCors = { kind: 'bearer'; expose?: string; methods?: readonly string[] } | { kind: 'self' }

/** The body a route reads after its credential is checked: parsed JSON, or the request with its body read (for a handler that parses it itself). */
export type RouteBody = { kind: 'json' | 'request'; limit?: number }

/** The account a route acts for: the render key's owner or the bearer token's user. */
export interface RouteAccount {
  id: string
  plan: PlanId
}

/** What a handler receives. */
export interface RouteInput {
  event: H3Event
  app: AppContext
  /** The authenticated account (render-key and bearer routes). */
  account: RouteAccount
  /** The bearer token's principal (bearer routes). */
  principal: BearerPrincipal | undefined
  /** The parsed JSON body (`body: { kind: 'json' }`; `undefined` for an empty body). */
  body: unknown
  /** The request, its body read through the limit (`body: { kind: 'request' }`), else `event.req`. */
  request: Request
  /** A path parameter, `''` when absent. */
  param(name: string): string
}

/** A route of the table. */
export interface RouteDefinition {
  method: RouteMethod
  /** h3 syntax: `/designs/v2/:id`, `/files/**:key`. Documented as `/designs/v2/{id}`, `/files/{key}`. */
  path: string
  server: RouteServer
  auth: RouteAuth
  /** Mounted only when this holds (jobs, a bearer verifier, the built-in authorization server, app-served files). Documented always. */
  when?: (app: AppContext) => boolean
  cors?: RouteCors
  body?: RouteBody
  /** Error bodies: Litho's JSON (default), or OAuth's `server_error`. */
  errors?: ErrorStyle
  /** Middleware run before the credential check (the MCP endpoint's Origin check). */
  before?: (app: AppContext) => Middleware
  operationId: string
  summary: string
  description?: string
  tags: readonly string[]
  /** For an `ALL` route: the method documented (the handler answers the others itself). */
  documented?: 'get' | 'post'
  /** The path parameters, one field each (its `description` from `.meta()`). */
  params?: ZodObject
  /** The query parameters: a zod object (one optional parameter per field) or an OpenAPI parameter. */
  query?: ReadonlyArray<ZodObject | OpenApiObject>
  /** The OpenAPI request body; a `schema` in it is a zod schema (a component is referred to by name, openapi/schema.ts). */
  requestBody?: OpenApiObject
  /** The OpenAPI responses by status, their `schema`s zod schemas as in `requestBody`. */
  responses: Record<string, OpenApiObject>
  /** Returns a Response, or a value answered as JSON with status 200; throws errors (errors.ts). */
  handler: (input: RouteInput) => unknown
}

/**
 * Declares a route (typed; returns it unchanged).
 *
 * @example
 * export const getDesignRoute = defineRoute({
 *   method: 'GET', path: '/designs/v2/:id', server: 'base', auth: { kind: 'bearer', scope: 'read' }, cors: { kind: 'bearer' },
 *   operationId: 'getDesign', summary: 'Get one of your designs', tags: ['designs'],
 *   params: z.object({ id: z.string() }), responses: { '200': jsonResponse('The design.', DesignResourceSchema) },
 *   handler: ({ app, account, param }) => getDesign(app.services, { account, id: param('id') }),
 * })
 */
export function defineRoute(route: RouteDefinition): RouteDefinition {
  return route
}
