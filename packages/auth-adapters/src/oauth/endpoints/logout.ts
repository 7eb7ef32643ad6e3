/**
 * `{auth_url}/api/v1/auth/oauth2/logout`: ends the browser session of the sign-in pages
 * (OpenID Connect RP-Initiated Logout's `end_session_endpoint`). GET shows a confirmation form;
 * its POST (CSRF-checked) signs out.
 *
 * @module oauth/endpoints/logout
 */
import { randomToken, readForm, safeEqual, sha256 } from '../_http.js'
import { redirectUriMatches } from '../clients.js'
import type { EndpointContext } from '../context.js'
import { CSRF_COOKIE, readCookie, setCookie } from '../cookies.js'
import { errorPage, signInPage, signOutPage, signedOutPage } from '../pages.js'
import { OAUTH_PATHS } from '../paths.js'
import { PENDING_TTL_SECONDS, REQUEST_ID, type PendingRequest } from '../records.js'
import { endSession } from '../session.js'

/**
 * GET: the sign-out form. POST: deletes the session and its cookie, then goes back to the
 * sign-in page of a pending request, to a registered `post_logout_redirect_uri` of
 * `client_id`, or to a "signed out" page.
 */
export async function logout(request: Request, { server }: EndpointContext): Promise<Response> {
  const { clients, endpointUrl } = server
  if (request.method === 'GET') {
    // Never sign out on a GET (a link or an <img> could do it): show the form.
    const url = new URL(request.url)
    const csrf = randomToken()
    const returnTo = url.searchParams.get('post_logout_redirect_uri')
    return signOutPage({
      action: endpointUrl(OAUTH_PATHS.logout),
      csrf,
      fields: { client_id: url.searchParams.get('client_id') ?? '', post_logout_redirect_uri: returnTo ?? '', state: url.searchParams.get('state') ?? '' },
      headers: { 'set-cookie': setCookie(CSRF_COOKIE, csrf, PENDING_TTL_SECONDS, server.cookies) },
    })
  }
  if (request.method !== 'POST') return errorPage('Method not allowed', 'Use GET (or the form of the sign-out page).', 405)
  const form = await readForm(request)
  if (!form) return errorPage('Invalid request', 'Expected a form submission.')
  // Double-submit: only a page of this server (which set the cookie) can post a matching token.
  const csrf = form.get('csrf') ?? ''
  if (!csrf || !safeEqual(csrf, readCookie(request, CSRF_COOKIE) ?? '')) return errorPage('Invalid request', 'The form could not be verified (CSRF). Open the sign-out page again.', 403)
  const headers = { 'set-cookie': await endSession(request, server) }
  // From the consent page ("Not you?"): back to the sign-in page of the same request.
  const requestId = form.get('request_id') ?? ''
  const pending = REQUEST_ID.test(requestId) ? ((await server.state.get(`areq.${requestId}`)) as (PendingRequest & { used?: boolean }) | null) : null
  if (pending && !pending.used && safeEqual(sha256(csrf), pending.csrfHash)) {
    const client = await clients.find(pending.clientId)
    if (client) return signInPage({ action: endpointUrl(OAUTH_PATHS.authorize), requestId, csrf, clientName: client.clientName, headers })
  }
  // RP-initiated: only to a URI registered for the client, so this is no open redirect either.
  const returnTo = form.get('post_logout_redirect_uri')
  if (returnTo) {
    const client = await clients.find(form.get('client_id') ?? '')
    if (!client || !redirectUriMatches(client.redirectUris, returnTo)) return errorPage('Signed out', 'You are signed out. The application asked to return to an address that is not registered for it, so this page stays here.', 400)
    const target = new URL(returnTo)
    const stateParam = form.get('state')
    if (stateParam) target.searchParams.set('state', stateParam)
    return new Response(null, { status: 302, headers: { location: target.href, 'cache-control': 'no-store', ...headers } })
  }
  return signedOutPage(headers)
}
