/**
 * `POST {auth_url}/api/v1/auth/oauth2/revoke`: RFC 7009 revocation of an access or refresh
 * token, which revokes its whole sign-in (family).
 *
 * @module oauth/endpoints/revoke
 */
import { CORS_HEADERS, preflight, sha256 } from '../_http.js'
import { readClientRequest } from '../client-authentication.js'
import type { EndpointContext } from '../context.js'
import { OAuthError } from '../oauth-error.js'
import { REFRESH_TOKEN, type RefreshRecord } from '../records.js'
import { revokeFamily } from '../tokens.js'
import type { FamilyRecord } from '../verify-access-token.js'

/** Revokes the family of `token` when it belongs to the authenticated client; 200 either way (RFC 7009 §2.2). */
export async function revoke(request: Request, { server }: EndpointContext): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight()
  const { client, form } = await readClientRequest(request, server)
  const token = form.get('token')
  if (!token) throw new OAuthError('invalid_request', 'token is required')
  const refresh = REFRESH_TOKEN.exec(token)
  let familyId: string | undefined
  if (refresh) {
    const record = (await server.state.get(`rt.${sha256(token)}`)) as RefreshRecord | null
    if (record?.familyId === refresh[1]) familyId = refresh[1]
  } else {
    familyId = (await server.verifier.familyOf(token).catch(() => undefined)) ?? undefined
  }
  if (familyId) {
    const family = (await server.state.get(`family.${familyId}`)) as FamilyRecord | null
    // RFC 7009 §2.1: a token of another client is not revoked (and the answer does not say so).
    if (family && family.clientId === client.clientId) await revokeFamily(server, familyId)
  }
  return new Response(null, { status: 200, headers: { ...CORS_HEADERS, 'cache-control': 'no-store' } })
}
