/**
 * `GET {auth_url}/.well-known/oauth-authorization-server/org/:org`: the org's RFC 8414
 * authorization server metadata, cached five minutes, open to browsers (CORS).
 *
 * @module oauth/endpoints/metadata
 */
import { CORS_HEADERS, jsonResponse, preflight } from '../_http.js'
import type { EndpointContext } from '../context.js'
import { OAUTH_PATHS } from '../paths.js'
import { SCOPES } from '../types.js'

/** RFC 8414 metadata of org `params.org`: 404 `not_found` for an unknown org. */
export async function metadata(request: Request, { server, params }: EndpointContext): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight()
  const orgId = params.org ?? ''
  if (!(await server.orgs.get(orgId))) return jsonResponse({ error: 'not_found', error_description: `unknown org ${JSON.stringify(orgId)}` }, 404, { ...CORS_HEADERS })
  const { issuer, endpointUrl } = server
  const registration = endpointUrl(OAUTH_PATHS.register, orgId)
  const revocation = endpointUrl(OAUTH_PATHS.revoke, orgId)
  const authorization = endpointUrl(OAUTH_PATHS.authorize)
  return jsonResponse(
    {
      issuer: issuer(orgId),
      // Without ?org=: some clients append "?…" by string concatenation; the org comes from the client.
      authorization_endpoint: authorization,
      token_endpoint: endpointUrl(OAUTH_PATHS.token, orgId),
      registration_endpoint: registration,
      revocation_endpoint: revocation,
      // OpenID Connect RP-Initiated Logout's name for where a browser session ends.
      end_session_endpoint: endpointUrl(OAUTH_PATHS.logout),
      jwks_uri: `${issuer(orgId)}/jwks.json`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      scopes_supported: [...SCOPES],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: server.clients.metadataDocuments,
      resource_indicators_supported: true,
      agent_auth: {
        identity_types_supported: ['anonymous'],
        anonymous: { credential_types_supported: ['oauth2_client'] },
        register_uri: registration,
        claim_uri: authorization,
        revocation_uri: revocation,
      },
    },
    200,
    { ...CORS_HEADERS, 'cache-control': 'public, max-age=300' },
  )
}
