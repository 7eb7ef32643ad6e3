/**
 * Litho's built-in OAuth 2.1 authorization server: RFC 8414 metadata per org, RFC 7591
 * registration, the authorization endpoint with its sign-in and consent pages, the token
 * endpoint (authorization code with PKCE S256, refresh-token rotation with reuse detection),
 * RFC 7009 revocation and the JWKS. Web-standard `Request → Response` handlers; the HTTP
 * adapter mounts them at the paths of interface.md. Signing is jose's (ES256), randomness and
 * hashing node:crypto's; codes, refresh tokens, sessions and client secrets are stored hashed.
 *
 * @module oauth/authorization-server
 */
import type { Clock } from '@litho/core/contracts'
import { SignJWT } from 'jose'
import { PasswordHashingBusyError, sharedPasswordPool } from '../password-pool.js'
import { CORS_HEADERS, bodyTooLarge, cookie, jsonResponse, oauthError, preflight, randomToken, readCookie, readForm, readText, safeEqual, sha256 } from './_http.js'
import { Clients, RegistrationError, parseRegistration, redirectUriMatches, registrationResponse } from './clients.js'
import { ORG_ID, Orgs } from './orgs.js'
import { consentPage, errorPage, signedOutPage, signInPage, signOutPage } from './pages.js'
import { seal, unseal } from './sealed.js'
import { SignInLimits } from './sign-in-limits.js'
import { createBuiltInVerifier, type FamilyRecord } from './verify-access-token.js'
import { SCOPES, type AuthorizationServerOptions, type BearerVerifier, type ClientRecord, type OrgRecord, type RequestContext } from './types.js'

/** The paths of the authorization server, relative to `{auth_url}` (interface.md §5). */
export const OAUTH_PATHS = Object.freeze({
  metadata: '/.well-known/oauth-authorization-server/org/:org',
  jwks: '/org/:org/jwks.json',
  register: '/api/v1/auth/oauth2/register',
  authorize: '/api/v1/auth/oauth2/authorize',
  token: '/api/v1/auth/oauth2/token',
  revoke: '/api/v1/auth/oauth2/revoke',
  logout: '/api/v1/auth/oauth2/logout',
})

/** The built-in authorization server. */
export interface AuthorizationServer {
  /** The issuer of org `orgId`: `{auth_url}/org/<orgId>`. */
  issuer(orgId: string): string
  /** Creates org `id` (with its signing keys) unless it exists. Safe on many instances at once. */
  ensureOrg(id: string): Promise<OrgRecord>
  /**
   * The org of this deployment: the first call on a fresh store creates it (id `preferredId`,
   * or a random one); later calls and other instances get the same one (`preferredId` is then
   * ignored).
   */
  ensureDefaultOrg(preferredId?: string): Promise<string>
  /** RFC 8414 metadata of an org (404 for an unknown one). */
  metadata(request: Request, orgId: string): Promise<Response>
  /** The org's public signing keys. */
  jwks(request: Request, orgId: string): Promise<Response>
  /** RFC 7591 dynamic client registration (`?org=`). */
  register(request: Request, context?: RequestContext): Promise<Response>
  /** The authorization endpoint: GET starts, POST carries the sign-in and consent forms. */
  authorize(request: Request, context?: RequestContext): Promise<Response>
  /** The token endpoint (`?org=` optional). */
  token(request: Request, context?: RequestContext): Promise<Response>
  /** RFC 7009 revocation (`?org=` optional). Always 200 for a known client. */
  revoke(request: Request, context?: RequestContext): Promise<Response>
  /**
   * Ends the browser session of the sign-in pages: GET shows a confirmation form, its POST
   * (CSRF-checked) deletes the session and its cookie, then goes back to the sign-in page of a
   * pending request, to a registered `post_logout_redirect_uri` of `client_id`, or to a page.
   */
  logout(request: Request, context?: RequestContext): Promise<Response>
  /**
   * Routes a request whose URL lies under `{auth_url}` to the handler of its path; undefined
   * when no route matches.
   */
  handle(request: Request, context?: RequestContext): Promise<Response | undefined>
  /** Verifies the access tokens this server issues (signature, issuer, audience, expiry, revocation). */
  readonly verifier: BearerVerifier
}

interface CodeRecord {
  clientId: string
  orgId: string
  userId: string
  redirectUri: string
  challenge: string
  resource: string
  scope: string
  expiresAt: string
}

interface PendingRequest {
  clientId: string
  orgId: string
  redirectUri: string
  state: string | null
  challenge: string
  resource: string
  scopes: string[]
  csrfHash: string
}

/** A refresh token as issued (never changed); its use is recorded apart, under `rtu.<hash>`. */
interface RefreshRecord {
  familyId: string
  scope: string
}

/** The first use of a refresh token. */
interface RefreshUse {
  rotatedAt: string
}

