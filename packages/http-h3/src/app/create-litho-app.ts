/**
 * `createLithoApp`: the render service of interface.md (render, bulk, stored files, the
 * OpenAPI document) as an h3 v2 app, over the ports of `@litho/core/contracts`.
 *
 * Each handler returns a web `Response` and maps its own errors (`toErrorResponse`), so the
 * app behaves the same served alone or mounted into another h3 app (a mounted app does not
 * inherit its parent's hooks, nor the parent ours).
 *
 * @module app/create-litho-app
 */
import {
  RENDER_PARAM_NAMES,
  bulkRender,
  invalidRequest,
  parseBulkRequest,
  parseRenderParams,
  renderDesign,
  type Clock,
  type ExportJobServices,
  type RenderDesignRequest,
  type RenderDesignResult,
  type RefundLedger,
  type RenderParams,
  type Renderer,
  type UrlSigner,
} from '@litho/core'
import type { AccountStore, DesignStore, FileStore, Meter, RetentionIndex } from '@litho/core/contracts'
import { createRenderKeyAuthenticator, type AuthorizationServer, type BearerVerifier } from '@litho/auth-adapters'
import { H3, getRequestIP, getRouterParam, type H3Event } from 'h3'
import { mountBearerRoutes } from './bearer-routes.js'
import { mountMcpRoute } from '../mcp/mcp-route.js'
import { createOpenApiDocument } from './openapi.js'
import { readJsonBody } from './read-json-body.js'
import { requireRenderKey } from './render-key.js'
import { malformedUrlResponse } from './malformed-url.js'
import { errorJson, json, quotaHeaders, renderOutcomeResponse, toErrorResponse } from './respond.js'
import { serveStoredFile } from './serve-file.js'

/** Options of {@link createLithoApp}: the adapters, and the addresses clients reach the app at. */
export interface LithoAppOptions {
  designs: DesignStore
  accounts: AccountStore
  /** Stored renders. App-served stores (fs, Redis, memory) need `signer`; their `publicBaseUrl` must be `<renderUrl>/files`. */
  files: FileStore
  meter: Meter
  /**
   * Where a refund the meter refused is recorded for `reconcileRefunds` (e.g.
   * `stateStoreRefundLedger(authState)` of `@litho/core`). Failed refunds are retried, then
   * recorded here, and reported through `onError` either way. @default not recorded, only reported
   */
  refundLedger?: RefundLedger
  /** Records stored renders for the retention sweep (`sweepStoredFiles`, `litho gc`); without it they are never swept. */
  retention?: RetentionIndex
  /** Renders off the request thread: pass `createRenderPool()` on a server. */
  renderer: Pick<Renderer, 'render'>
  /** Verifies signed URLs of app-served file stores: the signer the file store signs with. */
  signer?: UrlSigner
  /** @default the system clock */
  clock?: Clock
  /** `{base_url}`: where the design, analytics and settings endpoints are reached. @default renderUrl */
  baseUrl?: string
  /** `{render_url}`: where this app's routes are reached, e.g. `https://render.example.com` (**required**). */
  renderUrl: string
  /** `{auth_url}`: the authorization server. @default baseUrl */
  authUrl?: string
  /** Largest JSON body of a render POST, a bulk, an export or an MCP message, in bytes (413 beyond it, without reading the rest). @default 2 MiB */
  maxBodyBytes?: number
  /** Bulk items rendered at once. @default 4 */
  bulkConcurrency?: number
  /**
   * The built-in OAuth authorization server (`createAuthorizationServer` of
   * `@litho/auth-adapters`), mounted at the paths of interface.md §5 when given.
   */
  oauth?: AuthorizationServer
  /**
   * Verifies the bearer tokens of the design, analytics and settings endpoints: pass
   * `createJwksVerifier(…)` to accept your own authorization server's tokens.
   * @default oauth.verifier; without either, those endpoints are not mounted
   */
  bearer?: BearerVerifier
  /** Issuers the protected-resource metadata names. @default the built-in server's default org */
  authorizationServers?: string[]
  /**
   * Durable export jobs: a job store, a queue and (optionally) completion webhooks. Mounts
   * `POST /designs/v2/:id/export/jobs`, `GET /analytics/exports/:exportId` and the webhook-secret
   * routes. The app only enqueues: run the jobs with `queue.start(createExportJobHandler(…))`.
   */
  jobs?: Pick<ExportJobServices, 'jobs' | 'queue' | 'webhooks'>
  /** Origins of browser pages (besides `{base_url}`'s own) allowed to call `/api/mcp`, e.g. an MCP inspector's. @default none */
  mcpAllowedOrigins?: string[]
  /** Trust `X-Forwarded-For` for the client address of rate limits (behind a proxy). @default false */
  trustProxy?: boolean
  /** Called with unexpected errors (500s, storage failures) for logging. @default console.error */
  onError?: (error: unknown) => void
}

