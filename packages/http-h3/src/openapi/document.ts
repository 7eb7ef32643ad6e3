/**
 * The OpenAPI 3.1 document of a route table: each route's operation under its documented path
 * and method, with the server it is reached at, its credentials, parameters (from its zod
 * schemas), body and responses; the component schemas of components.ts and
 * oauth-components.ts, which the routes name by their zod schemas. The same table mounts the routes (`mountRoutes`), so the document and
 * the app cannot drift apart.
 *
 * @module openapi/document
 */
import { OAUTH_PATHS, type SCOPES } from '@litho/auth-adapters'
import { ZodObject } from 'zod'
import type { RouteAuth, RouteDefinition } from '../routes/define-route.js'
import { ROUTES } from '../routes/table.js'
import { RENDER_COMPONENTS } from './components.js'
import { OAUTH_COMPONENTS } from './oauth-components.js'
import { SCOPE_DESCRIPTIONS } from './responses.js'
import { componentSchemas, parametersOf, resolveSchemas, type JsonSchema } from './schema.js'

/** The addresses a document names: `{render_url}`, `{base_url}`, `{auth_url}`. */
export interface OpenApiAddresses {
  renderUrl: string
  baseUrl: string
  authUrl: string
}

/** The security requirements of each render-key mode (where docs/authentication.md takes the key). */
const RENDER_KEY_SECURITY: Record<string, JsonSchema[]> = {
  // `{}`: a signed render link, whose signature is in the query (docs/signed-render-links.md).
  'get-render': [{ renderKeyHeader: [] }, { renderKeyQuery: [] }, { renderKeyQueryKey: [] }, { renderKeyQueryApiKey: [] }, {}],
  'post-render': [{ renderKeyHeader: [] }],
  bulk: [{ renderKeyHeader: [] }, { renderKeyQuery: [] }],
}

/** The `security` of an operation; a signed URL has none (its signature is in the query). */
function securityOf(auth: RouteAuth): JsonSchema[] | undefined {
  if (auth.kind === 'render-key') return RENDER_KEY_SECURITY[auth.mode]
  if (auth.kind === 'bearer') return [{ oauth2: [auth.scope satisfies (typeof SCOPES)[number]] }]
  if (auth.kind === 'public') return []
  return undefined
}

/** `/designs/v2/:id` → `/designs/v2/{id}`, `/files/**:key` → `/files/{key}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, '{$1}')
}

/** The operation of one route. */
function operationOf(route: RouteDefinition): JsonSchema {
  const parameters = [
    ...(route.params ? parametersOf(route.params, 'path') : []),
    ...(route.query ?? []).flatMap((entry) => (entry instanceof ZodObject ? parametersOf(entry, 'query') : [entry])),
  ]
  const security = securityOf(route.auth)
  return {
    operationId: route.operationId,
    tags: [...route.tags],
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    ...(security === undefined ? {} : { security }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.requestBody ? { requestBody: resolveSchemas(route.requestBody) } : {}),
    responses: resolveSchemas(route.responses),
  }
}

/** The path items of `routes`, in table order, each naming its server unless it is `{render_url}`. */
function pathsOf(routes: readonly RouteDefinition[], addresses: OpenApiAddresses): Record<string, JsonSchema> {
  const servers = {
    base: [{ url: addresses.baseUrl, description: '{base_url}' }],
    auth: [{ url: addresses.authUrl, description: '{auth_url}' }],
  }
  const paths: Record<string, JsonSchema> = {}
  for (const route of routes) {
    const method = route.method === 'ALL' ? route.documented : route.method.toLowerCase()
    if (method === undefined) throw new TypeError(`Expected route ${route.operationId} (ALL ${route.path}) to name the method it documents`)
    const item = (paths[toOpenApiPath(route.path)] ??= route.server === 'render' ? {} : { servers: servers[route.server] })
    item[method] = operationOf(route)
  }
  return paths
}

/**
 * Builds the OpenAPI 3.1 document of a route table (the app's, `ROUTES`, by default) for the
 * given addresses. It describes every route of the table, whether or not an app mounts it (the
 * bearer routes need a verifier, the `oauth` ones the built-in server, the job routes export
 * jobs); each says when it is mounted.
 *
 * @example const doc = createOpenApiDocument({ renderUrl: 'http://localhost:3000', baseUrl: 'http://localhost:3000', authUrl: 'http://localhost:3000' })
 */
