/**
 * `POST {auth_url}/api/v1/auth/oauth2/register?org=`: RFC 7591 dynamic client registration,
 * limited per client address when the server has a meter.
 *
 * @module oauth/endpoints/register
 */
import { CORS_HEADERS, jsonResponse, preflight, randomToken, readText, sha256 } from '../_http.js'
import { parseRegistration, registrationResponse } from '../clients.js'
import type { EndpointContext, OAuthContext } from '../context.js'
import { OAuthError } from '../oauth-error.js'
import { SCOPES } from '../types.js'

/** Registers a client of the org of `?org=` (or the default org) from its JSON metadata: 201 with its `client_id` (and secret). */
export async function register(request: Request, { server, clientAddress }: EndpointContext): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight()
  if (request.method !== 'POST') throw new OAuthError('invalid_request', 'Use POST with a JSON body', 405, { allow: 'POST, OPTIONS' })
  const orgId = await orgFromQuery(new URL(request.url), server)
  if (clientAddress !== undefined && !(await withinLimit(server, `register.${sha256(clientAddress).slice(0, 32)}`, server.limits.registrationsPerHour, 3600)))
    throw new OAuthError('invalid_request', 'Too many registrations from this address; try again in an hour', 429, { 'retry-after': '3600' })
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) throw new OAuthError('invalid_client_metadata', 'The body must be JSON (Content-Type: application/json)')
  const text = await readText(request)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new OAuthError('invalid_client_metadata', 'The body is not valid JSON')
  }
  // parseRegistration throws RegistrationError (an OAuthError) for metadata it refuses.
  const { client, secret } = await server.clients.register(orgId, parseRegistration(body, SCOPES), server.now())
  return jsonResponse(registrationResponse(client, secret), 201, { ...CORS_HEADERS, 'cache-control': 'no-store' })
}

/** The org of `?org=`, or the default org when there is one. */
async function orgFromQuery(url: URL, server: OAuthContext): Promise<string> {
  const orgId = url.searchParams.get('org') ?? server.defaultOrg
  if (!orgId) throw new OAuthError('invalid_request', 'org: this server has several orgs; add ?org=<org_id>')
  if (!(await server.orgs.get(orgId))) throw new OAuthError('invalid_request', `org: unknown org ${JSON.stringify(orgId)}`, 404)
  return orgId
}

/** Counts one attempt against a limit per fixed window; false when over. Without a meter, no limit. */
async function withinLimit(server: OAuthContext, subject: string, limit: number, windowSeconds: number): Promise<boolean> {
  if (!server.meter) return true
  const at = server.now()
  const index = Math.floor(at.getTime() / (windowSeconds * 1000))
  const window = `rl${windowSeconds}.${index}`
  const expiresAt = new Date((index + 1) * windowSeconds * 1000)
  return (await server.meter.consume({ subject, window, amount: 1, limit, id: randomToken(12), expiresAt, at })).granted
}
