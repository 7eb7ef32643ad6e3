/**
 * Litho's built-in OAuth 2.1 authorization server: RFC 8414 metadata per org, RFC 7591
 * registration, the authorization endpoint with its sign-in and consent pages, the token
 * endpoint (authorization code with PKCE S256, refresh-token rotation with reuse detection),
 * RFC 7009 revocation and the JWKS. One file per endpoint under `endpoints/`, each a plain
 * `Request → Response` function over the server's context (context.ts); this file builds the
 * context once and binds the endpoints to it. Signing is jose's (ES256), randomness and hashing
 * node:crypto's; codes, refresh tokens, sessions and client secrets are stored hashed.
 *
 * @module oauth/authorization-server
 */
import { randomToken } from './_http.js'
import { createOAuthContext } from './context.js'
import { bindEndpoints, decodeEndpointParams, malformedParamsResponse, matchEndpoint, type OAuthEndpoint } from './endpoints/index.js'
import { mintOperatorToken, revokeAccessToken, type MintAccessTokenRequest, type MintedAccessToken } from './operator-tokens.js'
import { ORG_ID } from './orgs.js'
import type { AuthorizationServerOptions, BearerVerifier, OrgRecord, RequestContext } from './types.js'

export { OAUTH_PATHS, normalizeResource } from './paths.js'

/** The built-in authorization server. */
export interface AuthorizationServer {
  /** The issuer of org `orgId`: `{auth_url}/org/<orgId>`. */
  issuer(orgId: string): string
  /** Creates org `id` (with its signing keys) unless it exists. Safe on many instances at once. */
  ensureOrg(id: string): Promise<OrgRecord>
  /**
   * The org of this deployment: the first call on a fresh store creates it (id `preferredId`,
   * or a random one); later calls and other instances get the same one (`preferredId` is then
   * ignored).
   */
  ensureDefaultOrg(preferredId?: string): Promise<string>
  /** RFC 8414 metadata of an org (404 for an unknown one). */
  metadata(request: Request, orgId: string): Promise<Response>
  /** The org's public signing keys. */
  jwks(request: Request, orgId: string): Promise<Response>
  /** RFC 7591 dynamic client registration (`?org=`). */
  register(request: Request, context?: RequestContext): Promise<Response>
  /** The authorization endpoint: GET starts, POST carries the sign-in and consent forms. */
  authorize(request: Request, context?: RequestContext): Promise<Response>
  /** The token endpoint (`?org=` optional). */
  token(request: Request, context?: RequestContext): Promise<Response>
  /** RFC 7009 revocation (`?org=` optional). Always 200 for a known client. */
  revoke(request: Request, context?: RequestContext): Promise<Response>
  /**
   * Ends the browser session of the sign-in pages: GET shows a confirmation form, its POST
   * (CSRF-checked) deletes the session and its cookie, then goes back to the sign-in page of a
   * pending request, to a registered `post_logout_redirect_uri` of `client_id`, or to a page.
   */
  logout(request: Request, context?: RequestContext): Promise<Response>
  /**
   * Routes a request whose URL lies under `{auth_url}` to the endpoint of its path; undefined
   * when no endpoint matches. Unexpected failures are reported (`onError`) and answered 500.
   */
  handle(request: Request, context?: RequestContext): Promise<Response | undefined>
  /**
   * The endpoints as a route table, to mount in a framework: path (relative to `{auth_url}`,
   * `:org` a parameter), methods, handler, and the answer to an unexpected failure.
   */
  readonly endpoints: readonly OAuthEndpoint[]
  /** Verifies the access tokens this server issues (signature, issuer, audience, expiry, revocation). */
  readonly verifier: BearerVerifier
  /**
   * Mints an access token for a user without the authorization flow (`litho token create`):
   * the operator already holds the store. It expires and is revoked like any other token, and
   * comes with no refresh token. Throws a TypeError naming a bad scope, resource or lifetime.
   *
   * @example const { accessToken } = await oauth.mintAccessToken({ userId: user.id, scope: 'read', ttlSeconds: 600 })
   */
  mintAccessToken(request: MintAccessTokenRequest): Promise<MintedAccessToken>
  /** Revokes every token of the sign-in `token` belongs to; false when it is not a live token of this server. */
  revokeAccessToken(token: string): Promise<boolean>
}

/**
 * Creates the authorization server.
 *
 * @example
 * const oauth = createAuthorizationServer({ authUrl: 'https://auth.example.com', resources: ['https://api.example.com', 'https://api.example.com/api/mcp'], state: fsAuthStateStore({ base: '.litho/auth' }), accounts })
 * const org = await oauth.ensureDefaultOrg()
 * const response = await oauth.handle(request) // in any framework that speaks Request/Response
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): AuthorizationServer {
  const context = createOAuthContext(options)
  const { state, orgs, authPath } = context
  const bound = bindEndpoints(context)
  const endpoints = Object.freeze(Object.values(bound))

  async function ensureDefaultOrg(preferredId?: string): Promise<string> {
    // Known after the first call: protected-resource metadata asks on every request.
    if (context.defaultOrg !== undefined) return context.defaultOrg
    const candidate = preferredId ?? `org_${randomToken(9)}`
    if (!ORG_ID.test(candidate)) throw Object.assign(new TypeError(`Expected an org id of 1-64 letters, digits, "_" or "-" but received ${JSON.stringify(candidate)}`), { code: 'ERR_INVALID_ARG_VALUE' })
    await state.add('meta.default-org', candidate)
    const id = (await state.get('meta.default-org')) as string
    await orgs.ensure(id)
    context.defaultOrg = id
    return id
  }

  return {
    issuer: context.issuer,
    ensureOrg: (id) => orgs.ensure(id),
    ensureDefaultOrg,
    metadata: (request, orgId) => bound.metadata.handler(request, { params: { org: orgId } }),
    jwks: (request, orgId) => bound.jwks.handler(request, { params: { org: orgId } }),
    register: (request, requestContext) => bound.register.handler(request, requestContext),
    authorize: (request, requestContext) => bound.authorize.handler(request, requestContext),
    token: (request, requestContext) => bound.token.handler(request, requestContext),
    revoke: (request, requestContext) => bound.revoke.handler(request, requestContext),
    logout: (request, requestContext) => bound.logout.handler(request, requestContext),

    async handle(request, requestContext = {}) {
      const url = new URL(request.url)
      if (!url.pathname.startsWith(`${authPath}/`)) return undefined
      const match = matchEndpoint(endpoints, url.pathname.slice(authPath.length))
      if (!match) return undefined
      try {
        const params = decodeEndpointParams(match.params)
        if (!params) return malformedParamsResponse()
        return await match.endpoint.handler(request, { ...requestContext, params })
      } catch (error) {
        context.report(error)
        return match.endpoint.serverError()
      }
    },

    endpoints,
    verifier: context.verifier,
    async mintAccessToken(request) {
      const orgId = request.orgId ?? (await ensureDefaultOrg())
      if (request.orgId !== undefined && !ORG_ID.test(request.orgId)) throw Object.assign(new TypeError(`orgId: expected 1-64 letters, digits, "_" or "-", received ${JSON.stringify(request.orgId)}`), { code: 'ERR_INVALID_ARG_VALUE' })
      if (request.orgId !== undefined && (await orgs.get(orgId)) === null) throw Object.assign(new TypeError(`orgId: no org ${JSON.stringify(orgId)} on this server`), { code: 'ERR_INVALID_ARG_VALUE' })
      return mintOperatorToken(context, request, orgId)
    },
    revokeAccessToken: (token) => revokeAccessToken(context, token),
  }
}
