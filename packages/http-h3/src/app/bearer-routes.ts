/**
 * The bearer endpoints of interface.md §4 (designs, render config, the synchronous exports,
 * usage analytics, API keys) and the routes of the built-in authorization server, on an h3 app.
 *
 * @module app/bearer-routes
 */
import {
  createApiKey,
  getDesign,
  getRenderConfig,
  getUsage,
  invalidRequest,
  listApiKeys,
  listDesigns,
  parseCreateKeyBody,
  parseListDesignsParams,
  parseListKeysParams,
  parseUsageParams,
  revokeApiKey,
  type Clock,
  type ExportJobServices,
  type PlanId,
  type RefundSettings,
  type Renderer,
} from '@litho/core'
import type { AccountStore, DesignStore, FileStore, Meter, RetentionIndex } from '@litho/core/contracts'
import { OAUTH_PATHS, createRenderKey, type AuthorizationServer, type BearerVerifier } from '@litho/auth-adapters'
import { getRouterParam, type H3, type H3Event } from 'h3'
import { BearerChallenge, bearerPreflight, protectedResourceMetadata, requireBearerUser, verifierUnavailableResponse, withBearerHeaders, type Scope } from './bearer.js'
import { mountExportJobRoutes } from './export-job-routes.js'
import { mountExportRoutes } from './export-routes.js'
import { readJsonBody } from './read-json-body.js'
import { json, toErrorResponse } from './respond.js'

/** What the bearer routes need. */
export interface BearerRouteOptions {
  designs: DesignStore
  accounts: AccountStore
  meter: Meter
  /** How refunds the meter refused are recorded (see `settleRefund` of `@litho/core`). */
  refunds?: RefundSettings
  /** Where `driver-upload` and `signed-url` exports are stored. */
  files: FileStore
  /** Records stored exports for the retention sweep. */
  retention?: RetentionIndex | undefined
  /** Renders the exports (the pool on a server). */
  renderer: Pick<Renderer, 'render'>
  /** Largest JSON body of an export, in bytes. @default 2 MiB */
  maxBodyBytes?: number
  /** Durable export jobs (and their webhooks): mounts `/export/jobs` and `/analytics/exports/:id` when given. */
  jobs?: Pick<ExportJobServices, 'jobs' | 'queue' | 'webhooks'>
  clock: Clock
  verifier: BearerVerifier
  /** The built-in authorization server, mounted when given. */
  oauth?: AuthorizationServer
  /** Issuers named by the protected-resource metadata; default: the built-in server's default org. */
  authorizationServers?: string[]
  baseUrl: string
  renderUrl: string
  /** The client's network address (for sign-in and registration rate limits), if the transport knows it. */
  clientAddress?: (event: H3Event) => string | undefined
  report: (error: unknown) => void
}

/** The account a bearer route acts for: the token's user, with the plan its renders are metered on. */
export type BearerRouteAccount = { id: string; plan: PlanId }

/**
 * Wraps a bearer handler: CORS, the token check for `scope`, the owner's account, errors as
 * JSON (401/403 challenges, 413, 429 and the statuses of `toErrorResponse`).
 */
export type BearerRoute = (scope: Scope, fn: (event: H3Event, account: BearerRouteAccount) => Promise<Response>) => (event: H3Event) => Promise<Response>

