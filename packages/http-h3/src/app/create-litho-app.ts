/**
 * `createLithoApp`: the render service of docs/http-reference.md (render, bulk, stored files, the
 * OpenAPI document, and with a bearer verifier the design, export, analytics, settings and MCP
 * endpoints) as an h3 v2 app, over the ports of `@litho/core/contracts`.
 *
 * The routes are the route table of `routes/table.ts`, mounted by `mountRoutes`; each carries
 * its own middleware (CORS, the error map of errors.ts, its credential check, its body limit),
 * so the app behaves the same served alone or mounted into another h3 app (a mounted app's
 * routes are copied into the parent, whose options and hooks apply, not ours).
 *
 * @module app/create-litho-app
 */
import { H3, type H3Event } from 'h3'
import type { Clock, ExportJobServices, NetworkPolicy, OutputCache, PlanTable, RefundLedger, RenderLinkSettings, Renderer, UrlSigner } from '@litho/core'
import type { AccountStore, AssetStore, DesignStore, FileStore, Meter, RetentionIndex } from '@litho/core/contracts'
import type { AuthorizationServer, BearerVerifier } from '@litho/auth-adapters'
import { createOpenApiDocument } from '../openapi/document.js'
import { createAppContext } from '../routes/app-context.js'
import { mountRoutes } from '../routes/mount-routes.js'
import { ROUTES } from '../routes/table.js'
import type { LithoLogger } from '../observe/logger.js'
import type { LithoMetrics } from '../observe/metrics.js'
import { METRICS_PATH, metricsResponse, metricsTokenProblem } from '../observe/metrics-endpoint.js'
import { mountConsole, type ConsoleOptions } from './console.js'
import type { ErrorReportContext } from './errors.js'
import { malformedUrlResponse } from './malformed-url.js'
import { observeRequests } from './observe-requests.js'

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
  /**
   * The asset library (docs/assets.md): records of uploaded images, whose bytes go to `files`.
   * Mounts `/assets` (with a bearer verifier), the MCP tools `upload_asset` and `list_assets`, and
   * lets designs draw `asset:<id>`. @default none: no asset routes, and `asset:` sources fail
   */
  assets?: AssetStore
  /**
   * Where the app itself may fetch: the image URL of the MCP tool `upload_asset`. Give it the
   * renderer's policy. @default networkPolicyFromEnv() (https to public addresses only)
   */
  network?: NetworkPolicy
  /** Renders off the request thread: pass `createRenderPool()` on a server. */
  renderer: Pick<Renderer, 'render'>
  /** Verifies signed URLs of app-served file stores: the signer the file store signs with. */
  signer?: UrlSigner
  /**
   * Signed render links (docs/signed-render-links.md): the master key link secrets are derived
   * from (keep it out of the stores) and the longest `exp` accepted. @default none: links are
   * refused (403 `links_disabled`) and new keys get no link secret
   */
  renderLinks?: RenderLinkSettings
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
  /**
   * The output cache of stream renders (docs/performance.md, "Output cache"): identical
   * requests are served without rendering (still metered). `maxBytes` of memory (0: none);
   * `shared: true` also keeps entries in `files` under `output-cache/`, so instances with the
   * same file store serve each other's renders; `false` turns it off; or pass a cache made with
   * `createOutputCache` of `@litho/core`. @default 64 MiB in memory, not shared
   */
  outputCache?: false | OutputCache | { maxBytes?: number; shared?: boolean; remoteTtlMs?: number }
  /** Bulk items rendered at once. @default 4 */
  bulkConcurrency?: number
  /**
   * Strict overrides by default: a render whose override keys name no overridable field is a
   * 400 naming each (with "did you mean") unless the request says `strict=false`. @default false
   */
  strictOverrides?: boolean
  /**
   * The plans accounts may be on: each plan's renders per window (`null`: not capped), designs
   * (`templates`), `storageBytes` and `window` (`month`, `week` or `day`), checked now by
   * `parsePlanTable` of `@litho/core` (docs/quotas-and-plans.md, "Your own plans"). A user whose
   * stored plan is not in it is refused (403 `ERR_UNKNOWN_PLAN`) where the plan applies. Run the
   * export-job handler with the same table (`plans` of its services). @default PLANS
   */
  plans?: PlanTable
  /**
   * The built-in OAuth authorization server (`createAuthorizationServer` of
   * `@litho/auth-adapters`), mounted at the paths of docs/authentication.md ("Orgs and issuers") when given.
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
  /**
   * The Litho Console (docs/console.md) at `{base_url}/console`, and a page at `/` linking to it:
   * pass `{ assetsDir: consoleAssetsDir }` of `@litho/console`. Its sign-in needs the OAuth
   * client `litho-console` with the redirect URI `{base_url}/console/` (`litho serve` registers
   * it). @default not served
   */
  console?: ConsoleOptions
  /**
   * The API reference at `{base_url}/docs`: Swagger UI over `/openapi.json`, its files served
   * by the app from `swagger-ui-dist` (docs/http-reference.md). `litho serve` turns it on.
   * @default false
   */
  docs?: boolean
  /** Trust `X-Forwarded-For` for the client address of rate limits (behind a proxy). @default false */
  trustProxy?: boolean
  /**
   * Called with unexpected errors (500s, storage failures) for logging, with the id of the
   * request they happened in when there is one. @default `logger.error`, else console.error
   */
  onError?: (error: unknown, context?: ErrorReportContext) => void
  /**
   * Prometheus metrics (docs/metrics.md): pass `createLithoMetrics()`. The app counts its
   * requests by route pattern and status, times its renders by format and cache, and counts
   * render outcomes by error code. @default none
   */
  metrics?: LithoMetrics
  /**
   * `GET /metrics` on this app when `metrics` is given: `false` to serve the registry yourself
   * (another port), or a `token` scrapers must send as `Authorization: Bearer <token>` (at
   * least 16 characters). @default served, without a token
   */
  metricsEndpoint?: false | { token?: string }
  /** Structured log (a pino logger fits): errors with their request id, and request lines with `logRequests`. @default none */
  logger?: LithoLogger
  /** One log line per request through `logger`: request id, method, route pattern, path, status, milliseconds. @default false */
  logRequests?: boolean
}

