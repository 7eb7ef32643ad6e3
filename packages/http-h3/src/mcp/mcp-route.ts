/**
 * `{base_url}/api/mcp`: the MCP endpoint (Streamable HTTP, stateless), on the official MCP
 * TypeScript SDK's web-standard handler. It serves the current protocol revision and 2025-era
 * clients (the initialize handshake) from one per-request server factory.
 *
 * Order per request: CORS preflight (never authenticated) → Origin check (browsers only: 403
 * for a page of another origin) → bearer token issued for the MCP endpoint URI (what SDKs ask
 * for after discovering `/.well-known/oauth-protected-resource/api/mcp`) or for the API base
 * address (the token of interface.md §5), both this server's resources; any other audience or
 * issuer is a 401 with `resource_metadata` of the MCP's own protected-resource document → the
 * SDK, whose per-tool scope challenge answers 403 `insufficient_scope` when a `read` token
 * calls a changing tool.
 *
 * @module mcp/mcp-route
 */
import type { Clock, PlanId, Renderer } from '@litho/core'
import type { AccountStore, DesignStore, Meter } from '@litho/core/contracts'
import { readBody, type BearerVerifier } from '@litho/auth-adapters'
import { createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server'
import type { H3 } from 'h3'
import { BearerChallenge, bearerPreflight, requireBearerUser, verifierUnavailableResponse, withBearerHeaders } from '../app/bearer.js'
import { json, toErrorResponse } from '../app/respond.js'
import { createLithoMcpServer } from './tools.js'

/** The path of the MCP endpoint, relative to `{base_url}`. */
export const MCP_PATH = '/api/mcp'

/** What the MCP endpoint needs. */
export interface McpRouteOptions {
  designs: DesignStore
  accounts: AccountStore
  renderer: Pick<Renderer, 'render'>
  meter: Meter
  clock: Clock
  verifier: BearerVerifier
  baseUrl: string
  renderUrl: string
  /** Largest body of a POST, in bytes (the SDK would read any size): a design document fits in the app's JSON limit. */
  maxBodyBytes: number
  /** Origins (besides `{base_url}`'s own) whose browser pages may call the endpoint. */
  allowedOrigins?: string[]
  report: (error: unknown) => void
}

/** Mounts `POST|GET|DELETE|OPTIONS /api/mcp`. */
export function mountMcpRoute(app: H3, options: McpRouteOptions): void {
  const resource = `${options.baseUrl}${MCP_PATH}`
  const resourceMetadataUrl = `${options.baseUrl}/.well-known/oauth-protected-resource${MCP_PATH}`
  const origins = new Set([new URL(options.baseUrl).origin, ...(options.allowedOrigins ?? []).map((o) => new URL(o).origin)])
  const handler = createMcpHandler(
    // The route checked the token and read the account; it passes both in `authInfo.extra`.
    ({ authInfo }) => {
      const account = authInfo?.extra?.account as { id: string; plan: PlanId }
      return createLithoMcpServer({ designs: options.designs, renderer: options.renderer, meter: options.meter, clock: options.clock, renderUrl: options.renderUrl, account }, options.report)
    },
    // 'auto': one JSON body unless a tool emits notifications first (then SSE).
    { onerror: (error) => options.report(error) },
  )

  app.all(MCP_PATH, async (event) => {
    const request = event.req
    if (request.method === 'OPTIONS') return bearerPreflight('GET, POST, DELETE, OPTIONS')
    // Streamable HTTP (2026-07-28): a browser's Origin must be one we serve (DNS rebinding), checked first.
    const origin = request.headers.get('origin')
    if (origin !== null && !origins.has(origin)) return withBearerHeaders(json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Origin ${origin} is not allowed` } }, 403))
    try {
      const { principal, user } = await requireBearerUser(request, { verifier: options.verifier, accounts: options.accounts, resource: [resource, options.baseUrl], resourceMetadataUrl, scope: 'read' })
      const authInfo: AuthInfo = {
        token: '',
        clientId: principal.clientId,
        scopes: principal.scopes,
        expiresAt: Math.floor(principal.expiresAt.getTime() / 1000),
        resource: new URL(principal.audience),
        resourceMetadataUrl,
        extra: { account: { id: user.id, plan: user.plan } },
      }
      return withBearerHeaders(await handler.fetch(await bounded(request, options.maxBodyBytes), { authInfo }))
    } catch (error) {
      if (error instanceof BearerChallenge) return error.toResponse()
      // A body over the limit is a 413; anything else unexpected is a reported 500.
      return verifierUnavailableResponse(error, options.report) ?? withBearerHeaders(toErrorResponse(error, options.report))
    }
  })
}

/**
 * `request` with its body read through the shared limit (after authentication, so only a
 * token holder can make the server buffer up to the limit): the SDK reads bodies whole.
 *
 * @throws BodyTooLargeError over `limit` bytes, before the SDK sees anything.
 */
async function bounded(request: Request, limit: number): Promise<Request> {
  if (request.body === null) return request
  const body = await readBody(request, limit)
  const headers = new Headers(request.headers)
  // The body is now a known buffer: its framing headers are the new request's to set.
  headers.delete('content-length')
  headers.delete('transfer-encoding')
  return new Request(request.url, { method: request.method, headers, ...(body && body.byteLength > 0 ? { body } : {}), signal: request.signal })
}
