/**
 * The RFC 9728 protected-resource documents of `{base_url}`: one for the API, one for the MCP
 * endpoint. Never behind auth; readable by any origin.
 *
 * @module routes/discovery-routes
 */
import { protectedResourceMetadata } from '../app/bearer.js'
import { jsonResponse } from '../openapi/responses.js'
import { MCP_PATH, PROTECTED_RESOURCE_PATH, type AppContext } from './app-context.js'
import { defineRoute, type RouteDefinition } from './define-route.js'
import { hasVerifier } from './design-routes.js'

/** The issuers the documents name: the option, else the built-in server's default org, else none. */
async function authorizationServers(app: AppContext): Promise<string[]> {
  if (app.options.authorizationServers) return app.options.authorizationServers
  const oauth = app.options.oauth
  if (oauth) return [oauth.issuer(await oauth.ensureDefaultOrg())]
  return []
}

function protectedResourceRoute(path: string, operationId: string, resource: string, document: (app: AppContext) => { resource: string; name: string; documentation?: string }): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path,
    server: 'base',
    auth: { kind: 'public' },
    cors: { kind: 'bearer' },
    when: hasVerifier,
    operationId,
    tags: ['oauth'],
    summary: `Protected-resource metadata (RFC 9728) of ${resource}`,
    description: 'Where a client learns which authorization server issues tokens for this resource and which scopes exist.',
    responses: { '200': jsonResponse('The metadata (cacheable for 5 minutes).', 'ProtectedResourceMetadata') },
    handler: async ({ app }) => protectedResourceMetadata({ ...document(app), authorizationServers: await authorizationServers(app) }),
  })
}

/** `GET /.well-known/oauth-protected-resource`: the API's document. */
export const protectedResourceMetadataRoute = protectedResourceRoute(PROTECTED_RESOURCE_PATH, 'getProtectedResourceMetadata', 'the API, `{base_url}`', (app) => ({
  resource: app.baseUrl,
  name: 'Litho API',
  documentation: `${app.baseUrl}/openapi.json`,
}))

/** `GET /.well-known/oauth-protected-resource/api/mcp`: the MCP endpoint's document. */
export const mcpProtectedResourceMetadataRoute = protectedResourceRoute(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, 'getMcpProtectedResourceMetadata', 'the MCP endpoint, `{base_url}/api/mcp`', (app) => ({
  resource: `${app.baseUrl}${MCP_PATH}`,
  name: 'Litho MCP',
}))
