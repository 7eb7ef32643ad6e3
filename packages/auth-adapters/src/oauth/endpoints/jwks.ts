/**
 * `GET {auth_url}/org/:org/jwks.json`: the org's public signing keys (RFC 7517), the newest
 * first, retired ones until their last token has expired; cached five minutes, open to browsers.
 *
 * @module oauth/endpoints/jwks
 */
import { CORS_HEADERS, jsonResponse, preflight } from '../_http.js'
import type { EndpointContext } from '../context.js'

/** The JWKS of org `params.org`: 404 `not_found` for an unknown org. */
export async function jwks(request: Request, { server, params }: EndpointContext): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight()
  const orgId = params.org ?? ''
  const keys = await server.orgs.keys(orgId)
  if (keys.length === 0) return jsonResponse({ error: 'not_found', error_description: `unknown org ${JSON.stringify(orgId)}` }, 404, { ...CORS_HEADERS })
  return jsonResponse({ keys: keys.map((k) => k.publicJwk) }, 200, { ...CORS_HEADERS, 'cache-control': 'public, max-age=300' })
}
