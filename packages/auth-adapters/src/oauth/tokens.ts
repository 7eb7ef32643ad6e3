/**
 * Issuing and revoking tokens. A sign-in is a family (`family.<id>`): an ES256 access token
 * (`typ: at+jwt`, RFC 9068) and a rotating refresh token per grant; revoking the family revokes
 * every token of it.
 *
 * @module oauth/tokens
 */
import { SignJWT } from 'jose'
import { CORS_HEADERS, jsonResponse, randomToken, sha256 } from './_http.js'
import type { OAuthContext } from './context.js'
import type { RefreshRecord } from './records.js'
import type { ClientRecord } from './types.js'
import type { FamilyRecord } from './verify-access-token.js'

/** Signs an access token (`typ: at+jwt`) of `family` for `clientId`, valid `ttl` seconds, with the org's current key. */
export async function signAccessToken(context: OAuthContext, family: FamilyRecord & { id: string }, clientId: string, scope: string, ttl: number): Promise<string> {
  const iat = Math.floor(context.now().getTime() / 1000)
  const [key] = await context.orgs.keys(family.orgId)
  if (!key) throw new Error(`org ${family.orgId} has no signing key`)
  return new SignJWT({ client_id: clientId, scope, org: family.orgId, sid: family.id })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
    .setIssuer(context.issuer(family.orgId))
    .setAudience(family.resource)
    .setSubject(family.userId)
    .setJti(randomToken(16))
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(key.privateKey)
}

/** Signs an access token for the family and, when the client may refresh, stores a new refresh token: the body of a token response. */
export async function issueTokens(context: OAuthContext, family: FamilyRecord & { id: string }, client: ClientRecord, scope: string): Promise<Record<string, unknown>> {
  const { accessTtl } = context.limits
  const issuedAt = context.now()
  const accessToken = await signAccessToken(context, family, client.clientId, scope, accessTtl)
  const body: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: accessTtl, scope }
  const familyLeft = Math.floor((Date.parse(family.expiresAt) - issuedAt.getTime()) / 1000)
  if (client.grantTypes.includes('refresh_token') && familyLeft > 0) {
    const refreshToken = `lrt_${family.id}.${randomToken(32)}`
    await context.state.set(`rt.${sha256(refreshToken)}`, { familyId: family.id, scope } satisfies RefreshRecord, { ttlSeconds: familyLeft })
    body.refresh_token = refreshToken
  }
  return body
}

/** A successful token response (RFC 6749 §5.1): never cached. */
export function tokenResponse(body: Record<string, unknown>): Response {
  return jsonResponse(body, 200, { ...CORS_HEADERS, 'cache-control': 'no-store', pragma: 'no-cache' })
}

/** Marks a family revoked (until it would have expired): its access tokens fail verification, its refresh tokens are refused. */
export async function revokeFamily(context: OAuthContext, familyId: string): Promise<void> {
  const { state } = context
  const family = (await state.get(`family.${familyId}`)) as FamilyRecord | null
  if (family && !family.revoked) {
    const ttl = Math.max(1, Math.ceil((Date.parse(family.expiresAt) - context.now().getTime()) / 1000))
    await state.set(`family.${familyId}`, { ...family, revoked: true }, { ttlSeconds: ttl })
  }
}
