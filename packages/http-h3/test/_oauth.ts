// Real OAuth tokens from the harness's built-in authorization server (org `acme`): dynamic
// registration, PKCE, sign-in and consent through the plain HTML forms, the code grant.
// Users must be created with PASSWORD: `h.createUser(plan, PASSWORD)`.
import { createHash, randomBytes } from 'node:crypto'
import { expect } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { Browser } from './_browser.js'
import { RENDER_URL, type Harness } from './_harness.js'

/** The password of the users that sign in. */
export const PASSWORD = 'correct horse battery staple'
/** The redirect URI of the clients registered by {@link OAuthHelpers.register}. */
export const REDIRECT = 'http://127.0.0.1:8090/callback'

/** A PKCE pair: a random verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** A form-encoded POST. */
export const form = (fields: Record<string, string>): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) })

/** The tokens of the code grant. */
export interface Tokens {
  access_token: string
  refresh_token: string
  scope: string
}

/** Helpers bound to one harness (given as a getter, so it may be created in `beforeAll`). */
export interface OAuthHelpers {
  /** Calls the app with an absolute URL. */
  fetchApp(url: string, init?: RequestInit): Promise<Response>
  /** The issuer of org `acme`. */
  issuer(): string
  /** Registers a public client (RFC 7591) redirecting to {@link REDIRECT}; `body` overrides fields. */
  register(body?: Record<string, unknown>): Promise<{ client_id: string; client_secret?: string }>
  /** The authorization URL for `clientId`; a `null` param is left out. */
  authorizeUrl(clientId: string, params?: Record<string, string | null>): string
  /** Registers, signs in, consents and redeems: the tokens and what they came from. */
  tokensFor(account: UserRecord, options?: { scope?: string; resource?: string }): Promise<{ client: { client_id: string }; code: string; verifier: string; tokens: Tokens; browser: Browser }>
  /** Just the access token of {@link tokensFor}. */
  accessToken(account: UserRecord, options?: { scope?: string; resource?: string }): Promise<string>
  /** Calls `path` of the API, with `Authorization: Bearer <token>` when a token is given. */
  api(path: string, token?: string, init?: RequestInit): Promise<Response>
  /** A form POST to the token endpoint of `acme`. */
  tokenRequest(fields: Record<string, string>): Promise<Response>
}

/**
 * The OAuth helpers for the harness `harness()` returns (created with `withOAuth`).
 *
 * @example
 * let h: Harness
 * const { accessToken, api } = oauthHelpers(() => h)
 * const token = await accessToken(user, { scope: 'read' })
 * await api('/designs/v2', token)
 */
export function oauthHelpers(harness: () => Harness): OAuthHelpers {
  const fetchApp = async (url: string, init?: RequestInit): Promise<Response> => harness().app.fetch(new Request(url, init))

  async function register(body: Record<string, unknown> = {}): Promise<{ client_id: string; client_secret?: string }> {
    const response = await fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/register?org=acme`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Test client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...body }),
    })
    expect(response.status).toBe(201)
    return (await response.json()) as { client_id: string; client_secret?: string }
  }

  function authorizeUrl(clientId: string, params: Record<string, string | null> = {}): string {
    const url = new URL(`${RENDER_URL}/api/v1/auth/oauth2/authorize`)
    const defaults: Record<string, string> = { client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'read write', state: 'st4te', code_challenge_method: 'S256', resource: RENDER_URL }
    for (const [k, v] of Object.entries({ ...defaults, ...params })) if (v !== null) url.searchParams.set(k, v)
    return url.href
  }

  async function tokensFor(account: UserRecord, options: { scope?: string; resource?: string } = {}) {
    const client = await register()
    const { verifier, challenge } = pkce()
    const browser = new Browser(fetchApp)
    const resource = options.resource ?? RENDER_URL
    const redirect = await browser.authorize(authorizeUrl(client.client_id, { code_challenge: challenge, scope: options.scope ?? 'read write', resource }), { email: account.email, password: PASSWORD })
    expect(redirect.status).toBe(302)
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
    const response = await fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/token?org=acme`, form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.client_id, code_verifier: verifier, resource }))
    expect(response.status).toBe(200)
    const tokens = (await response.json()) as Tokens
    return { client, code, verifier, tokens, browser }
  }

  return {
    fetchApp,
    issuer: () => `${RENDER_URL}/org/acme`,
    register,
    authorizeUrl,
    tokensFor,
    accessToken: async (account, options) => (await tokensFor(account, options)).tokens.access_token,
    api: (path, token, init = {}) => fetchApp(`${RENDER_URL}${path}`, { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string> | undefined) } }),
    tokenRequest: (fields) => fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/token?org=acme`, form(fields)),
  }
}
