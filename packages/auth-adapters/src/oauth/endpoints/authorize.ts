/**
 * `{auth_url}/api/v1/auth/oauth2/authorize`: the authorization endpoint. GET checks the
 * request and shows the sign-in page (or, with a session, the consent page); POST carries the
 * sign-in form (endpoints/sign-in.ts) and the consent form, whose Allow redirects with a code.
 * HTML for browsers' top-level navigation: no CORS (RFC 9700), never framed, never cached.
 *
 * @module oauth/endpoints/authorize
 */
import { randomToken, readForm, safeEqual, sha256 } from '../_http.js'
import { redirectUriMatches } from '../clients.js'
import { redirectHost, redirectWith, redirectWithCode, showConsent } from '../consent.js'
import type { EndpointContext, OAuthContext } from '../context.js'
import { CSRF_COOKIE, readCookie, setCookie } from '../cookies.js'
import { errorPage, signInPage } from '../pages.js'
import { OAUTH_PATHS, normalizeResource } from '../paths.js'
import { PENDING_TTL_SECONDS, REQUEST_ID, type PendingRequest } from '../records.js'
import { currentSession } from '../session.js'
import { SCOPES, type ClientRecord } from '../types.js'
import { signIn, type VerifiedForm } from './sign-in.js'

/** A PKCE S256 challenge: the base64url SHA-256 of the verifier (RFC 7636 §4.2). */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/

/** GET starts an authorization request, POST carries its forms; other methods get a 405 page. */
export async function authorize(request: Request, context: EndpointContext): Promise<Response> {
  if (request.method === 'GET') return startAuthorization(request, context.server)
  if (request.method === 'POST') return continueAuthorization(request, context)
  return errorPage('Method not allowed', 'Use GET (or the forms of these pages).', 405)
}

async function startAuthorization(request: Request, server: OAuthContext): Promise<Response> {
  const q = new URL(request.url).searchParams
  const clientId = q.get('client_id')
  // The client and its redirect URI are checked before anything else: until both are known
  // good, every error is a page, never a redirect (RFC 9700 §4.1, no open redirector).
  if (!clientId) return errorPage('Invalid request', 'client_id is missing.')
  const client = await server.clients.find(clientId)
  if (!client) return errorPage('Unknown client', 'This application is not registered here (unknown client_id). Ask it to register again.')
  const requestedOrg = q.get('org')
  if (requestedOrg !== null && client.orgId !== null && requestedOrg !== client.orgId) return errorPage('Invalid request', 'The org does not match the client.')
  const orgId = client.orgId ?? requestedOrg ?? server.defaultOrg
  if (!orgId || !(await server.orgs.get(orgId))) return errorPage('Invalid request', 'Unknown org.')
  const requestedRedirect = q.get('redirect_uri')
  let redirectUri: string
  if (requestedRedirect === null) {
    if (client.redirectUris.length !== 1) return errorPage('Invalid request', 'redirect_uri is missing.')
    redirectUri = client.redirectUris[0]!
  } else if (redirectUriMatches(client.redirectUris, requestedRedirect)) {
    redirectUri = requestedRedirect
  } else {
    return errorPage('Invalid redirect', 'redirect_uri is not registered for this client.')
  }
  const base = { redirectUri, state: q.get('state'), orgId }
  // RFC 9700 §4.11.2: anyone can register a client with any https redirect URI, so an error
  // here (before the user did anything) is a page for such clients, never an automatic
  // redirect; the page offers the way back as a link. Configured clients are trusted (RFC 6749 §4.1.2.1).
  const fail = (error: string, description: string) => {
    const redirect = redirectWith(server, base, { error, error_description: description })
    if (client.source === 'configured') return redirect
    return errorPage('Invalid request', `The application asked for something this server cannot grant: ${description} (${error}).`, 400, { url: redirect.headers.get('location')!, host: redirectHost(redirectUri) })
  }
  if (q.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be "code"')
  const challenge = q.get('code_challenge')
  const method = q.get('code_challenge_method')
  if (!challenge) return fail('invalid_request', 'code_challenge is required (PKCE with S256)')
  if (method !== 'S256') return fail('invalid_request', `code_challenge_method must be "S256"${method ? `, not ${JSON.stringify(method)}` : ''}`)
  if (!CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the verifier')
  const resourceParams = q.getAll('resource')
  if (resourceParams.length > 1) return fail('invalid_target', 'only one resource may be asked for')
  const resource = resourceParams.length === 1 ? normalizeResource(resourceParams[0]!) : server.resources[0]!
  if (!server.resources.includes(resource)) return fail('invalid_target', `resource must be one of ${server.resources.join(', ')}`)
  const scoped = parseScopes(q.get('scope'), client)
  if ('error' in scoped) return fail('invalid_scope', scoped.error)

  const session = await currentSession(request, server)
  const prompt = q.get('prompt')
  if (prompt === 'none') return fail(session ? 'consent_required' : 'login_required', session ? 'consent is required' : 'the user is not signed in')
  const csrf = randomToken()
  const requestId = randomToken(18)
  await server.state.set(`areq.${requestId}`, { ...base, clientId: client.clientId, challenge, resource, scopes: scoped.scopes, csrfHash: sha256(csrf) } satisfies PendingRequest, { ttlSeconds: PENDING_TTL_SECONDS })
  const headers = { 'set-cookie': setCookie(CSRF_COOKIE, csrf, PENDING_TTL_SECONDS, server.cookies) }
  if (session) return showConsent(server, requestId, { ...base, clientId: client.clientId, challenge, resource, scopes: scoped.scopes, csrfHash: '' }, csrf, session.userId, headers)
  return signInPage({ action: server.endpointUrl(OAUTH_PATHS.authorize), requestId, csrf, clientName: client.clientName, headers })
}

/** The scopes asked for (`offline_access` ignored: refresh tokens follow the client's grant types), within what the client may ask for. */
function parseScopes(requested: string | null, client: ClientRecord): { scopes: string[] } | { error: string } {
  const asked = (requested ?? client.scope ?? SCOPES.join(' ')).split(' ').filter((s) => s && s !== 'offline_access')
  const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s))
  if (unknown.length > 0) return { error: `unknown scope ${unknown.map((s) => JSON.stringify(s)).join(', ')} (supported: ${SCOPES.join(' ')})` }
  const allowed = client.scope ? client.scope.split(' ') : [...SCOPES]
  const denied = asked.filter((s) => !allowed.includes(s))
  if (denied.length > 0) return { error: `the client may not ask for ${denied.join(' ')}` }
  const scopes = SCOPES.filter((s) => asked.includes(s))
  return scopes.length > 0 ? { scopes } : { error: 'no scope asked for' }
}

