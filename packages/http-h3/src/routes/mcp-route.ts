/**
 * `{base_url}/api/mcp`: the MCP endpoint (Streamable HTTP, stateless), on the official MCP
 * TypeScript SDK's web-standard handler. It serves the current protocol revision and 2025-era
 * clients (the initialize handshake) from one per-request server factory.
 *
 * Order per request: CORS preflight (never authenticated) → Origin check (browsers only: 403
 * for a page of another origin) → bearer token issued for the MCP endpoint URI (what SDKs ask
 * for after discovering `/.well-known/oauth-protected-resource/api/mcp`) or for the API base
 * address (the API token of docs/authentication.md), both this server's resources; any other audience or
 * issuer is a 401 with `resource_metadata` of the MCP's own protected-resource document → the
 * body, read through the app's limit (after authentication, so only a token holder can make the
 * server buffer up to it) → the SDK, whose per-tool scope challenge answers 403
 * `insufficient_scope` when a `read` token calls a changing tool.
 *
 * @module routes/mcp-route
 */
import type { PlanId } from '@litho/core'
import { createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server'
import type { Middleware } from 'h3'
import { json } from '../app/errors.js'
import { createLithoMcpServer } from '../mcp/tools.js'
import { JsonRpcMessageSchema } from '../openapi/components.js'
import { bearerErrors, errorBody } from '../openapi/responses.js'
import { MCP_PATH, PROTECTED_RESOURCE_PATH, type AppContext } from './app-context.js'
import { defineRoute } from './define-route.js'
import { hasVerifier } from './design-routes.js'

/** The SDK handler of each app, made on its first request. */
const handlers = new WeakMap<AppContext, ReturnType<typeof createMcpHandler>>()

function handlerOf(app: AppContext): ReturnType<typeof createMcpHandler> {
  let handler = handlers.get(app)
  if (!handler) {
    handler = createMcpHandler(
      // The route checked the token and read the account; it passes both in `authInfo.extra`.
      ({ authInfo }) => {
        const account = authInfo?.extra?.account as { id: string; plan: PlanId }
        const { designs, renderer, meter, plans, assets, files, assetSource } = app.services
        const library = assets === undefined ? {} : { assets: { assets, files, meter, designs, plans, clock: app.clock }, network: app.network, ...(assetSource ? { assetSource } : {}) }
        return createLithoMcpServer({ designs, renderer, meter, plans, clock: app.clock, renderUrl: app.renderUrl, account, ...library }, app.report)
      },
      // 'auto': one JSON body unless a tool emits notifications first (then SSE).
      { onerror: (error) => app.report(error) },
    )
    handlers.set(app, handler)
  }
  return handler
}

/** Streamable HTTP (2026-07-28): a browser's Origin must be one we serve (DNS rebinding), checked before the token. */
function checkOrigin(app: AppContext): Middleware {
  const origins = new Set([new URL(app.baseUrl).origin, ...(app.options.mcpAllowedOrigins ?? []).map((o) => new URL(o).origin)])
  return (event) => {
    const origin = event.req.headers.get('origin')
    if (origin !== null && !origins.has(origin)) return json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Origin ${origin} is not allowed` } }, 403)
    return undefined
  }
}

/** `POST|GET|DELETE|OPTIONS /api/mcp` (the SDK answers GET and DELETE with 405). */
export const mcpRoute = defineRoute({
  method: 'ALL',
  path: MCP_PATH,
  server: 'base',
  auth: { kind: 'bearer', scope: 'read', audience: 'mcp' },
  cors: { kind: 'bearer', methods: ['GET', 'POST', 'DELETE'] },
  before: checkOrigin,
  body: { kind: 'request' },
  when: hasVerifier,
  documented: 'post',
  operationId: 'mcp',
  tags: ['mcp'],
  summary: 'The MCP endpoint (Streamable HTTP, stateless)',
  description: `A JSON-RPC message of the Model Context Protocol; the answer is JSON, or an event stream when a tool sends notifications first. Tokens must be issued for \`{base_url}${MCP_PATH}\` (or \`{base_url}\`); the 401 challenge names \`{base_url}${PROTECTED_RESOURCE_PATH}${MCP_PATH}\`. Tools that change designs need \`write\` (a \`read\` token gets 403 \`insufficient_scope\`). A browser \`Origin\` other than \`{base_url}\`'s own or one of \`mcpAllowedOrigins\` gets 403. GET and DELETE answer 405. The tools: docs/mcp-tools.md.`,
  requestBody: { required: true, content: { 'application/json': { schema: JsonRpcMessageSchema } } },
  responses: {
    '200': { description: 'The JSON-RPC answer.', content: { 'application/json': {}, 'text/event-stream': {} } },
    ...bearerErrors,
    '403': { ...bearerErrors['403'], description: `${bearerErrors['403'].description} Or: the page's \`Origin\` is not allowed (a JSON-RPC error).` },
    '413': errorBody('The body is larger than the limit (2 MiB by default).'),
  },
  async handler({ app, principal, account, request }) {
    const authInfo: AuthInfo = {
      token: '',
      clientId: principal!.clientId,
      scopes: principal!.scopes,
      expiresAt: Math.floor(principal!.expiresAt.getTime() / 1000),
      resource: new URL(principal!.audience),
      resourceMetadataUrl: `${app.baseUrl}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`,
      extra: { account },
    }
    return handlerOf(app).fetch(request, { authInfo })
  },
})
