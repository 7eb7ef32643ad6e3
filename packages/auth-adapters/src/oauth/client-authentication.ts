/**
 * The common start of the token and revocation endpoints: a form POST from an authenticated
 * client (RFC 6749 §2.3: Basic credentials, or `client_id` and `client_secret` in the form, or
 * a public client's bare `client_id`).
 *
 * @module oauth/client-authentication
 */
import { readForm } from './_http.js'
import { Clients } from './clients.js'
import type { OAuthContext } from './context.js'
import { OAuthError } from './oauth-error.js'
import type { ClientRecord } from './types.js'

/**
 * Reads the form of a POST and authenticates its client.
 *
 * @throws OAuthError 405 for another method, 400 for a body that is not a form, 401
 * `invalid_client` when the client is unknown or its credentials are wrong.
 * @throws BodyTooLargeError over the body limit.
 */
export async function readClientRequest(request: Request, context: OAuthContext): Promise<{ client: ClientRecord; form: URLSearchParams }> {
  if (request.method !== 'POST') throw new OAuthError('invalid_request', 'Use POST', 405, { allow: 'POST, OPTIONS' })
  const form = await readForm(request)
  if (!form) throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded')
  return { client: await authenticateClient(request, form, context), form }
}

async function authenticateClient(request: Request, form: URLSearchParams, context: OAuthContext): Promise<ClientRecord> {
  let clientId = form.get('client_id') ?? undefined
  let secret = form.get('client_secret') ?? undefined
  const header = request.headers.get('authorization')
  if (header?.toLowerCase().startsWith('basic ')) {
    const credentials = parseBasic(header.slice(6).trim())
    if (!credentials) throw new OAuthError('invalid_client', 'The Basic credentials are malformed (RFC 6749 §2.3.1: base64 of url-encoded client_id ":" client_secret)', 401, { 'www-authenticate': 'Basic' })
    if (clientId !== undefined && clientId !== credentials.id) throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials')
    clientId = credentials.id
    secret = credentials.secret
  }
  if (!clientId) throw new OAuthError('invalid_client', 'client_id is required', 401)
  const client = await context.clients.find(clientId)
  // 401 invalid_client for an unknown id tells hosts (Claude, the MCP SDK) to register again.
  if (!client) throw new OAuthError('invalid_client', 'Unknown client_id; register the client again', 401)
  if (client.tokenEndpointAuthMethod !== 'none' && !Clients.checkSecret(client, secret)) throw new OAuthError('invalid_client', 'Client authentication failed', 401, header ? { 'www-authenticate': 'Basic' } : {})
  return client
}

/** RFC 6749 §2.3.1 Basic credentials: base64 of form-url-encoded `client_id:client_secret`; null when malformed. */
function parseBasic(value: string): { id: string; secret: string } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return null
  const decoded = Buffer.from(value, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  try {
    const form = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '))
    return { id: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) }
  } catch {
    return null // a malformed %-escape
  }
}
