/**
 * Access tokens minted by the operator (`litho token create`), for scripts: the same ES256
 * `at+jwt` as the token endpoint issues, signed with the org's current key, carried by a family
 * of their own (so they expire and are revoked like any other token), but with no client, no
 * consent and no refresh token: whoever runs the command already holds the whole store.
 *
 * @module oauth/operator-tokens
 */
import { randomToken } from './_http.js'
import type { OAuthContext } from './context.js'
import { normalizeResource } from './paths.js'
import { revokeFamily, signAccessToken } from './tokens.js'
import { SCOPES } from './types.js'
import type { FamilyRecord } from './verify-access-token.js'

/** The `client_id` of operator tokens (no client with this id can exist: ids of registered clients are random). */
export const OPERATOR_CLIENT_ID = 'litho-operator'
/** Shortest lifetime of an operator token, in seconds (one minute). */
export const MIN_OPERATOR_TOKEN_TTL = 60
/** Longest lifetime of an operator token, in seconds (24 hours): a script that needs longer mints again. */
export const MAX_OPERATOR_TOKEN_TTL = 86_400

/** What to mint: for whom, with which scopes, for which resource, for how long. */
export interface MintAccessTokenRequest {
  /** The user the token acts for (`sub`). */
  userId: string
  /** Space-separated scopes, each `read` or `write`. @default 'read write' */
  scope?: string | undefined
  /** The resource (audience): one of the server's resources. @default the first (the service's base URL) */
  resource?: string | undefined
  /** Lifetime in seconds, 60 to 86400. @default the server's access-token lifetime (3600) */
  ttlSeconds?: number | undefined
  /** The org whose key signs it. @default the default org */
  orgId?: string | undefined
}

/** A minted token and what it carries. */
export interface MintedAccessToken {
  accessToken: string
  tokenType: 'Bearer'
  expiresAt: Date
  /** The lifetime in seconds, as a token response's `expires_in`. */
  expiresIn: number
  scope: string
  /** The `aud` claim: the resource the token is accepted by. */
  audience: string
  /** The `iss` claim. */
  issuer: string
}

/**
 * Mints an access token for `request.userId` without the authorization flow.
 *
 * @throws TypeError (`code: 'ERR_INVALID_ARG_VALUE'`) naming the bad field: an unknown scope, a
 * resource this server does not serve (the message lists the ones it does), a lifetime out of range.
 */
export async function mintOperatorToken(context: OAuthContext, request: MintAccessTokenRequest, orgId: string): Promise<MintedAccessToken> {
  const scopes = (request.scope ?? 'read write').split(' ').filter(Boolean)
  const unknown = scopes.find((s) => !(SCOPES as readonly string[]).includes(s))
  if (scopes.length === 0 || unknown !== undefined) throw invalid(`scope: expected one or more of ${SCOPES.join(', ')}, received ${JSON.stringify(request.scope)}`)
  const scope = SCOPES.filter((s) => scopes.includes(s)).join(' ')
  const resource = request.resource === undefined ? context.resources[0]! : normalizeResource(request.resource)
  if (!context.resources.includes(resource)) throw invalid(`resource: expected one of ${context.resources.join(', ')}, received ${JSON.stringify(request.resource)}`)
  const ttl = request.ttlSeconds ?? context.limits.accessTtl
  if (!Number.isInteger(ttl) || ttl < MIN_OPERATOR_TOKEN_TTL || ttl > MAX_OPERATOR_TOKEN_TTL) throw invalid(`ttl: expected ${MIN_OPERATOR_TOKEN_TTL} to ${MAX_OPERATOR_TOKEN_TTL} seconds, received ${JSON.stringify(request.ttlSeconds)}`)
  const now = context.now()
  const family: FamilyRecord & { id: string } = {
    id: randomToken(16),
    userId: request.userId,
    clientId: OPERATOR_CLIENT_ID,
    orgId,
    resource,
    scope,
    revoked: false,
    expiresAt: new Date(now.getTime() + ttl * 1000).toISOString(),
  }
  const { id, ...record } = family
  await context.state.set(`family.${id}`, record, { ttlSeconds: ttl })
  const accessToken = await signAccessToken(context, family, OPERATOR_CLIENT_ID, scope, ttl)
  return { accessToken, tokenType: 'Bearer', expiresAt: new Date(Math.floor(now.getTime() / 1000) * 1000 + ttl * 1000), expiresIn: ttl, scope, audience: resource, issuer: context.issuer(orgId) }
}

/**
 * Revokes the family of an access token this server issued (an operator token or any other):
 * every token of that sign-in stops working at once. False when the token does not verify as
 * one of ours (bad signature, another issuer, already expired: it works nowhere anyway).
 */
export async function revokeAccessToken(context: OAuthContext, token: string): Promise<boolean> {
  const familyId = await context.verifier.familyOf(token).catch(() => undefined)
  if (familyId === undefined) return false
  await revokeFamily(context, familyId)
  return true
}

function invalid(message: string): TypeError {
  return Object.assign(new TypeError(message), { code: 'ERR_INVALID_ARG_VALUE' })
}