/**
 * Creates the h3 app: the routes of the route table (`routes/table.ts`; docs/http-reference.md
 * lists them), relative to where it is served or mounted: `GET|POST /v1/:design_id`,
 * `POST /bulk`, `GET|HEAD /files/**` (app-served stored files), `GET /openapi.json`; with a bearer
 * verifier (`oauth` or `bearer`) also the design, export, analytics and settings endpoints, the
 * RFC 9728 documents under `/.well-known/oauth-protected-resource` and the MCP endpoint
 * `/api/mcp`; with `jobs` the export-job (and webhook-secret) endpoints; with `oauth` the
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
  const token = options.metricsEndpoint ? options.metricsEndpoint.token : undefined
  const tokenProblem = token === undefined ? undefined : metricsTokenProblem(token)
  if (tokenProblem) throw Object.assign(new TypeError(`Expected option metricsEndpoint.token: ${tokenProblem}`), { code: 'ERR_INVALID_ARG_VALUE' })
  const addresses = { renderUrl, baseUrl, authUrl }
  let openapi: string | undefined
  const context = createAppContext(options, addresses, () => (openapi ??= JSON.stringify(createOpenApiDocument(addresses, ROUTES))))
  // A path like /v1/%ZZ is refused by h3 before routing; answer it in Litho's error shape.
  const app = new H3({ onError: malformedUrlResponse })
  // Mounted into another app (even at '/'), this middleware still runs for our routes.
  app.use(withSecurityHeaders)
  // Request ids on every answer (and in error bodies), metrics and request lines.
  app.use(observeRequests({ metrics: options.metrics, logger: options.logger, logRequests: options.logRequests ?? false }))
  mountRoutes(app, ROUTES, context)
  const metrics = options.metrics
  if (metrics && options.metricsEndpoint !== false) app.get(METRICS_PATH, (event) => metricsResponse(event.req, metrics, { token }))
  if (options.console) mountConsole(app, options.console, addresses)
  return app
}

/**
 * `X-Content-Type-Options: nosniff` on every response of the app (JSON, HTML pages, images,
 * stored files, errors): a browser must never guess a stored file or an error to be HTML or
 * script. In one place, so no route can forget it.
 */
async function withSecurityHeaders(event: H3Event, next: () => unknown): Promise<unknown> {
  // For h3's own errors (a 404, a malformed URL) and errors thrown by handlers.
  event.res.errHeaders.set('x-content-type-options', 'nosniff')
  const result = await next()
  if (!(result instanceof Response)) {
    // For handlers that return a value rather than a Response: h3 adds it when it makes one.
    // Only then: a Response with headers prepared on the event is copied by h3 into a new one,
    // whose body is then read as a web stream instead of written to the socket as it is.
    event.res.headers.set('x-content-type-options', 'nosniff')
    return result
  }
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