/** The path of the protected-resource metadata of the API (RFC 9728). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource'

/** Adds the bearer endpoints, the RFC 9728 documents and (with `oauth`) the authorization server. */
export function mountBearerRoutes(app: H3, options: BearerRouteOptions): void {
  const { baseUrl, report } = options
  const resourceMetadataUrl = `${baseUrl}${PROTECTED_RESOURCE_PATH}`
  const services = { designs: options.designs, accounts: options.accounts, meter: options.meter, clock: options.clock }

  async function authorizationServers(): Promise<string[]> {
    if (options.authorizationServers) return options.authorizationServers
    if (options.oauth) return [options.oauth.issuer(await options.oauth.ensureDefaultOrg())]
    return []
  }

  /** A bearer route: CORS, the token check for `scope`, the owner's account, errors as JSON. */
  const route: BearerRoute = (scope, fn) => async (event) => {
    try {
      const { user } = await requireBearerUser(event.req, { verifier: options.verifier, accounts: options.accounts, resource: baseUrl, resourceMetadataUrl, scope })
      return withBearerHeaders(await fn(event, { id: user.id, plan: user.plan }))
    } catch (error) {
      if (error instanceof BearerChallenge) return error.toResponse()
      return verifierUnavailableResponse(error, report) ?? withBearerHeaders(toErrorResponse(error, report))
    }
  }
  const preflight = (methods: string) => () => bearerPreflight(methods)
  const param = (event: H3Event, name: string) => getRouterParam(event, name) ?? ''

  // RFC 9728: one document for the API host, one for the MCP endpoint. Never behind auth.
  app.get(PROTECTED_RESOURCE_PATH, async () => protectedResourceMetadata({ resource: baseUrl, authorizationServers: await authorizationServers(), name: 'Litho API', documentation: `${baseUrl}/openapi.json` }))
  app.get(`${PROTECTED_RESOURCE_PATH}/api/mcp`, async () => protectedResourceMetadata({ resource: `${baseUrl}/api/mcp`, authorizationServers: await authorizationServers(), name: 'Litho MCP' }))
  app.options(PROTECTED_RESOURCE_PATH, preflight('GET, OPTIONS'))
  app.options(`${PROTECTED_RESOURCE_PATH}/api/mcp`, preflight('GET, OPTIONS'))

  app.options('/designs/v2', preflight('GET, OPTIONS'))
  app.get(
    '/designs/v2',
    route('read', async (event, account) => json(await listDesigns(services, { account, ...parseListDesignsParams(event.url.searchParams) }))),
  )
  app.options('/designs/v2/:id', preflight('GET, OPTIONS'))
  app.get(
    '/designs/v2/:id',
    route('read', async (event, account) => json(await getDesign(services, { account, id: param(event, 'id') }))),
  )
  app.options('/designs/v2/:id/config', preflight('GET, OPTIONS'))
  app.get(
    '/designs/v2/:id/config',
    route('read', async (event, account) => json(await getRenderConfig(services, { account, id: param(event, 'id'), renderUrl: options.renderUrl }))),
  )
  mountExportRoutes(app, {
    route,
    services: { designs: options.designs, files: options.files, meter: options.meter, retention: options.retention, renderer: options.renderer, clock: options.clock, ...(options.refunds ? { refunds: options.refunds } : {}) },
    maxBodyBytes: options.maxBodyBytes ?? 2 * 1024 * 1024,
  })
  if (options.jobs)
    mountExportJobRoutes(app, {
      route,
      services: { designs: options.designs, files: options.files, meter: options.meter, retention: options.retention, renderer: options.renderer, clock: options.clock, ...(options.refunds ? { refunds: options.refunds } : {}), ...options.jobs },
      maxBodyBytes: options.maxBodyBytes ?? 2 * 1024 * 1024,
    })
  app.options('/analytics/api', preflight('GET, OPTIONS'))
  app.get(
    '/analytics/api',
    route('read', async (event, account) => json(await getUsage(services, { account, ...parseUsageParams(event.url.searchParams, options.clock.now()) }))),
  )
  app.options('/settings/api-keys', preflight('GET, POST, OPTIONS'))
  app.get(
    '/settings/api-keys',
    route('read', async (event, account) => json(await listApiKeys(services, { account, ...parseListKeysParams(event.url.searchParams) }))),
  )
  app.post(
    '/settings/api-keys',
    route('write', async (event, account) => {
      const body = await readJsonBody(event.req, 64 * 1024)
      if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw invalidRequest([{ path: 'body', message: 'expected a JSON object like {"name":"CI"}' }])
      const { name } = parseCreateKeyBody(body ?? {})
      return json(await createApiKey(services, { account, name, newKey: createRenderKey }), 201)
    }),
  )
  app.options('/settings/api-keys/:id', preflight('DELETE, OPTIONS'))
  app.delete(
    '/settings/api-keys/:id',
    route('write', async (event, account) => json(await revokeApiKey(services, { account, id: param(event, 'id') }))),
  )

  const oauth = options.oauth
  if (oauth) {
    const context = (event: H3Event) => ({ clientAddress: options.clientAddress?.(event) })
    const guard = (fn: (event: H3Event) => Promise<Response>) => async (event: H3Event) => {
      try {
        return await fn(event)
      } catch (error) {
        report(error)
        return json({ error: 'server_error', error_description: 'The server could not complete the request; try again' }, 500, { 'cache-control': 'no-store' })
      }
    }
    const metadata = guard((event) => oauth.metadata(event.req, param(event, 'org')))
    app.get('/.well-known/oauth-authorization-server/org/:org', metadata)
    app.options('/.well-known/oauth-authorization-server/org/:org', metadata)
    const jwks = guard((event) => oauth.jwks(event.req, param(event, 'org')))
    app.get('/org/:org/jwks.json', jwks)
    app.options('/org/:org/jwks.json', jwks)
    for (const [path, handler] of [
      [OAUTH_PATHS.register, oauth.register],
      [OAUTH_PATHS.token, oauth.token],
      [OAUTH_PATHS.revoke, oauth.revoke],
    ] as const) {
      app.all(path, guard((event) => handler(event.req, context(event))))
    }
    // No CORS on the authorization endpoint (RFC 9700): it is for browsers' top-level navigation.
    app.all(OAUTH_PATHS.authorize, guard((event) => oauth.authorize(event.req, context(event))))
    app.all(OAUTH_PATHS.logout, guard((event) => oauth.logout(event.req, context(event))))
  }
}
