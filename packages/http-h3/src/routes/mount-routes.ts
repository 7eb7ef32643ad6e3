/**
 * Mounts a route table on an h3 app. Each route gets, as route middleware (which travels with
 * the route when the app is mounted into another): its CORS, the error map (errors.ts), the
 * credential check, then its body read through its limit; the handler runs last.
 *
 * @module routes/mount-routes
 */
import { getRouterParam, type H3, type H3Event, type Middleware } from 'h3'
import { requireBearerUser } from '../app/bearer.js'
import { bearerCors, bearerPreflight } from '../app/cors.js'
import { json, mapErrors } from '../app/errors.js'
import { readBoundedRequest, readJsonBody } from '../app/read-json-body.js'
import { requireRenderKey } from '../app/render-key.js'
import { isRenderLinkRequest, requireRenderLink } from '../app/render-link.js'
import { MCP_PATH, PROTECTED_RESOURCE_PATH, type AppContext } from './app-context.js'
import type { RouteAccount, RouteDefinition, RouteInput } from './define-route.js'

/** What the middleware of a route leaves for its handler. */
interface RouteState {
  account?: RouteAccount
  principal?: RouteInput['principal']
  body?: unknown
  request?: Request
}

/** `meta` of the h3 routes mounted here: the operation documented, or a preflight. */
export interface LithoRouteMeta {
  operationId?: string
  preflight?: true
}

const stateOf = (event: H3Event): RouteState => ((event.context as { litho?: RouteState }).litho ??= {})

/**
 * Mounts the routes of `table` whose condition holds for `context`, and the CORS preflights of
 * their paths (`OPTIONS`, answered before auth).
 *
 * @example mountRoutes(new H3(), ROUTES, createAppContext(options, addresses))
 */
export function mountRoutes(app: H3, table: readonly RouteDefinition[], context: AppContext): H3 {
  const routes = table.filter((route) => route.when?.(context) ?? true)
  // One preflight per path, allowing the methods of its routes in table order.
  const preflights = new Map<string, string[]>()
  for (const route of routes) {
    if (route.cors?.kind !== 'bearer' || route.method === 'ALL') continue
    preflights.set(route.path, [...(preflights.get(route.path) ?? []), route.method])
  }
  for (const [path, methods] of preflights) {
    const allowed = [...methods, 'OPTIONS'].join(', ')
    app.options(path, () => bearerPreflight(allowed), { meta: { preflight: true } satisfies LithoRouteMeta })
  }
  for (const route of routes) {
    const handler = async (event: H3Event) => {
      const state = stateOf(event)
      const result = await route.handler({
        event,
        app: context,
        account: state.account!,
        principal: state.principal,
        body: state.body,
        request: state.request ?? event.req,
        param: (name) => getRouterParam(event, name) ?? '',
      })
      return result instanceof Response ? result : json(result)
    }
    const errors = mapErrors(route.errors ?? 'litho', context.report)
    const middleware = [...corsOf(route), errors, ...(route.before ? [route.before(context)] : []), authenticate(route, context), ...(route.body ? [readRouteBody(route.body, context)] : [])]
    const meta = { operationId: route.operationId } satisfies LithoRouteMeta
    app.on(route.method === 'ALL' ? '' : route.method, route.path, handler, { middleware, meta })
    // The authorization server's documents answer their own preflights.
    if (route.cors?.kind === 'self') app.options(route.path, handler, { middleware: [errors], meta: { ...meta, preflight: true } })
  }
  return app
}

function corsOf(route: RouteDefinition): Middleware[] {
  if (route.cors?.kind !== 'bearer') return []
  const methods = route.cors.methods ?? [route.method]
  return [bearerCors({ methods: [...methods, 'OPTIONS'].join(', '), noStore: route.auth.kind === 'bearer', ...(route.cors.expose ? { expose: route.cors.expose } : {}) })]
}

/** The credential check of `route.auth`; the account (and principal) it finds go to the handler. */
function authenticate(route: RouteDefinition, context: AppContext): Middleware {
  const auth = route.auth
  if (auth.kind === 'render-key') {
    return async (event) => {
      // A GET render with `sig` is a signed link, checked instead of a key (docs/signed-render-links.md).
      if (auth.mode === 'get-render' && isRenderLinkRequest(event)) {
        stateOf(event).account = await requireRenderLink(event, context)
        return
      }
      const principal = await requireRenderKey(event.req, event.url, auth.mode, context.authenticateKey)
      stateOf(event).account = principal.user
    }
  }
  if (auth.kind === 'bearer') {
    const mcp = auth.audience === 'mcp'
    // The MCP endpoint takes a token issued for its own URI or for the API base address (docs/authentication.md).
    const resource = mcp ? [`${context.baseUrl}${MCP_PATH}`, context.baseUrl] : context.baseUrl
    const resourceMetadataUrl = `${context.baseUrl}${PROTECTED_RESOURCE_PATH}${mcp ? MCP_PATH : ''}`
    return async (event) => {
      const { principal, user } = await requireBearerUser(event.req, { verifier: context.verifier!, accounts: context.options.accounts, resource, resourceMetadataUrl, scope: auth.scope })
      const state = stateOf(event)
      state.account = { id: user.id, plan: user.plan }
      state.principal = principal
    }
  }
  return () => undefined
}

/** Reads the body once, after the credential check, through the route's limit (the app's `maxBodyBytes` unless it names its own). */
function readRouteBody(body: NonNullable<RouteDefinition['body']>, context: AppContext): Middleware {
  const limit = body.limit ?? context.maxBodyBytes
  return async (event) => {
    if (body.kind === 'json') stateOf(event).body = await readJsonBody(event.req, limit)
    else stateOf(event).request = await readBoundedRequest(event.req, limit)
  }
}
