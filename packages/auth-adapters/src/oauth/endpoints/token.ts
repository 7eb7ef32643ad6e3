/**
 * `POST {auth_url}/api/v1/auth/oauth2/token`: the authorization code grant (PKCE S256, RFC
 * 7636) and the refresh token grant with rotation and reuse detection (RFC 9700 §4.14.2).
 *
 * @module oauth/endpoints/token
 */
import { preflight, safeEqual, sha256 } from '../_http.js'
import { readClientRequest } from '../client-authentication.js'
import type { EndpointContext, OAuthContext } from '../context.js'
import { OAuthError } from '../oauth-error.js'
import { normalizeResource } from '../paths.js'
import { REFRESH_TOKEN, type CodeRecord, type RefreshRecord, type RefreshUse } from '../records.js'
import { seal, unseal } from '../sealed.js'
import { issueTokens, revokeFamily, tokenResponse } from '../tokens.js'
import { SCOPES, type ClientRecord } from '../types.js'
import type { FamilyRecord } from '../verify-access-token.js'

/** A PKCE code verifier (RFC 7636 §4.1). */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/

/** Redeems a code or a refresh token of an authenticated client (`?org=` optional, and then the client's). */
export async function token(request: Request, { server }: EndpointContext): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight()
  const { client, form } = await readClientRequest(request, server)
  const requestedOrg = new URL(request.url).searchParams.get('org')
  if (requestedOrg !== null && client.orgId !== null && requestedOrg !== client.orgId) throw new OAuthError('invalid_client', 'The client belongs to another org', 401)
  const grantType = form.get('grant_type')
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required')
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') throw new OAuthError('unsupported_grant_type', `grant_type ${JSON.stringify(grantType)} is not supported (authorization_code, refresh_token)`)
  if (!client.grantTypes.includes(grantType)) throw new OAuthError('unauthorized_client', `The client may not use grant_type ${JSON.stringify(grantType)}`)
  return grantType === 'authorization_code' ? authorizationCodeGrant(server, form, client) : refreshTokenGrant(server, form, client)
}

async function authorizationCodeGrant(server: OAuthContext, form: URLSearchParams, client: ClientRecord): Promise<Response> {
  const { state, now, limits } = server
  const code = form.get('code')
  if (!code) throw new OAuthError('invalid_request', 'code is required')
  const codeHash = sha256(code)
  // Read and invalidate in one step: of two concurrent redemptions exactly one sees the code.
  const previous = (await state.swap(`code.${codeHash}`, { used: true }, { ttlSeconds: 600 })) as (CodeRecord & { used?: boolean }) | null
  const familyId = sha256(`family:${codeHash}`).slice(0, 22)
  if (!previous) throw new OAuthError('invalid_grant', 'The code is unknown or expired')
  if (previous.used) {
    await revokeFamily(server, familyId)
    throw new OAuthError('invalid_grant', 'The code was already used; the tokens issued for it are revoked')
  }
  if (Date.parse(previous.expiresAt) <= now().getTime()) throw new OAuthError('invalid_grant', 'The code has expired')
  if (previous.clientId !== client.clientId) throw new OAuthError('invalid_grant', 'The code was issued to another client')
  if (form.get('redirect_uri') !== previous.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request')
  const verifierValue = form.get('code_verifier')
  if (!verifierValue) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)')
  if (!VERIFIER.test(verifierValue) || !safeEqual(sha256(verifierValue), previous.challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge')
  const resource = form.get('resource')
  if (resource !== null && normalizeResource(resource) !== previous.resource) throw new OAuthError('invalid_target', `resource must be the one authorized: ${previous.resource}`)
  const family: FamilyRecord = {
    userId: previous.userId,
    clientId: client.clientId,
    orgId: previous.orgId,
    resource: previous.resource,
    scope: previous.scope,
    revoked: false,
    expiresAt: new Date(now().getTime() + limits.refreshTtl * 1000).toISOString(),
  }
  await state.set(`family.${familyId}`, family, { ttlSeconds: limits.refreshTtl })
  return tokenResponse(await issueTokens(server, { ...family, id: familyId }, client, previous.scope))
}

async function refreshTokenGrant(server: OAuthContext, form: URLSearchParams, client: ClientRecord): Promise<Response> {
  const { state, now } = server
  const { graceSeconds } = server.limits
  const token = form.get('refresh_token')
  if (!token) throw new OAuthError('invalid_request', 'refresh_token is required')
  const match = REFRESH_TOKEN.exec(token)
  if (!match) throw new OAuthError('invalid_grant', 'The refresh token is unknown')
  const familyId = match[1]!
  const family = (await state.get(`family.${familyId}`)) as FamilyRecord | null
  if (!family || family.revoked || Date.parse(family.expiresAt) <= now().getTime()) throw new OAuthError('invalid_grant', 'The refresh token is revoked or expired')
  if (family.clientId !== client.clientId) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client')
  const hash = sha256(token)
  const record = (await state.get(`rt.${hash}`)) as RefreshRecord | null
  if (!record || record.familyId !== familyId) throw new OAuthError('invalid_grant', 'The refresh token is unknown')
  // Checked before the token is used, so a bad request does not spend it.
  let grantedScope = record.scope
  const requestedScope = form.get('scope')
  if (requestedScope !== null) {
    const asked = requestedScope.split(' ').filter((s) => s && s !== 'offline_access')
    const held = record.scope.split(' ')
    if (asked.length === 0 || asked.some((s) => !held.includes(s))) throw new OAuthError('invalid_scope', `scope may only narrow the granted scope (${record.scope})`)
    grantedScope = SCOPES.filter((s) => asked.includes(s)).join(' ')
  }
  const resource = form.get('resource')
  if (resource !== null && normalizeResource(resource) !== family.resource) throw new OAuthError('invalid_target', `resource must be the one authorized: ${family.resource}`)
  const ttl = Math.max(1, Math.floor((Date.parse(family.expiresAt) - now().getTime()) / 1000))
  const rotatedAt = now()
  // Rotation: record the first use and learn whether there was one, in one step.
  const previous = (await state.swap(`rtu.${hash}`, { rotatedAt: rotatedAt.toISOString() } satisfies RefreshUse, { ttlSeconds: ttl })) as RefreshUse | null
  if (previous !== null) {
    // Keep the first rotation time, so repeated reuse cannot stretch the grace window.
    await state.set(`rtu.${hash}`, previous, { ttlSeconds: ttl })
    const age = (rotatedAt.getTime() - Date.parse(previous.rotatedAt)) / 1000
    if (!(age <= graceSeconds)) {
      await revokeFamily(server, familyId)
      throw new OAuthError('invalid_grant', 'The refresh token was already used; every token of this sign-in is revoked')
    }
    // A concurrent refresh of the same token (hosts do this): the very pair the first use got,
    // so the family never forks. The winner may still be signing it: wait a moment.
    for (let waited = 0; waited <= 5_000; waited += 50) {
      const successor = unseal(token, await state.get(`rts.${hash}`))
      if (successor) return tokenResponse(successor as Record<string, unknown>)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new OAuthError('temporarily_unavailable', 'The refresh token is being rotated by another request; try again in a moment', 503, { 'retry-after': '1' })
  }
  const body = await issueTokens(server, { ...family, id: familyId }, client, grantedScope)
  // Sealed under the token just spent: readable only by whoever presents it again in the window.
  await state.set(`rts.${hash}`, seal(token, body), { ttlSeconds: Math.max(1, Math.min(graceSeconds, ttl)) })
  return tokenResponse(body)
}