/** The longest email an account can have (RFC 3696 errata: 64 + 1 + 255), as the account stores enforce. */
const MAX_EMAIL_LENGTH = 320
const SESSION_COOKIE = 'litho_session'
const CSRF_COOKIE = 'litho_csrf'
const PENDING_TTL_SECONDS = 600
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/
const REFRESH = /^lrt_([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/

const systemClock: Clock = { now: () => new Date() }

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 1) throw Object.assign(new TypeError(`Expected options.${name} to be a whole number ≥ 1 but received ${value}`), { code: 'ERR_INVALID_ARG_VALUE' })
  return value
}

/** Strips one trailing slash, so `https://api.example.com/` and `https://api.example.com` are one resource. */
export function normalizeResource(value: string): string {
  return value.endsWith('/') ? value.slice(0, -1) : value
}

/**
 * Creates the authorization server.
 *
 * @example
 * const oauth = createAuthorizationServer({ authUrl: 'https://auth.example.com', resources: ['https://api.example.com', 'https://api.example.com/api/mcp'], state: fsAuthStateStore({ base: '.litho/auth' }), accounts })
 * const org = await oauth.ensureDefaultOrg()
 * const response = await oauth.handle(request) // in any framework that speaks Request/Response
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): AuthorizationServer {
  if (typeof options?.authUrl !== 'string' || !/^https?:\/\//.test(options.authUrl)) throw Object.assign(new TypeError('Expected options.authUrl to be an http(s) URL'), { code: 'ERR_INVALID_ARG_VALUE' })
  if (!Array.isArray(options.resources) || options.resources.length === 0) throw Object.assign(new TypeError('Expected options.resources to list at least one resource URL'), { code: 'ERR_INVALID_ARG_VALUE' })
  const authUrl = normalizeResource(options.authUrl)
  const authPath = new URL(authUrl).pathname.replace(/\/$/, '')
  const resources = options.resources.map(normalizeResource)
  const { state, accounts, meter } = options
  const clock = options.clock ?? systemClock
  const now = () => clock.now()
  const accessTtl = positive('accessTokenTtlSeconds', options.accessTokenTtlSeconds, 3600)
  const codeTtl = positive('codeTtlSeconds', options.codeTtlSeconds, 60)
  if (codeTtl > 600) throw Object.assign(new TypeError('Expected options.codeTtlSeconds to be at most 600 (RFC 6749 §4.1.2)'), { code: 'ERR_INVALID_ARG_VALUE' })
  const refreshTtl = positive('refreshTokenTtlSeconds', options.refreshTokenTtlSeconds, 30 * 86400)
  const graceSeconds = options.refreshGraceSeconds ?? 60
  const sessionTtl = positive('sessionTtlSeconds', options.sessionTtlSeconds, 8 * 3600)
  const signInLimits = new SignInLimits({
    meter,
    state,
    now,
    perPair: positive('signInAttempts', options.signInAttempts, 10),
    perAddress: positive('signInsPerAddress', options.signInsPerAddress, 60),
    perAccount: positive('signInsPerAccount', options.signInsPerAccount, 100),
  })
  const passwords = options.passwordVerifier ?? sharedPasswordPool()
  const registrationsPerHour = positive('registrationsPerHour', options.registrationsPerHour, 30)
  const secure = options.secureCookies ?? authUrl.startsWith('https://')
  const cookiePath = `${authPath}/api/v1/auth/oauth2`
  const report = options.onError ?? ((error: unknown) => console.error('[litho oauth]', error))
  const orgs = new Orgs(state, now)
  const clients = new Clients({ state, configured: options.clients ?? [], fetchMetadata: options.fetchClientMetadata, clientTtlSeconds: positive('clientTtlSeconds', options.clientTtlSeconds, 90 * 86400), now })
  let defaultOrg: string | undefined

  const issuer = (orgId: string) => `${authUrl}/org/${orgId}`
  const endpoint = (path: string, orgId?: string) => `${authUrl}${path}${orgId ? `?org=${encodeURIComponent(orgId)}` : ''}`
  const verifier = createBuiltInVerifier({ authUrl, orgs, state, now })

  /** The fixed window of a rate limit containing now. */
  function rateWindow(windowSeconds: number) {
    const at = now()
    const index = Math.floor(at.getTime() / (windowSeconds * 1000))
    return { at, window: `rl${windowSeconds}.${index}`, expiresAt: new Date((index + 1) * windowSeconds * 1000) }
  }

  /** Counts one attempt against a limit per window; false when over. Without a meter, no limit. */
  async function withinLimit(subject: string, limit: number, windowSeconds: number): Promise<boolean> {
    if (!meter) return true
    const { at, window, expiresAt } = rateWindow(windowSeconds)
    return (await meter.consume({ subject, window, amount: 1, limit, id: randomToken(12), expiresAt, at })).granted
  }

  async function orgFromQuery(url: URL): Promise<{ orgId: string } | { error: Response }> {
    const requested = url.searchParams.get('org')
    const orgId = requested ?? defaultOrg
    if (!orgId) return { error: oauthError('invalid_request', 'org: this server has several orgs; add ?org=<org_id>') }
    if (!(await orgs.get(orgId))) return { error: oauthError('invalid_request', `org: unknown org ${JSON.stringify(orgId)}`, 404) }
    return { orgId }
  }

  /** Authenticates the client of a token or revocation request (RFC 6749 §2.3). */
  async function authenticateClient(request: Request, form: URLSearchParams): Promise<{ client: ClientRecord } | { error: Response }> {
    let clientId = form.get('client_id') ?? undefined
    let secret = form.get('client_secret') ?? undefined
    const header = request.headers.get('authorization')
    if (header?.toLowerCase().startsWith('basic ')) {
      const credentials = parseBasic(header.slice(6).trim())
      if (!credentials) return { error: oauthError('invalid_client', 'The Basic credentials are malformed (RFC 6749 §2.3.1: base64 of url-encoded client_id ":" client_secret)', 401, { 'www-authenticate': 'Basic' }) }
      if (clientId !== undefined && clientId !== credentials.id) return { error: oauthError('invalid_request', 'client_id differs from the Basic credentials') }
      clientId = credentials.id
      secret = credentials.secret
    }
    if (!clientId) return { error: oauthError('invalid_client', 'client_id is required', 401) }
    const client = await clients.find(clientId)
    // 401 invalid_client for an unknown id tells hosts (Claude, the MCP SDK) to register again.
    if (!client) return { error: oauthError('invalid_client', 'Unknown client_id; register the client again', 401) }
    if (client.tokenEndpointAuthMethod !== 'none' && !Clients.checkSecret(client, secret)) return { error: oauthError('invalid_client', 'Client authentication failed', 401, header ? { 'www-authenticate': 'Basic' } : {}) }
    return { client }
  }

  /** The common start of the token and revocation endpoints: a form POST from an authenticated client. */
  async function readClientRequest(request: Request): Promise<Response | { client: ClientRecord; form: URLSearchParams }> {
    if (request.method === 'OPTIONS') return preflight()
    if (request.method !== 'POST') return oauthError('invalid_request', 'Use POST', 405, { allow: 'POST, OPTIONS' })
    const form = await readForm(request).catch(bodyTooLarge)
    if (form instanceof Response) return form
    if (!form) return oauthError('invalid_request', 'The body must be application/x-www-form-urlencoded')
    const authenticated = await authenticateClient(request, form)
    return 'error' in authenticated ? authenticated.error : { client: authenticated.client, form }
  }

  async function revokeFamily(familyId: string): Promise<void> {
    const family = (await state.get(`family.${familyId}`)) as FamilyRecord | null
    if (family && !family.revoked) {
      const ttl = Math.max(1, Math.ceil((Date.parse(family.expiresAt) - now().getTime()) / 1000))
      await state.set(`family.${familyId}`, { ...family, revoked: true }, { ttlSeconds: ttl })
    }
  }

  async function issueTokens(family: FamilyRecord & { id: string }, client: ClientRecord, scope: string): Promise<Record<string, unknown>> {
    const issuedAt = now()
    const iat = Math.floor(issuedAt.getTime() / 1000)
    const [key] = await orgs.keys(family.orgId)
    if (!key) throw new Error(`org ${family.orgId} has no signing key`)
    const accessToken = await new SignJWT({ client_id: client.clientId, scope, org: family.orgId, sid: family.id })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
      .setIssuer(issuer(family.orgId))
      .setAudience(family.resource)
      .setSubject(family.userId)
      .setJti(randomToken(16))
      .setIssuedAt(iat)
      .setExpirationTime(iat + accessTtl)
      .sign(key.privateKey)
    const body: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: accessTtl, scope }
    const familyLeft = Math.floor((Date.parse(family.expiresAt) - issuedAt.getTime()) / 1000)
    if (client.grantTypes.includes('refresh_token') && familyLeft > 0) {
      const refreshToken = `lrt_${family.id}.${randomToken(32)}`
      await state.set(`rt.${sha256(refreshToken)}`, { familyId: family.id, scope } satisfies RefreshRecord, { ttlSeconds: familyLeft })
      body.refresh_token = refreshToken
    }
    return body
  }

  function tokenResponse(body: Record<string, unknown>): Response {
    return jsonResponse(body, 200, { ...CORS_HEADERS, 'cache-control': 'no-store', pragma: 'no-cache' })
  }

  function redirectWith(pending: Pick<PendingRequest, 'redirectUri' | 'state' | 'orgId'>, params: Record<string, string>, headers: Record<string, string> = {}): Response {
    const url = new URL(pending.redirectUri)
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
    if (pending.state !== null) url.searchParams.set('state', pending.state)
    url.searchParams.set('iss', issuer(pending.orgId))
    return new Response(null, { status: 302, headers: { location: url.href, 'cache-control': 'no-store', ...headers } })
  }

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

  async function currentSession(request: Request): Promise<{ userId: string } | null> {
    const token = readCookie(request, SESSION_COOKIE)
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null
    const session = (await state.get(`session.${sha256(token)}`)) as { userId: string } | null
    if (!session) return null
    const user = await accounts.getUser(session.userId)
    return user ? session : null
  }

  async function showConsent(requestId: string, pending: PendingRequest, csrf: string, userId: string, headers: Record<string, string> = {}): Promise<Response> {
    const [client, user] = await Promise.all([clients.find(pending.clientId), accounts.getUser(userId)])
    if (!client || !user) return errorPage('Sign-in failed', 'The client or your account no longer exists.')
    return consentPage({ action: endpoint(OAUTH_PATHS.authorize), signOutAction: endpoint(OAUTH_PATHS.logout), requestId, csrf, clientName: client.clientName, redirectHost: redirectHost(pending.redirectUri), scopes: pending.scopes, email: user.email, headers })
  }

  async function startAuthorization(request: Request, url: URL): Promise<Response> {
    const q = url.searchParams
    const clientId = q.get('client_id')
    // The client and its redirect URI are checked before anything else: until both are known
    // good, every error is a page, never a redirect (RFC 9700 §4.1, no open redirector).
    if (!clientId) return errorPage('Invalid request', 'client_id is missing.')
    const client = await clients.find(clientId)
    if (!client) return errorPage('Unknown client', 'This application is not registered here (unknown client_id). Ask it to register again.')
    const requestedOrg = q.get('org')
    if (requestedOrg !== null && client.orgId !== null && requestedOrg !== client.orgId) return errorPage('Invalid request', 'The org does not match the client.')
    const orgId = client.orgId ?? requestedOrg ?? defaultOrg
    if (!orgId || !(await orgs.get(orgId))) return errorPage('Invalid request', 'Unknown org.')
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
      const redirect = redirectWith(base, { error, error_description: description })
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
    const resource = resourceParams.length === 1 ? normalizeResource(resourceParams[0]!) : resources[0]!
    if (!resources.includes(resource)) return fail('invalid_target', `resource must be one of ${resources.join(', ')}`)
    const scoped = parseScopes(q.get('scope'), client)
    if ('error' in scoped) return fail('invalid_scope', scoped.error)

    const session = await currentSession(request)
    const prompt = q.get('prompt')
    if (prompt === 'none') return fail(session ? 'consent_required' : 'login_required', session ? 'consent is required' : 'the user is not signed in')
    const csrf = randomToken()
    const requestId = randomToken(18)
    await state.set(`areq.${requestId}`, { ...base, clientId: client.clientId, challenge, resource, scopes: scoped.scopes, csrfHash: sha256(csrf) } satisfies PendingRequest, { ttlSeconds: PENDING_TTL_SECONDS })
    const headers = { 'set-cookie': cookie(CSRF_COOKIE, csrf, { path: cookiePath, maxAgeSeconds: PENDING_TTL_SECONDS, secure }) }
    if (session) return showConsent(requestId, { ...base, clientId: client.clientId, challenge, resource, scopes: scoped.scopes, csrfHash: '' }, csrf, session.userId, headers)
    return signInPage({ action: endpoint(OAUTH_PATHS.authorize), requestId, csrf, clientName: client.clientName, headers })
  }

  async function continueAuthorization(request: Request, context: RequestContext): Promise<Response> {
    const form = await readForm(request).catch(bodyTooLarge)
    if (form instanceof Response) return form
    if (!form) return errorPage('Invalid request', 'Expected a form submission.')
    const requestId = form.get('request_id') ?? ''
    const csrf = form.get('csrf') ?? ''
    const pending = /^[A-Za-z0-9_-]{24}$/.test(requestId) ? ((await state.get(`areq.${requestId}`)) as PendingRequest | null) : null
    // A used request is kept as { used: true } (see the consent step): the same page as an expired one.
    if (!pending || (pending as { used?: boolean }).used) return errorPage('Sign-in expired', 'This sign-in took too long or was already used. Start again from the application.')
    // Double-submit: the form's token must be the cookie's, and the one this request was made with.
    const cookieCsrf = readCookie(request, CSRF_COOKIE) ?? ''
    if (!csrf || !safeEqual(csrf, cookieCsrf) || !safeEqual(sha256(csrf), pending.csrfHash)) return errorPage('Invalid request', 'The form could not be verified (CSRF). Start again from the application.', 403)
    const client = await clients.find(pending.clientId)
    if (!client) return errorPage('Unknown client', 'This application is no longer registered.')

    if (form.get('step') === 'sign-in') {
      const email = (form.get('email') ?? '').trim().toLowerCase()
      const password = form.get('password') ?? ''
      const again = (error: string, status: number, headers?: Record<string, string>) => signInPage({ action: endpoint(OAUTH_PATHS.authorize), requestId, csrf, clientName: client.clientName, email, error, status, ...(headers ? { headers } : {}) })
      if (!email || !password) return again('Enter your email and password.', 400)
      // The account store refuses (throws on) a longer email, which would be a 500; no account has one.
      if (email.length > MAX_EMAIL_LENGTH) return signInPage({ action: endpoint(OAUTH_PATHS.authorize), requestId, csrf, clientName: client.clientName, error: `Enter an email address of at most ${MAX_EMAIL_LENGTH} characters.`, status: 400 })
      // A full pool is refused first, before any lookup or counter: the cheapest answer to a flood.
      const busyFor = passwords.retryAfter?.()
      if (busyFor !== undefined) return again('The server is busy signing other people in. Try again in a few seconds.', 503, { 'retry-after': String(busyFor) })
      // Charged before hashing, atomically: N simultaneous attempts hash at most the limit.
      const charged = await signInLimits.charge(email, context.clientAddress)
      if ('retryAfterSeconds' in charged) {
        const wait = charged.retryAfterSeconds
        return again(`Too many sign-in attempts. Try again in ${wait < 120 ? `${wait} seconds` : `${Math.ceil(wait / 60)} minutes`}.`, 429, { 'retry-after': String(wait) })
      }
      const user = await accounts.findUserByEmail(email)
      let ok: boolean
      try {
        // Hash even for an unknown email, so timing does not tell which emails have accounts.
        ok = await passwords.verify(password, user ? user.passwordHash : DUMMY_HASH)
      } catch (error) {
        if (!(error instanceof PasswordHashingBusyError)) throw error
        await signInLimits.release(charged.charge)
        return again('The server is busy signing other people in. Try again in a few seconds.', 503, { 'retry-after': String(error.retryAfterSeconds) })
      }
      if (!user || !ok) {
        await signInLimits.failed(charged.charge)
        return again('Wrong email or password.', 401)
      }
      await signInLimits.succeeded(charged.charge)
      const sessionToken = randomToken()
      await state.set(`session.${sha256(sessionToken)}`, { userId: user.id, createdAt: now().toISOString() }, { ttlSeconds: sessionTtl })
      return showConsent(requestId, pending, csrf, user.id, { 'set-cookie': cookie(SESSION_COOKIE, sessionToken, { path: cookiePath, maxAgeSeconds: sessionTtl, secure }) })
    }

    if (form.get('step') === 'consent') {
      const session = await currentSession(request)
      if (!session) return signInPage({ action: endpoint(OAUTH_PATHS.authorize), requestId, csrf, clientName: client.clientName, error: 'Your session ended; sign in again.', status: 401 })
      // The pending request is used once, whatever the decision.
      const previous = (await state.swap(`areq.${requestId}`, { used: true }, { ttlSeconds: PENDING_TTL_SECONDS })) as (PendingRequest & { used?: boolean }) | null
      if (!previous || previous.used) return errorPage('Sign-in expired', 'This sign-in was already used. Start again from the application.')
      if (form.get('decision') !== 'allow') return redirectWith(pending, { error: 'access_denied', error_description: 'The user denied access' })
      const code = randomToken()
      const record: CodeRecord = {
        clientId: pending.clientId,
        orgId: pending.orgId,
        userId: session.userId,
        redirectUri: pending.redirectUri,
        challenge: pending.challenge,
        resource: pending.resource,
        scope: pending.scopes.join(' '),
        expiresAt: new Date(now().getTime() + codeTtl * 1000).toISOString(),
      }
      // Kept past its lifetime so that a replay is recognised (and revokes what it issued).
      await state.set(`code.${sha256(code)}`, record, { ttlSeconds: 600 })
      await clients.touch(client)
      return redirectWith(pending, { code })
    }
    return errorPage('Invalid request', 'Unknown form step.')
  }

  async function authorizationCodeGrant(form: URLSearchParams, client: ClientRecord): Promise<Response> {
    const code = form.get('code')
    if (!code) return oauthError('invalid_request', 'code is required')
    const codeHash = sha256(code)
    // Read and invalidate in one step: of two concurrent redemptions exactly one sees the code.
    const previous = (await state.swap(`code.${codeHash}`, { used: true }, { ttlSeconds: 600 })) as (CodeRecord & { used?: boolean }) | null
    const familyId = sha256(`family:${codeHash}`).slice(0, 22)
    if (!previous) return oauthError('invalid_grant', 'The code is unknown or expired')
    if (previous.used) {
      await revokeFamily(familyId)
      return oauthError('invalid_grant', 'The code was already used; the tokens issued for it are revoked')
    }
    if (Date.parse(previous.expiresAt) <= now().getTime()) return oauthError('invalid_grant', 'The code has expired')
    if (previous.clientId !== client.clientId) return oauthError('invalid_grant', 'The code was issued to another client')
    if (form.get('redirect_uri') !== previous.redirectUri) return oauthError('invalid_grant', 'redirect_uri differs from the one of the authorization request')
    const verifierValue = form.get('code_verifier')
    if (!verifierValue) return oauthError('invalid_request', 'code_verifier is required (PKCE)')
    if (!VERIFIER.test(verifierValue) || !safeEqual(sha256(verifierValue), previous.challenge)) return oauthError('invalid_grant', 'code_verifier does not match the code_challenge')
    const resource = form.get('resource')
    if (resource !== null && normalizeResource(resource) !== previous.resource) return oauthError('invalid_target', `resource must be the one authorized: ${previous.resource}`)
    const family: FamilyRecord = {
      userId: previous.userId,
      clientId: client.clientId,
      orgId: previous.orgId,
      resource: previous.resource,
      scope: previous.scope,
      revoked: false,
      expiresAt: new Date(now().getTime() + refreshTtl * 1000).toISOString(),
    }
    await state.set(`family.${familyId}`, family, { ttlSeconds: refreshTtl })
    return tokenResponse(await issueTokens({ ...family, id: familyId }, client, previous.scope))
  }

  async function refreshTokenGrant(form: URLSearchParams, client: ClientRecord): Promise<Response> {
    const token = form.get('refresh_token')
    if (!token) return oauthError('invalid_request', 'refresh_token is required')
    const match = REFRESH.exec(token)
    if (!match) return oauthError('invalid_grant', 'The refresh token is unknown')
    const familyId = match[1]!
    const family = (await state.get(`family.${familyId}`)) as FamilyRecord | null
    if (!family || family.revoked || Date.parse(family.expiresAt) <= now().getTime()) return oauthError('invalid_grant', 'The refresh token is revoked or expired')
    if (family.clientId !== client.clientId) return oauthError('invalid_grant', 'The refresh token was issued to another client')
    const hash = sha256(token)
    const record = (await state.get(`rt.${hash}`)) as RefreshRecord | null
    if (!record || record.familyId !== familyId) return oauthError('invalid_grant', 'The refresh token is unknown')
    // Checked before the token is used, so a bad request does not spend it.
    let grantedScope = record.scope
    const requestedScope = form.get('scope')
    if (requestedScope !== null) {
      const asked = requestedScope.split(' ').filter((s) => s && s !== 'offline_access')
      const held = record.scope.split(' ')
      if (asked.length === 0 || asked.some((s) => !held.includes(s))) return oauthError('invalid_scope', `scope may only narrow the granted scope (${record.scope})`)
      grantedScope = SCOPES.filter((s) => asked.includes(s)).join(' ')
    }
    const resource = form.get('resource')
    if (resource !== null && normalizeResource(resource) !== family.resource) return oauthError('invalid_target', `resource must be the one authorized: ${family.resource}`)
    const ttl = Math.max(1, Math.floor((Date.parse(family.expiresAt) - now().getTime()) / 1000))
    const rotatedAt = now()
    // Rotation: record the first use and learn whether there was one, in one step.
    const previous = (await state.swap(`rtu.${hash}`, { rotatedAt: rotatedAt.toISOString() } satisfies RefreshUse, { ttlSeconds: ttl })) as RefreshUse | null
    if (previous !== null) {
      // Keep the first rotation time, so repeated reuse cannot stretch the grace window.
      await state.set(`rtu.${hash}`, previous, { ttlSeconds: ttl })
      const age = (rotatedAt.getTime() - Date.parse(previous.rotatedAt)) / 1000
      if (!(age <= graceSeconds)) {
        await revokeFamily(familyId)
        return oauthError('invalid_grant', 'The refresh token was already used; every token of this sign-in is revoked')
      }
      // A concurrent refresh of the same token (hosts do this): the very pair the first use got,
      // so the family never forks. The winner may still be signing it: wait a moment.
      for (let waited = 0; waited <= 5_000; waited += 50) {
        const successor = unseal(token, await state.get(`rts.${hash}`))
        if (successor) return tokenResponse(successor as Record<string, unknown>)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      return oauthError('temporarily_unavailable', 'The refresh token is being rotated by another request; try again in a moment', 503, { 'retry-after': '1' })
    }
    const body = await issueTokens({ ...family, id: familyId }, client, grantedScope)
    // Sealed under the token just spent: readable only by whoever presents it again in the window.
    await state.set(`rts.${hash}`, seal(token, body), { ttlSeconds: Math.max(1, Math.min(graceSeconds, ttl)) })
    return tokenResponse(body)
  }

  const server: AuthorizationServer = {
    issuer,
    ensureOrg: (id) => orgs.ensure(id),
    async ensureDefaultOrg(preferredId) {
      // Known after the first call: protected-resource metadata asks on every request.
      if (defaultOrg !== undefined) return defaultOrg
      const candidate = preferredId ?? `org_${randomToken(9)}`
      if (!ORG_ID.test(candidate)) throw Object.assign(new TypeError(`Expected an org id of 1-64 letters, digits, "_" or "-" but received ${JSON.stringify(candidate)}`), { code: 'ERR_INVALID_ARG_VALUE' })
      await state.add('meta.default-org', candidate)
      const id = (await state.get('meta.default-org')) as string
      await orgs.ensure(id)
      defaultOrg = id
      return id
    },

    async metadata(request, orgId) {
      if (request.method === 'OPTIONS') return preflight()
      if (!(await orgs.get(orgId))) return jsonResponse({ error: 'not_found', error_description: `unknown org ${JSON.stringify(orgId)}` }, 404, { ...CORS_HEADERS })
      const registration = endpoint(OAUTH_PATHS.register, orgId)
      const revocation = endpoint(OAUTH_PATHS.revoke, orgId)
      const authorization = endpoint(OAUTH_PATHS.authorize)
      return jsonResponse(
        {
          issuer: issuer(orgId),
          // Without ?org=: some clients append "?…" by string concatenation; the org comes from the client.
          authorization_endpoint: authorization,
          token_endpoint: endpoint(OAUTH_PATHS.token, orgId),
          registration_endpoint: registration,
          revocation_endpoint: revocation,
          // OpenID Connect RP-Initiated Logout's name for where a browser session ends.
          end_session_endpoint: endpoint(OAUTH_PATHS.logout),
          jwks_uri: `${issuer(orgId)}/jwks.json`,
          response_types_supported: ['code'],
          response_modes_supported: ['query'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
          revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
          scopes_supported: [...SCOPES],
          authorization_response_iss_parameter_supported: true,
          client_id_metadata_document_supported: clients.metadataDocuments,
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
    },

    async jwks(request, orgId) {
      if (request.method === 'OPTIONS') return preflight()
      const keys = await orgs.keys(orgId)
      if (keys.length === 0) return jsonResponse({ error: 'not_found', error_description: `unknown org ${JSON.stringify(orgId)}` }, 404, { ...CORS_HEADERS })
      return jsonResponse({ keys: keys.map((k) => k.publicJwk) }, 200, { ...CORS_HEADERS, 'cache-control': 'public, max-age=300' })
    },

    async register(request, context = {}) {
      if (request.method === 'OPTIONS') return preflight()
      if (request.method !== 'POST') return oauthError('invalid_request', 'Use POST with a JSON body', 405, { allow: 'POST, OPTIONS' })
      const org = await orgFromQuery(new URL(request.url))
      if ('error' in org) return org.error
      if (context.clientAddress !== undefined && !(await withinLimit(`register.${sha256(context.clientAddress).slice(0, 32)}`, registrationsPerHour, 3600)))
        return oauthError('invalid_request', 'Too many registrations from this address; try again in an hour', 429, { 'retry-after': '3600' })
      if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) return oauthError('invalid_client_metadata', 'The body must be JSON (Content-Type: application/json)')
      const text = await readText(request).catch(bodyTooLarge)
      if (text instanceof Response) return text
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        return oauthError('invalid_client_metadata', 'The body is not valid JSON')
      }
      try {
        const metadata = parseRegistration(body, SCOPES)
        const { client, secret } = await clients.register(org.orgId, metadata, now())
        return jsonResponse(registrationResponse(client, secret), 201, { ...CORS_HEADERS, 'cache-control': 'no-store' })
      } catch (error) {
        if (error instanceof RegistrationError) return oauthError(error.error, error.message)
        throw error
      }
    },

    async authorize(request, context = {}) {
      const url = new URL(request.url)
      if (request.method === 'GET') return startAuthorization(request, url)
      if (request.method === 'POST') return continueAuthorization(request, context)
      return errorPage('Method not allowed', 'Use GET (or the forms of these pages).', 405)
    },

    async token(request) {
      const authenticated = await readClientRequest(request)
      if (authenticated instanceof Response) return authenticated
      const { client, form } = authenticated
      const requestedOrg = new URL(request.url).searchParams.get('org')
      if (requestedOrg !== null && client.orgId !== null && requestedOrg !== client.orgId) return oauthError('invalid_client', 'The client belongs to another org', 401)
      const grantType = form.get('grant_type')
      if (!grantType) return oauthError('invalid_request', 'grant_type is required')
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') return oauthError('unsupported_grant_type', `grant_type ${JSON.stringify(grantType)} is not supported (authorization_code, refresh_token)`)
      if (!client.grantTypes.includes(grantType)) return oauthError('unauthorized_client', `The client may not use grant_type ${JSON.stringify(grantType)}`)
      return grantType === 'authorization_code' ? authorizationCodeGrant(form, client) : refreshTokenGrant(form, client)
    },

    async revoke(request) {
      const authenticated = await readClientRequest(request)
      if (authenticated instanceof Response) return authenticated
      const { form } = authenticated
      const token = form.get('token')
      if (!token) return oauthError('invalid_request', 'token is required')
      const refresh = REFRESH.exec(token)
      let familyId: string | undefined
      if (refresh) {
        const record = (await state.get(`rt.${sha256(token)}`)) as RefreshRecord | null
        if (record?.familyId === refresh[1]) familyId = refresh[1]
      } else {
        familyId = (await verifier.familyOf(token).catch(() => undefined)) ?? undefined
      }
      if (familyId) {
        const family = (await state.get(`family.${familyId}`)) as FamilyRecord | null
        // RFC 7009 §2.1: a token of another client is not revoked (and the answer does not say so).
        if (family && family.clientId === authenticated.client.clientId) await revokeFamily(familyId)
      }
      return new Response(null, { status: 200, headers: { ...CORS_HEADERS, 'cache-control': 'no-store' } })
    },

    async logout(request) {
      const url = new URL(request.url)
      if (request.method === 'GET') {
        // Never sign out on a GET (a link or an <img> could do it): show the form.
        const csrf = randomToken()
        const returnTo = url.searchParams.get('post_logout_redirect_uri')
        return signOutPage({
          action: endpoint(OAUTH_PATHS.logout),
          csrf,
          fields: { client_id: url.searchParams.get('client_id') ?? '', post_logout_redirect_uri: returnTo ?? '', state: url.searchParams.get('state') ?? '' },
          headers: { 'set-cookie': cookie(CSRF_COOKIE, csrf, { path: cookiePath, maxAgeSeconds: PENDING_TTL_SECONDS, secure }) },
        })
      }
      if (request.method !== 'POST') return errorPage('Method not allowed', 'Use GET (or the form of the sign-out page).', 405)
      const form = await readForm(request).catch(bodyTooLarge)
      if (form instanceof Response) return form
      if (!form) return errorPage('Invalid request', 'Expected a form submission.')
      // Double-submit: only a page of this server (which set the cookie) can post a matching token.
      const csrf = form.get('csrf') ?? ''
      if (!csrf || !safeEqual(csrf, readCookie(request, CSRF_COOKIE) ?? '')) return errorPage('Invalid request', 'The form could not be verified (CSRF). Open the sign-out page again.', 403)
      const token = readCookie(request, SESSION_COOKIE)
      if (token && /^[A-Za-z0-9_-]{43}$/.test(token)) await state.delete(`session.${sha256(token)}`)
      const headers = { 'set-cookie': cookie(SESSION_COOKIE, '', { path: cookiePath, maxAgeSeconds: 0, secure }) }
      // From the consent page ("Not you?"): back to the sign-in page of the same request.
      const requestId = form.get('request_id') ?? ''
      const pending = /^[A-Za-z0-9_-]{24}$/.test(requestId) ? ((await state.get(`areq.${requestId}`)) as (PendingRequest & { used?: boolean }) | null) : null
      if (pending && !pending.used && safeEqual(sha256(csrf), pending.csrfHash)) {
        const client = await clients.find(pending.clientId)
        if (client) return signInPage({ action: endpoint(OAUTH_PATHS.authorize), requestId, csrf, clientName: client.clientName, headers })
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
    },

    async handle(request, context = {}) {
      const url = new URL(request.url)
      if (!url.pathname.startsWith(`${authPath}/`)) return undefined
      const path = url.pathname.slice(authPath.length)
      try {
        const metadataMatch = /^\/\.well-known\/oauth-authorization-server\/org\/([^/]+)$/.exec(path)
        if (metadataMatch) {
          const org = decodeOrg(metadataMatch[1]!)
          return org === undefined ? malformedOrg() : await server.metadata(request, org)
        }
        const jwksMatch = /^\/org\/([^/]+)\/jwks\.json$/.exec(path)
        if (jwksMatch) {
          const org = decodeOrg(jwksMatch[1]!)
          return org === undefined ? malformedOrg() : await server.jwks(request, org)
        }
        if (path === OAUTH_PATHS.register) return await server.register(request, context)
        if (path === OAUTH_PATHS.authorize) return await server.authorize(request, context)
        if (path === OAUTH_PATHS.token) return await server.token(request, context)
        if (path === OAUTH_PATHS.revoke) return await server.revoke(request, context)
        if (path === OAUTH_PATHS.logout) return await server.logout(request, context)
        return undefined
      } catch (error) {
        report(error)
        if (path === OAUTH_PATHS.authorize || path === OAUTH_PATHS.logout) return errorPage('Something went wrong', 'The server could not complete this step. Try again in a moment.', 500)
        return oauthError('server_error', 'The server could not complete the request; try again', 500)
      }
    },

    verifier,
  }
  return server
}

/** The org segment of a path, decoded; `undefined` when its percent-encoding is malformed (`%ZZ`). */
function decodeOrg(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** A client error, not a server error (it was a 500): no org can have a name that does not decode. */
function malformedOrg(): Response {
  return oauthError('invalid_request', 'The org in the path is not valid percent-encoding (% and two hex digits, UTF-8)', 400)
}

function redirectHost(uri: string): string {
  try {
    const url = new URL(uri)
    return url.host || `${url.protocol}${url.pathname}`
  } catch {
    return uri
  }
}

// A valid scrypt hash of a random password: verifying against it costs what a real check costs.
const DUMMY_HASH = 'scrypt$N=131072,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'

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