const DEFAULT_MAX_BODY = 2 * 1024 * 1024

/**
 * Creates the h3 app. Routes (relative to where it is served or mounted):
 * `GET|POST /v1/:designId`, `POST /bulk`, `GET|HEAD /files/**` (app-served stored files),
 * `GET /openapi.json`; with a bearer verifier (`oauth` or `bearer`) also `GET /designs/v2`,
 * `GET /designs/v2/:id`, `GET /designs/v2/:id/config`, `POST /designs/v2/:id/export`,
 * `POST /designs/v2/:id/export/driver-upload`, `POST /designs/v2/:id/export/signed-url`, `GET /analytics/api`,
 * `GET|POST /settings/api-keys`, `DELETE /settings/api-keys/:id` and the RFC 9728 documents
 * under `/.well-known/oauth-protected-resource`, and the MCP endpoint `/api/mcp`; with `oauth` the
 * authorization server's routes.
 *
 * @example
 * import { H3, serve } from 'h3'
 * const litho = createLithoApp({ designs, accounts, files, meter, renderer: createRenderPool(), signer, renderUrl: 'http://localhost:3000' })
 * serve(new H3().mount('/', litho), { port: 3000 })
 */
export function createLithoApp(options: LithoAppOptions): H3 {
  const renderUrl = normaliseAddress('renderUrl', options.renderUrl)
  const baseUrl = options.baseUrl === undefined ? renderUrl : normaliseAddress('baseUrl', options.baseUrl)
  const authUrl = options.authUrl === undefined ? baseUrl : normaliseAddress('authUrl', options.authUrl)
  if (!options.files.capabilities.presigned && options.signer === undefined)
    throw Object.assign(new TypeError(`Expected option signer: the ${options.files.name} file store's signed URLs are checked by the app`), { code: 'ERR_MISSING_OPTION' })
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY
  const report = options.onError ?? ((error: unknown) => console.error('[litho]', error))
  const clock = options.clock ?? { now: () => new Date() }
  const authenticate = createRenderKeyAuthenticator({ accounts: options.accounts, now: () => clock.now() })
  const refunds = { report, ...(options.refundLedger ? { ledger: options.refundLedger } : {}) }
  const services = {
    designs: options.designs,
    files: options.files,
    meter: options.meter,
    refunds,
    retention: options.retention,
    renderer: options.renderer,
    clock,
    ...(options.bulkConcurrency ? { bulkConcurrency: options.bulkConcurrency } : {}),
  }
  const openapi = JSON.stringify(createOpenApiDocument({ renderUrl, baseUrl, authUrl }))

  const handle = (fn: (event: H3Event) => Promise<Response>) => async (event: H3Event) => {
    try {
      return await fn(event)
    } catch (error) {
      return toErrorResponse(error, report)
    }
  }
  const designIdOf = (event: H3Event) => getRouterParam(event, 'designId') ?? ''

  /** A render route: the key check of `mode`, then parameters and overrides from `read`. */
  const renderRoute = (mode: 'get-render' | 'post-render', read: (event: H3Event) => Promise<{ params: RenderParams; overrides: RenderDesignRequest['overrides'] }>) =>
    handle(async (event) => {
      const principal = await requireRenderKey(event.req, event.url, mode, authenticate)
      const { params, overrides } = await read(event)
      const result = await renderDesign(services, { account: principal.user, renderCode: designIdOf(event), params, overrides })
      return toRenderResponse(result, designIdOf(event))
    })

  // A path like /v1/%ZZ is refused by h3 before routing; answer it in Litho's error shape.
  const app = new H3({ onError: malformedUrlResponse })
  // Mounted into another app (even at '/'), this middleware still runs for our routes.
  app.use(withSecurityHeaders)
  app.get(
    '/v1/:designId',
    renderRoute('get-render', async (event) => ({ params: parseRenderParams(event.url.searchParams), overrides: event.url.searchParams })),
  )
  app.post(
    '/v1/:designId',
    renderRoute('post-render', async (event) => {
      const body = await readJsonBody(event.req, maxBodyBytes)
      if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
        throw invalidRequest([{ path: 'body', message: `expected a JSON object of overrides, received ${Array.isArray(body) ? 'an array' : JSON.stringify(body)}` }])
      const { params, overrides } = splitBody(body as Record<string, unknown> | undefined)
      // The query wins over the body for the same parameter.
      return { params: { ...params, ...parseRenderParams(event.url.searchParams) }, overrides: [event.url.searchParams, overrides] }
    }),
  )
  app.post(
    '/bulk',
    handle(async (event) => {
      const principal = await requireRenderKey(event.req, event.url, 'bulk', authenticate)
      const body = await readJsonBody(event.req, maxBodyBytes)
      if (body === undefined) throw invalidRequest([{ path: 'body', message: 'expected a JSON object with "items", received an empty body' }])
      const result = await bulkRender(services, { account: principal.user, request: parseBulkRequest(body) })
      return json(result.body, 200, quotaHeaders(result.quota))
    }),
  )
  if (!options.files.capabilities.presigned) {
    const serve = handle((event) => serveStoredFile(event, { files: options.files, signer: options.signer!, now: clock.now() }))
    app.get('/files/**:key', serve)
    app.head('/files/**:key', serve)
  }
  const verifier = options.bearer ?? options.oauth?.verifier
  if (verifier) {
    mountBearerRoutes(app, {
      designs: options.designs,
      accounts: options.accounts,
      meter: options.meter,
      refunds,
      files: options.files,
      retention: options.retention,
      renderer: options.renderer,
      maxBodyBytes,
      clock,
      verifier,
      oauth: options.oauth,
      authorizationServers: options.authorizationServers,
      baseUrl,
      renderUrl,
      clientAddress: (event) => getRequestIP(event, { xForwardedFor: options.trustProxy === true }),
      ...(options.jobs ? { jobs: options.jobs } : {}),
      report,
    })
    mountMcpRoute(app, {
      designs: options.designs,
      accounts: options.accounts,
      renderer: options.renderer,
      meter: options.meter,
      clock,
      verifier,
      baseUrl,
      renderUrl,
      maxBodyBytes,
      ...(options.mcpAllowedOrigins ? { allowedOrigins: options.mcpAllowedOrigins } : {}),
      report,
    })
  }
  app.get('/openapi.json', () => new Response(openapi, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' } }))
  return app
}

/**
 * `X-Content-Type-Options: nosniff` on every response of the app (JSON, HTML pages, images,
 * stored files, errors): a browser must never guess a stored file or an error to be HTML or
 * script. In one place, so no route can forget it.
 */
async function withSecurityHeaders(event: H3Event, next: () => unknown): Promise<unknown> {
  // For handlers that return a value rather than a Response, and h3's own errors (a 404, a malformed URL).
  event.res.headers.set('x-content-type-options', 'nosniff')
  event.res.errHeaders.set('x-content-type-options', 'nosniff')
  const result = await next()
  if (!(result instanceof Response)) return result
  try {
    result.headers.set('x-content-type-options', 'nosniff')
    return result
  } catch {
    // A Response with immutable headers (one a handler passed through from fetch): copy it.
    const headers = new Headers(result.headers)
    headers.set('x-content-type-options', 'nosniff')
    return new Response(result.body, { status: result.status, statusText: result.statusText, headers })
  }
}

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

/** Bytes for `stream`; the JSON render result for `hosted` and `signed`. */
function toRenderResponse(result: RenderDesignResult, renderCode: string): Response {
  return renderOutcomeResponse(result, { name: renderCode, disposition: 'inline' })
}

function normaliseAddress(name: string, value: unknown): string {
  let url: URL
  try {
    url = new URL(String(value))
  } catch {
    throw Object.assign(new TypeError(`Expected option ${name} to be an absolute http(s) URL but received ${JSON.stringify(value)}`), { code: 'ERR_INVALID_ARG_VALUE' })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw Object.assign(new TypeError(`Expected option ${name} to be an http(s) URL but received ${JSON.stringify(value)}`), { code: 'ERR_INVALID_ARG_VALUE' })
  // Trailing slashes; (?<!\/) starts a match only at the first of them, so it stays linear.
  return url.href.replace(/(?<!\/)\/+$/, '')
}