async function continueAuthorization(request: Request, context: EndpointContext): Promise<Response> {
  const { server } = context
  const form = await readForm(request)
  if (!form) return errorPage('Invalid request', 'Expected a form submission.')
  const requestId = form.get('request_id') ?? ''
  const csrf = form.get('csrf') ?? ''
  const pending = REQUEST_ID.test(requestId) ? ((await server.state.get(`areq.${requestId}`)) as PendingRequest | null) : null
  // A used request is kept as { used: true } (see the consent step): the same page as an expired one.
  if (!pending || (pending as { used?: boolean }).used) return errorPage('Sign-in expired', 'This sign-in took too long or was already used. Start again from the application.')
  // Double-submit: the form's token must be the cookie's, and the one this request was made with.
  const cookieCsrf = readCookie(request, CSRF_COOKIE) ?? ''
  if (!csrf || !safeEqual(csrf, cookieCsrf) || !safeEqual(sha256(csrf), pending.csrfHash)) return errorPage('Invalid request', 'The form could not be verified (CSRF). Start again from the application.', 403)
  const client = await server.clients.find(pending.clientId)
  if (!client) return errorPage('Unknown client', 'This application is no longer registered.')
  const step = form.get('step')
  if (step === 'sign-in') return signIn({ form, requestId, csrf, pending, client }, context)
  if (step === 'consent') return consent({ form, requestId, csrf, pending, client }, request, server)
  return errorPage('Invalid request', 'Unknown form step.')
}

/** The consent form: Allow stores a code and redirects with it, Deny redirects with `access_denied`. */
async function consent({ form, requestId, csrf, pending, client }: VerifiedForm, request: Request, server: OAuthContext): Promise<Response> {
  const session = await currentSession(request, server)
  if (!session) return signInPage({ action: server.endpointUrl(OAUTH_PATHS.authorize), requestId, csrf, clientName: client.clientName, error: 'Your session ended; sign in again.', status: 401 })
  // The pending request is used once, whatever the decision.
  const previous = (await server.state.swap(`areq.${requestId}`, { used: true }, { ttlSeconds: PENDING_TTL_SECONDS })) as (PendingRequest & { used?: boolean }) | null
  if (!previous || previous.used) return errorPage('Sign-in expired', 'This sign-in was already used. Start again from the application.')
  if (form.get('decision') !== 'allow') return redirectWith(server, pending, { error: 'access_denied', error_description: 'The user denied access' })
  return redirectWithCode(server, pending, session.userId, client)
}
