/**
 * Bearer authentication of the design, analytics and settings endpoints (docs/authentication.md):
 * the RFC 9728 protected-resource metadata, the 401/403 challenges of RFC 6750 that send
 * clients to it (answered by `toErrorResponse` of errors.ts; CORS is in cors.ts).
 *
 * @module app/bearer
 */
import { BearerTokenError, isRenderKey, type BearerPrincipal, type BearerVerifier } from '@litho/auth-adapters'
import type { AccountStore, UserRecord } from '@litho/core/contracts'
import { BEARER_CORS_HEADERS } from './cors.js'
import { BearerChallenge, json } from './errors.js'

/** The scopes a bearer route may require. */
export type Scope = 'read' | 'write'

const quote = (value: string) => `"${value.replace(/["\\]/g, '')}"`

/** What {@link requireBearer} checks a request against. */
export interface BearerRequirement {
  verifier: BearerVerifier
  /**
   * The resource (RFC 8707 audience) a token must be issued for, or several: a token issued for
   * any one of them is accepted, tried in order (`/api/mcp` takes the API base address of
   * docs/authentication.md, "Tokens", and its own URI). Never a resource of another server.
   */
  resource: string | readonly string[]
  resourceMetadataUrl: string
  scope: Scope
}

/**
 * Checks `Authorization: Bearer …` for `resource` and `scope`.
 *
 * @example
 * const principal = await requireBearer(request, { verifier, resource: 'https://api.example.com', resourceMetadataUrl: 'https://api.example.com/.well-known/oauth-protected-resource', scope: 'read' })
 * @throws BearerChallenge 401 when the token is missing, invalid, expired, revoked or for
 * another audience; 400 when the header is not `Bearer <token>`; 403 `insufficient_scope` when
 * the token is valid but lacks `scope`.
 */
export async function requireBearer(request: Request, options: BearerRequirement): Promise<BearerPrincipal> {
  const metadata = `resource_metadata=${quote(options.resourceMetadataUrl)}`
  const header = request.headers.get('authorization')
  const match = header ? /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim()) : null
  if (!header) throw new BearerChallenge(401, 'missing credentials: send an OAuth access token as "Authorization: Bearer <token>"', `Bearer ${metadata}, scope="read write"`)
  // RFC 6750 §3.1: a malformed request is a 400 (a Basic header, a token with spaces…).
  if (!match) throw new BearerChallenge(400, 'invalid credentials: the Authorization header must be "Bearer <token>"', `Bearer error="invalid_request", error_description="Malformed Authorization header", ${metadata}`)
  // A render key where an access token belongs is the usual first mistake: say where each goes.
  if (isRenderKey(match[1]))
    throw new BearerChallenge(
      401,
      'invalid credentials: this is a render key (lk_…), not an access token. Render keys go in the dma-api-key header (or ?key= on a GET render URL); this endpoint needs an OAuth access token (docs/authentication.md)',
      `Bearer error="invalid_token", error_description="The token is a render key, not an access token", ${metadata}`,
    )
  const principal = await verifyForAny(options.verifier, match[1]!, typeof options.resource === 'string' ? [options.resource] : options.resource).catch((error: unknown) => {
    if (!(error instanceof BearerTokenError)) throw error
    throw new BearerChallenge(401, `invalid credentials: ${error.message}`, `Bearer error="invalid_token", error_description=${quote(error.message)}, ${metadata}`)
  })
  if (!principal.scopes.includes(options.scope)) {
    // Ask for everything the API may need in one step-up, not one scope at a time.
    const needed = options.scope === 'write' ? 'read write' : principal.scopes.includes('write') ? 'read write' : 'read'
    throw new BearerChallenge(403, `insufficient scope: this endpoint needs the "${options.scope}" scope`, `Bearer error="insufficient_scope", scope=${quote(needed)}, ${metadata}`)
  }
  return principal
}

/**
 * The principal of `token` for the first of `resources` it was issued for. Each resource is a
 * separate `verify` (the verifier contract names one audience), so any verifier, ours or an
 * embedder's, checks the audience itself. When all refuse, the reason reported is the first that
 * is not "another audience" (an expired token says so), else the first.
 */
async function verifyForAny(verifier: BearerVerifier, token: string, resources: readonly string[]): Promise<BearerPrincipal> {
  const refusals: BearerTokenError[] = []
  for (const resource of resources) {
    try {
      return await verifier.verify(token, { resource })
    } catch (error) {
      // Only a refused token may be tried for the next resource; an outage (503) is final.
      if (!(error instanceof BearerTokenError)) throw error
      refusals.push(error)
    }
  }
  throw refusals.find((error) => !error.wrongAudience) ?? refusals[0] ?? new BearerTokenError('The access token was issued for another resource', { wrongAudience: true })
}

/** The RFC 9728 document of one resource. */
export function protectedResourceMetadata(options: { resource: string; authorizationServers: string[]; name: string; documentation?: string }): Response {
  return json(
    {
      resource: options.resource,
      authorization_servers: options.authorizationServers,
      scopes_supported: ['read', 'write'],
      bearer_methods_supported: ['header'],
      resource_name: options.name,
      ...(options.documentation ? { resource_documentation: options.documentation } : {}),
    },
    200,
    { ...BEARER_CORS_HEADERS, 'cache-control': 'public, max-age=300' },
  )
}

/**
 * {@link requireBearer}, then the token's user: an external issuer's `sub` may not be a Litho
 * user id at all (`auth0|…`), and a deleted account is no account.
 *
 * @throws BearerChallenge as {@link requireBearer}, and 401 when the token names no account.
 */
export async function requireBearerUser(
  request: Request,
  options: BearerRequirement & { accounts: Pick<AccountStore, 'getUser'> },
): Promise<{ principal: BearerPrincipal; user: UserRecord }> {
  const principal = await requireBearer(request, options)
  const user = /^[A-Za-z0-9_-]{1,64}$/.test(principal.userId) ? await options.accounts.getUser(principal.userId) : null
  if (!user) throw new BearerChallenge(401, 'invalid credentials: the account of this token no longer exists', `Bearer error="invalid_token", resource_metadata=${quote(options.resourceMetadataUrl)}`)
  return { principal, user }
}
