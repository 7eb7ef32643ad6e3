/**
 * Bearer token verification: the built-in server's tokens (its orgs' keys, plus revocation),
 * and tokens of any external authorization server through its JWKS URL.
 *
 * @module oauth/verify-access-token
 */
import type { AuthStateStore } from '@litho/core/contracts'
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose'
import type { Orgs } from './orgs.js'
import { BearerTokenError, BearerVerifierUnavailableError, type BearerPrincipal, type BearerVerifier } from './types.js'

/** One sign-in's tokens: revoking the family revokes every access and refresh token of it. */
export interface FamilyRecord {
  userId: string
  clientId: string
  orgId: string
  resource: string
  scope: string
  revoked: boolean
  expiresAt: string
}

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

function audiences(resource: string): string[] {
  const bare = resource.endsWith('/') ? resource.slice(0, -1) : resource
  return [bare, `${bare}/`]
}

function principalOf(payload: JWTPayload, resource: string, orgId: string | null, scopeClaim = 'scope'): BearerPrincipal {
  const raw = payload[scopeClaim]
  const scopes = typeof raw === 'string' ? raw.split(' ').filter(Boolean) : Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string') : []
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : ''
  return { userId: payload.sub!, clientId, scopes, audience: resource, issuer: payload.iss!, orgId, tokenId: typeof payload.jti === 'string' ? payload.jti : '', expiresAt: new Date(payload.exp! * 1000) }
}

/** jose refused the `aud` claim, and only it: the signature, issuer and type were good. */
function isAudienceRefusal(error: unknown): boolean {
  return (error as { code?: string }).code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && (error as { claim?: string }).claim === 'aud'
}

