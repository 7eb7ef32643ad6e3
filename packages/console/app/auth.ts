// The console as a public OAuth client of the service's own authorization server: the
// authorization code with PKCE S256, redirect back to /console/, tokens kept in memory only
// (a reload signs in again through the server's session), refresh tokens rotated on use.
// Endpoints are discovered, never hard-coded (docs/connecting-a-client.md).

/** `{base_url}`: the console lives at `{base_url}/console/` (the <base> of index.html). */
export const BASE_URL = new URL('..', document.baseURI).href.replace(/\/$/, '')
export const CONSOLE_URL = new URL('.', document.baseURI).href
const CLIENT_ID = 'litho-console'
const PENDING = 'litho-console.pending'

interface Endpoints {
  authorize: string
  token: string
  revoke: string
  logout: string
  resource: string
}

interface Tokens {
  access: string
  refresh: string | null
  expiresAt: number
}

let endpoints: Promise<Endpoints> | undefined
let tokens: Tokens | null = null
let refreshing: Promise<boolean> | undefined
const listeners = new Set<() => void>()

/** Called whenever the signed-in state changes. */
export function onAuthChange(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function signedIn(): boolean {
  return tokens !== null
}

function setTokens(next: Tokens | null): void {
  tokens = next
  for (const listener of listeners) listener()
}

async function json<T>(response: Response, what: string): Promise<T> {
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status}`)
  return (await response.json()) as T
}

function discover(): Promise<Endpoints> {
  return (endpoints ??= (async () => {
    const prm = await json<{ resource: string; authorization_servers: string[] }>(await fetch(`${BASE_URL}/.well-known/oauth-protected-resource`), 'protected-resource metadata')
    const issuer = new URL(prm.authorization_servers[0]!)
    // RFC 8414 §3.1: the well-known segment goes between the host and the issuer's path.
    const meta = await json<Record<string, string>>(await fetch(`${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname.replace(/\/$/, '')}`), 'authorization server metadata')
    return { authorize: meta.authorization_endpoint!, token: meta.token_endpoint!, revoke: meta.revocation_endpoint!, logout: meta.end_session_endpoint!, resource: prm.resource }
  })())
}

function base64url(bytes: Uint8Array): string {
  let text = ''
  for (const byte of bytes) text += String.fromCharCode(byte)
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function randomString(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)))
}

/** Goes to the sign-in page; comes back to `returnTo` (a console path) once signed in. */
export async function signIn(returnTo: string): Promise<void> {
  const ep = await discover()
  const verifier = randomString()
  const state = randomString()
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))))
  // Only the PKCE verifier and state survive the redirect (sessionStorage, this tab); no token does.
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, returnTo }))
  const url = new URL(ep.authorize)
  const params = { client_id: CLIENT_ID, redirect_uri: CONSOLE_URL, response_type: 'code', scope: 'read write', state, code_challenge: challenge, code_challenge_method: 'S256', resource: ep.resource }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  location.assign(url.href)
}

/**
 * Finishes a sign-in when the page is the redirect back (`?code=…&state=…`). Returns the path
 * to show next, or null when this page load is not a redirect back.
 */
export async function completeSignIn(): Promise<string | null> {
  const query = new URLSearchParams(location.search)
  const code = query.get('code')
  const error = query.get('error')
  if (!code && !error) return null
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null') as { verifier: string; state: string; returnTo: string } | null
  sessionStorage.removeItem(PENDING)
  history.replaceState(null, '', CONSOLE_URL)
  if (error) throw new Error(`Sign-in was not completed: ${query.get('error_description') ?? error}`)
  if (!pending || pending.state !== query.get('state')) throw new Error('Sign-in could not be verified (state mismatch). Sign in again.')
  const ep = await discover()
  const body = new URLSearchParams({ grant_type: 'authorization_code', code: code!, redirect_uri: CONSOLE_URL, client_id: CLIENT_ID, code_verifier: pending.verifier, resource: ep.resource })
  await tokenRequest(ep, body)
  return pending.returnTo
}

async function tokenRequest(ep: Endpoints, body: URLSearchParams): Promise<void> {
  const response = await fetch(ep.token, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
  const answer = await json<{ access_token: string; refresh_token?: string; expires_in: number }>(response, 'token endpoint')
  setTokens({ access: answer.access_token, refresh: answer.refresh_token ?? null, expiresAt: Date.now() + answer.expires_in * 1000 })
}

/** Trades the refresh token for new tokens (rotation: the old refresh token is spent). */
function refresh(): Promise<boolean> {
  return (refreshing ??= (async () => {
    try {
      if (!tokens?.refresh) return false
      const ep = await discover()
      await tokenRequest(ep, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh, client_id: CLIENT_ID, resource: ep.resource }))
      return true
    } catch {
      setTokens(null)
      return false
    } finally {
      refreshing = undefined
    }
  })())
}

/** The current access token, refreshed first when it expires within 30 s. */
export async function accessToken(): Promise<string | null> {
  if (tokens && tokens.expiresAt - Date.now() < 30_000) await refresh()
  return tokens?.access ?? null
}

/** A 401 with a token: refresh once; false when signed out. */
export function tokenRejected(): Promise<boolean> {
  return refresh()
}

/** Revokes the refresh token, forgets both tokens and ends the sign-in session (its confirmation page). */
export async function signOut(): Promise<void> {
  const ep = await discover()
  const refreshToken = tokens?.refresh
  setTokens(null)
  if (refreshToken) {
    await fetch(ep.revoke, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: refreshToken, token_type_hint: 'refresh_token', client_id: CLIENT_ID }) }).catch(() => {})
  }
  const url = new URL(ep.logout)
  url.searchParams.set('client_id', CLIENT_ID)
  url.searchParams.set('post_logout_redirect_uri', CONSOLE_URL)
  url.searchParams.set('state', 'signed-out')
  location.assign(url.href)
}