export function createOpenApiDocument(addresses: OpenApiAddresses, routes: readonly RouteDefinition[] = ROUTES): JsonSchema {
  const authorizeUrl = `${addresses.authUrl}${OAUTH_PATHS.authorize}`
  const tokenUrl = `${addresses.authUrl}${OAUTH_PATHS.token}`
  return {
    openapi: '3.1.0',
    info: {
      title: 'Litho API',
      version: '1.0.0',
      description: [
        'Renders stored designs to png, jpeg, webp and pdf, and gives the signed-in owner their designs, render configurations, exports, usage history and render keys. Every render (each GET, POST, bulk item and export, a queued export job included) counts as one call against the plan quota (monthly, unless the server\'s plans count per week or day).',
        '',
        'Addresses: render endpoints (`/v1/…`, `/bulk`, `/files/…`) are relative to `{render_url}`; the design, export, analytics and settings endpoints and the protected-resource metadata to `{base_url}`; the authorization server to `{auth_url}`. Each path names its server.',
        '',
        'Credentials: render endpoints take a render key (`dma-api-key`). The design, export, analytics and settings endpoints take an OAuth 2.0 access token, `Authorization: Bearer <token>`, with scope `read` (reads) or `write` (exports, key changes and the webhook signing secret, reading it included); they answer 401 or 403 with a `WWW-Authenticate` challenge, and CORS preflights without a token.',
        '',
        `Getting a token (authorization code with PKCE S256): (1) \`GET {base_url}/.well-known/oauth-protected-resource\` names the issuer \`{auth_url}/org/{org}\`; (2) \`GET {auth_url}/.well-known/oauth-authorization-server/org/{org}\` gives its endpoints; (3) register a client at \`POST {auth_url}${OAUTH_PATHS.register}?org={org}\` (RFC 7591), or use a pre-issued client id; (4) send the user to \`{auth_url}${OAUTH_PATHS.authorize}\` with \`client_id\`, \`redirect_uri\`, \`response_type=code\`, \`scope\`, \`resource\` (\`{base_url}\`), \`code_challenge\`, \`code_challenge_method=S256\` and \`state\`; (5) redeem the code at \`POST {auth_url}${OAUTH_PATHS.token}\` with \`code_verifier\`; access tokens live an hour, renew them with the \`refresh_token\` grant; (6) revoke at \`POST {auth_url}${OAUTH_PATHS.revoke}\`. Tokens are ES256 JWTs; the public keys are at \`{auth_url}/org/{org}/jwks.json\`. The \`oauth\` operations below are served by the built-in authorization server.`,
      ].join('\n'),
    },
    servers: [{ url: addresses.renderUrl, description: '{render_url}' }],
    tags: [
      { name: 'render', description: 'Renders, with a render key (`{render_url}`).' },
      { name: 'designs', description: 'The signed-in user\'s designs and their render configuration (bearer, `{base_url}`).' },
      { name: 'assets', description: 'The signed-in user\'s asset library: uploaded images that designs draw as `asset:<id>` (bearer, `{base_url}`).' },
      { name: 'exports', description: 'Exports of the signed-in user\'s designs, published or draft, at once or as background jobs; each is one render against the quota, refunded when it fails (bearer, `{base_url}`).' },
      { name: 'analytics', description: 'Render usage over time (bearer, `{base_url}`).' },
      { name: 'settings', description: 'Render API keys and the webhook signing secret (bearer, `{base_url}`).' },
      { name: 'oauth', description: 'Discovery and the built-in OAuth 2.1 authorization server (`{auth_url}`).' },
      { name: 'mcp', description: 'The MCP endpoint for agents (bearer, `{base_url}`); its tools are listed in docs/mcp-tools.md.' },
      { name: 'openapi', description: 'This document.' },
    ],
    components: {
      securitySchemes: {
        renderKeyHeader: { type: 'apiKey', in: 'header', name: 'dma-api-key' },
        renderKeyQuery: { type: 'apiKey', in: 'query', name: 'dma-api-key' },
        renderKeyQueryKey: { type: 'apiKey', in: 'query', name: 'key' },
        renderKeyQueryApiKey: { type: 'apiKey', in: 'query', name: 'api-key' },
        oauth2: {
          type: 'oauth2',
          description: 'OAuth 2.0 authorization code with PKCE (S256 only; required). Send `resource={base_url}` (RFC 8707) when authorizing and redeeming. Access tokens live an hour; refresh tokens rotate. Authorization-server metadata: `{auth_url}/.well-known/oauth-authorization-server/org/{org}`.',
          flows: {
            authorizationCode: {
              authorizationUrl: authorizeUrl,
              tokenUrl,
              refreshUrl: tokenUrl,
              scopes: SCOPE_DESCRIPTIONS,
            },
          },
        },
      },
      schemas: componentSchemas(RENDER_COMPONENTS, OAUTH_COMPONENTS),
    },
    paths: pathsOf(routes, addresses),
  }
}