/** The verifier of the built-in server (also finds a token's family for revocation). */
export function createBuiltInVerifier(options: { authUrl: string; orgs: Orgs; state: AuthStateStore; now: () => Date }): BearerVerifier & { familyOf(token: string): Promise<string | undefined> } {
  const prefix = `${options.authUrl}/org/`

  async function verified(token: string, audience?: string) {
    if (typeof token !== 'string' || token.length > 8192 || !JWT.test(token)) throw new BearerTokenError('The access token is malformed')
    let iss: unknown
    let kid: unknown
    try {
      iss = decodeJwt(token).iss
      kid = decodeProtectedHeader(token).kid
    } catch {
      throw new BearerTokenError('The access token is malformed')
    }
    if (typeof iss !== 'string' || !iss.startsWith(prefix)) throw new BearerTokenError('The access token was not issued by this server')
    const orgId = iss.slice(prefix.length)
    let keys = await options.orgs.keys(orgId)
    if (keys.length === 0) throw new BearerTokenError('The access token was not issued by this server')
    // A kid we do not know may be a key that another process just rotated in: read the keys
    // again (at most every few seconds per org). An unknown kid after that is refused below.
    if (!keys.some((key) => key.kid === kid)) keys = await options.orgs.refresh(orgId)
    try {
      const { payload } = await jwtVerify(token, createLocalJWKSet({ keys: keys.map((k) => k.publicJwk) }), {
        issuer: iss,
        typ: 'at+jwt',
        algorithms: ['ES256'],
        requiredClaims: ['exp', 'iat', 'sub', 'jti', 'client_id', 'sid'],
        currentDate: options.now(),
        ...(audience ? { audience: audiences(audience) } : {}),
      })
      return { payload, orgId }
    } catch (error) {
      if (isAudienceRefusal(error)) throw new BearerTokenError('The access token was issued for another resource', { wrongAudience: true })
      throw new BearerTokenError((error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'The access token has expired' : 'The access token is invalid')
    }
  }

  return {
    async verify(token, { resource }) {
      const { payload, orgId } = await verified(token, resource)
      const family = (await options.state.get(`family.${String(payload.sid)}`)) as FamilyRecord | null
      if (!family || family.revoked) throw new BearerTokenError('The access token has been revoked')
      return principalOf(payload, resource, orgId)
    },
    async familyOf(token) {
      const { payload } = await verified(token)
      return typeof payload.sid === 'string' ? payload.sid : undefined
    },
  }
}

/** Options of {@link createJwksVerifier}. */
export interface JwksVerifierOptions {
  /** The authorization server's JWKS URL (fetched and cached by jose; keys refreshed on an unknown `kid`). */
  jwksUrl: string
  /** The exact `iss` its tokens carry. */
  issuer: string
  /** Signature algorithms accepted, e.g. `['RS256']` or `['ES256']`. Never `none`. */
  algorithms: string[]
  /** The claim holding scopes (a space-separated string or an array). @default 'scope' */
  scopeClaim?: string
  /** Maps verified claims to the Litho user id. @default the `sub` claim */
  userIdOf?: (claims: JWTPayload) => string | Promise<string>
  /** Allowed clock skew in seconds. @default 30 */
  clockToleranceSeconds?: number
}

/**
 * A verifier for tokens of your own authorization server (Auth0, Keycloak, Entra ID…): JWTs
 * checked against its JWKS with a required issuer, audience (the resource being called) and
 * algorithm list. When the JWKS cannot be fetched it throws {@link BearerVerifierUnavailableError}
 * (the HTTP adapter answers 503), so clients do not throw good tokens away.
 *
 * @example
 * const verifier = createJwksVerifier({ jwksUrl: 'https://id.example.com/.well-known/jwks.json', issuer: 'https://id.example.com/', algorithms: ['RS256'] })
 * const principal = await verifier.verify(token, { resource: 'https://api.example.com' })
 */
export function createJwksVerifier(options: JwksVerifierOptions): BearerVerifier {
  if (typeof options?.jwksUrl !== 'string' || !/^https?:\/\//.test(options.jwksUrl)) throw Object.assign(new TypeError('Expected options.jwksUrl to be an http(s) URL'), { code: 'ERR_INVALID_ARG_VALUE' })
  if (typeof options.issuer !== 'string' || options.issuer.length === 0) throw Object.assign(new TypeError('Expected options.issuer to be the issuer of the tokens'), { code: 'ERR_INVALID_ARG_VALUE' })
  if (!Array.isArray(options.algorithms) || options.algorithms.length === 0 || options.algorithms.some((a) => typeof a !== 'string' || a.toLowerCase() === 'none'))
    throw Object.assign(new TypeError('Expected options.algorithms to list the accepted signature algorithms (never "none")'), { code: 'ERR_INVALID_ARG_VALUE' })
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl))
  return {
    async verify(token, { resource }) {
      if (typeof token !== 'string' || token.length > 8192 || !JWT.test(token)) throw new BearerTokenError('The access token is malformed')
      let payload: JWTPayload
      try {
        ;({ payload } = await jwtVerify(token, jwks, { issuer: options.issuer, audience: audiences(resource), algorithms: options.algorithms, requiredClaims: ['exp', 'sub'], clockTolerance: options.clockToleranceSeconds ?? 30 }))
      } catch (error) {
        const code = (error as { code?: string }).code
        // The issuer's keys could not be had: not the token's fault, so clients should keep it.
        if (code === undefined || code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JWKS_INVALID') throw new BearerVerifierUnavailableError(`The keys of ${options.issuer} could not be fetched`, { cause: error })
        if (isAudienceRefusal(error)) throw new BearerTokenError('The access token was issued for another resource', { wrongAudience: true })
        throw new BearerTokenError(code === 'ERR_JWT_EXPIRED' ? 'The access token has expired' : 'The access token is invalid')
      }
      const principal = principalOf(payload, resource, null, options.scopeClaim)
      const userId = options.userIdOf ? await options.userIdOf(payload) : principal.userId
      return { ...principal, userId }
    },
  }
}
