/**
 * The two ways an authorization request ends in the browser: the consent page (after the
 * sign-in, or at once with a session), and the redirect back to the client with a code or an
 * error (RFC 6749 §4.1.2, with `iss` of RFC 9207).
 *
 * @module oauth/consent
 */
import { randomToken, sha256 } from './_http.js'
import type { OAuthContext } from './context.js'
import { consentPage, errorPage } from './pages.js'
import { OAUTH_PATHS } from './paths.js'
import { PENDING_TTL_SECONDS, type CodeRecord, type PendingRequest } from './records.js'
import type { ClientRecord } from './types.js'

/** The consent page of a pending request for `userId`. */
export async function showConsent(context: OAuthContext, requestId: string, pending: PendingRequest, csrf: string, userId: string, headers: Record<string, string> = {}): Promise<Response> {
  const [client, user] = await Promise.all([context.clients.find(pending.clientId), context.accounts.getUser(userId)])
  if (!client || !user) return errorPage('Sign-in failed', 'The client or your account no longer exists.')
  // The service's own app (a configured client only): the user signed in to it, nothing to ask.
  if (client.firstParty && client.source === 'configured') {
    const previous = (await context.state.swap(`areq.${requestId}`, { used: true }, { ttlSeconds: PENDING_TTL_SECONDS })) as (PendingRequest & { used?: boolean }) | null
    if (!previous || previous.used) return errorPage('Sign-in expired', 'This sign-in was already used. Start again from the application.')
    return redirectWithCode(context, pending, userId, client, headers)
  }
  return consentPage({
    action: context.endpointUrl(OAUTH_PATHS.authorize),
    signOutAction: context.endpointUrl(OAUTH_PATHS.logout),
    requestId,
    csrf,
    clientName: client.clientName,
    redirectHost: redirectHost(pending.redirectUri),
    scopes: pending.scopes,
    email: user.email,
    headers,
  })
}

/** The 302 back to the client's redirect URI with `params`, its `state` and our `iss`. */
export function redirectWith(context: OAuthContext, pending: Pick<PendingRequest, 'redirectUri' | 'state' | 'orgId'>, params: Record<string, string>, headers: Record<string, string> = {}): Response {
  const url = new URL(pending.redirectUri)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  if (pending.state !== null) url.searchParams.set('state', pending.state)
  url.searchParams.set('iss', context.issuer(pending.orgId))
  return new Response(null, { status: 302, headers: { location: url.href, 'cache-control': 'no-store', ...headers } })
}

/** What the pages show of a redirect URI: its host, or scheme and path for a private-use one. */
export function redirectHost(uri: string): string {
  try {
    const url = new URL(uri)
    return url.host || `${url.protocol}${url.pathname}`
  } catch {
    return uri
  }
}

/** Stores a code for the user's grant and redirects to the client with it (the request is already marked used). */
export async function redirectWithCode(server: OAuthContext, pending: PendingRequest, userId: string, client: ClientRecord, headers: Record<string, string> = {}): Promise<Response> {
  const code = randomToken()
  const record: CodeRecord = {
    clientId: pending.clientId,
    orgId: pending.orgId,
    userId,
    redirectUri: pending.redirectUri,
    challenge: pending.challenge,
    resource: pending.resource,
    scope: pending.scopes.join(' '),
    expiresAt: new Date(server.now().getTime() + server.limits.codeTtl * 1000).toISOString(),
  }
  // Kept past its lifetime so that a replay is recognised (and revokes what it issued).
  await server.state.set(`code.${sha256(code)}`, record, { ttlSeconds: 600 })
  await server.clients.touch(client)
  return redirectWith(server, pending, { code }, headers)
}
