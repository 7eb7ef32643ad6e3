// The built-in authorization server end to end (docs/authentication.md, docs/security.md#oauth):
// oauth4webapi, an independent certified client, does discovery, registration, the real
// sign-in and consent forms, the code grant, API calls, refresh and revocation; then every
// negative case, through raw requests.
import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { Browser } from './_browser.js'
import { RENDER_URL, createHarness, type Harness } from './_harness.js'
import { PASSWORD, REDIRECT, form, oauthHelpers, pkce } from './_oauth.js'

let h: Harness
let user: UserRecord
let other: UserRecord
let otherDesign: string

beforeAll(async () => {
  h = await createHarness({ withOAuth: { clients: [{ clientId: 'configured-app', clientName: 'Configured app', redirectUris: [REDIRECT] }] } })
  user = await h.createUser('pro', PASSWORD)
  other = await h.createUser('free', PASSWORD)
  await h.createDesign(user)
  await h.createDesign(other)
  otherDesign = (await h.designs.listByOwner(other.id, { offset: 0, limit: 1 })).items[0]!.id
})
afterAll(() => h.close())

const { fetchApp, issuer, register, authorizeUrl, tokensFor, api, tokenRequest } = oauthHelpers(() => h)
const opts = () => ({ [oauth.customFetch]: (url: string, init: RequestInit) => fetchApp(url, init), [oauth.allowInsecureRequests]: true }) as const

describe('with oauth4webapi, an independent client', () => {
  it('discovers, registers, signs in, consents, calls the API, refreshes and revokes', async () => {
    const resource = new URL(RENDER_URL)
    const rs = await oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, opts()))
    expect(rs.authorization_servers).toEqual([issuer()])
    expect(rs.scopes_supported).toEqual(['read', 'write'])
    const as = await oauth.processDiscoveryResponse(new URL(issuer()), await oauth.discoveryRequest(new URL(issuer()), { ...opts(), algorithm: 'oauth2' }))
    expect(as.code_challenge_methods_supported).toEqual(['S256'])
    expect(as.authorization_response_iss_parameter_supported).toBe(true)
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { client_name: 'oauth4webapi', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }, opts()),
    )
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = new URL(as.authorization_endpoint!)
    for (const [k, v] of Object.entries({ client_id: client.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'read write', resource: RENDER_URL, state, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })) url.searchParams.set(k, v)
    const redirect = await new Browser(fetchApp).authorize(url.href, { email: user.email, password: PASSWORD })
    expect(redirect.status).toBe(302)
    const params = oauth.validateAuthResponse(as, client, new URL(redirect.headers.get('location')!), state)
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, { ...opts(), additionalParameters: { resource: RENDER_URL } }),
    )
    expect(tokens.token_type).toBe('bearer')
    expect(tokens.expires_in).toBe(3600)
    expect(tokens.scope).toBe('read write')
    // RFC 9068: typ at+jwt, iss, exp, aud, sub, iat, jti, client_id.
    const claims = await oauth.validateJwtAccessToken(as, new Request(`${RENDER_URL}/designs/v2`, { headers: { authorization: `Bearer ${tokens.access_token}` } }), RENDER_URL, { ...opts(), [oauth.clockSkew]: Math.round((h.clock.now().getTime() - Date.now()) / 1000) })
    expect(claims).toMatchObject({ iss: issuer(), aud: RENDER_URL, sub: user.id, client_id: client.client_id, scope: 'read write', org: 'acme' })

    const list = await api('/designs/v2', tokens.access_token)
    expect(list.status).toBe(200)
    expect(((await list.json()) as { docs: unknown[] }).docs).toHaveLength(1)

    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, opts()))
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    expect((await api('/designs/v2', refreshed.access_token)).status).toBe(200)

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, opts()))
    const again = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshed.refresh_token!, client_id: client.client_id })
    expect(again.status).toBe(400)
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' })
    // Revocation takes the whole sign-in: its access tokens stop working at once.
    expect((await api('/designs/v2', refreshed.access_token)).status).toBe(401)
  })
})

describe('metadata', () => {
  it('serves RFC 8414 metadata per org with the agent_auth block, and 404 for an unknown org', async () => {
    const response = await fetchApp(`${RENDER_URL}/.well-known/oauth-authorization-server/org/acme`)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const metadata = (await response.json()) as Record<string, unknown>
    expect(metadata).toMatchObject({
      issuer: issuer(),
      authorization_endpoint: `${RENDER_URL}/api/v1/auth/oauth2/authorize`,
      token_endpoint: `${RENDER_URL}/api/v1/auth/oauth2/token?org=acme`,
      registration_endpoint: `${RENDER_URL}/api/v1/auth/oauth2/register?org=acme`,
      revocation_endpoint: `${RENDER_URL}/api/v1/auth/oauth2/revoke?org=acme`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['read', 'write'],
      agent_auth: { identity_types_supported: ['anonymous'], register_uri: `${RENDER_URL}/api/v1/auth/oauth2/register?org=acme`, claim_uri: `${RENDER_URL}/api/v1/auth/oauth2/authorize`, revocation_uri: `${RENDER_URL}/api/v1/auth/oauth2/revoke?org=acme` },
    })
    expect((await fetchApp(`${RENDER_URL}/.well-known/oauth-authorization-server/org/nope`)).status).toBe(404)
    const jwks = (await (await fetchApp(metadata.jwks_uri as string)).json()) as { keys: Array<Record<string, unknown>> }
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })
    expect(jwks.keys[0]).not.toHaveProperty('d')
  })

  it('serves both protected-resource documents without a token, and answers preflights before auth', async () => {
    expect(await (await fetchApp(`${RENDER_URL}/.well-known/oauth-protected-resource`)).json()).toMatchObject({ resource: RENDER_URL, authorization_servers: [issuer()], bearer_methods_supported: ['header'] })
    expect(await (await fetchApp(`${RENDER_URL}/.well-known/oauth-protected-resource/api/mcp`)).json()).toMatchObject({ resource: `${RENDER_URL}/api/mcp`, authorization_servers: [issuer()] })
    const preflight = await fetchApp(`${RENDER_URL}/designs/v2`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/)
  })
})

describe('registration (RFC 7591)', () => {
  it('refuses unsafe redirect URIs with invalid_redirect_uri', async () => {
    for (const uri of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'http://evil.example/cb', 'https://app.example/cb#frag', 'https://user:pw@app.example/cb', 'not a url']) {
      const response = await fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/register?org=acme`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [uri], token_endpoint_auth_method: 'none' }) })
      expect(response.status, uri).toBe(400)
      expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' })
    }
  })

  it('accepts loopback, https and private-use redirects (Cursor sends all three), and rejects bad metadata', async () => {
    await register({ redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback', 'https://www.cursor.com/agents/mcp/oauth/callback', 'http://localhost:8787/callback'] })
    const bad = await fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/register?org=acme`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], grant_types: ['password'] }) })
    expect(await bad.json()).toMatchObject({ error: 'invalid_client_metadata' })
    const notJson = await fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/register?org=acme`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' })
    expect(notJson.status).toBe(400)
  })

  it('gives a confidential client a secret, which the token endpoint then requires', async () => {
    const client = await register({ token_endpoint_auth_method: 'client_secret_basic' })
    expect(client.client_secret).toMatch(/^lcs_/)
    const wrong = await fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/token`, { ...form({ grant_type: 'authorization_code', code: 'x' }), headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.client_id}:nope`).toString('base64')}` } })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' })
  })
})

describe('authorization endpoint', () => {
  it('shows an error page, never a redirect, for an unknown client or an unregistered redirect_uri', async () => {
    const client = await register()
    const { challenge } = pkce()
    const unknown = await fetchApp(authorizeUrl('acme.nope', { code_challenge: challenge }), { redirect: 'manual' })
    expect(unknown.status).toBe(400)
    expect(unknown.headers.get('location')).toBeNull()
    expect(await unknown.text()).toContain('Unknown client')
    for (const uri of ['http://127.0.0.1:8090/callback/', 'http://127.0.0.1:8090/callback?x=1', 'http://127.0.0.1:8090/callback/../evil', 'http://127.0.0.2:8090/callback', 'https://127.0.0.1:8090/callback', 'http://evil@127.0.0.1:8090/callback', 'http://127.0.0.1:8090/callback#f']) {
      const response = await fetchApp(authorizeUrl(client.client_id, { code_challenge: challenge, redirect_uri: uri }), { redirect: 'manual' })
      expect(response.status, uri).toBe(400)
      expect(response.headers.get('location'), uri).toBeNull()
    }
  })

  it('matches loopback redirect URIs on any port (RFC 8252 §7.3)', async () => {
    const client = await register()
    const { challenge } = pkce()
    const response = await fetchApp(authorizeUrl(client.client_id, { code_challenge: challenge, redirect_uri: 'http://127.0.0.1:51234/callback' }), { redirect: 'manual' })
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Sign in')
  })

  it('redirects missing or plain PKCE, a bad scope or resource back to a configured client with the error, state and iss', async () => {
    const client = { client_id: 'configured-app' }
    const { challenge } = pkce()
    const cases: Array<[Record<string, string | null>, string]> = [
      [{ code_challenge: null }, 'invalid_request'],
      [{ code_challenge: challenge, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: challenge, code_challenge_method: null }, 'invalid_request'],
      [{ code_challenge: challenge, scope: 'admin' }, 'invalid_scope'],
      [{ code_challenge: challenge, resource: 'https://elsewhere.example' }, 'invalid_target'],
      [{ code_challenge: challenge, response_type: 'token' }, 'unsupported_response_type'],
    ]
    for (const [params, error] of cases) {
      const response = await fetchApp(authorizeUrl(client.client_id, params), { redirect: 'manual' })
      expect(response.status, JSON.stringify(params)).toBe(302)
      const location = new URL(response.headers.get('location')!)
      expect(location.origin + location.pathname).toBe(REDIRECT)
      expect(location.searchParams.get('error')).toBe(error)
      expect(location.searchParams.get('state')).toBe('st4te')
      expect(location.searchParams.get('iss')).toBe(issuer())
    }
  })

  it('no open redirect: an anonymously registered client with https://evil.example/phish gets an error page, not a 302, for response_type=token, scope=admin and prompt=none', async () => {
    const evil = await register({ client_name: 'Evil', redirect_uris: ['https://evil.example/phish'] })
    const { challenge } = pkce()
    const cases: Array<[Record<string, string>, string]> = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'admin' }, 'invalid_scope'],
      [{ prompt: 'none' }, 'login_required'],
    ]
    for (const [params, error] of cases) {
      const response = await fetchApp(authorizeUrl(evil.client_id, { code_challenge: challenge, redirect_uri: 'https://evil.example/phish', ...params }), { redirect: 'manual' })
      expect(response.status, error).toBe(400)
      expect(response.headers.get('location'), error).toBeNull()
      const html = await response.text()
      expect(html).toContain(error)
      // The way back is a link the user may choose to follow, naming where it goes.
      expect(html).toContain('<bdi>evil.example</bdi>')
    }
    // Also for a user who is signed in: nothing leaves without a click.
    const { browser } = await tokensFor(user)
    const signedIn = await browser.request(authorizeUrl(evil.client_id, { code_challenge: challenge, redirect_uri: 'https://evil.example/phish', prompt: 'none' }))
    expect(signedIn.status).toBe(400)
    expect(signedIn.headers.get('location')).toBeNull()
  })

  it('a configured client still gets its errors by redirect (RFC 6749 §4.1.2.1), before and after sign-in', async () => {
    const { challenge } = pkce()
    const anonymous = await fetchApp(authorizeUrl('configured-app', { code_challenge: challenge, prompt: 'none' }), { redirect: 'manual' })
    expect(anonymous.status).toBe(302)
    expect(new URL(anonymous.headers.get('location')!).searchParams.get('error')).toBe('login_required')
    const { browser } = await tokensFor(user)
    const signedIn = await browser.request(authorizeUrl('configured-app', { code_challenge: challenge, prompt: 'none' }))
    expect(signedIn.status).toBe(302)
    expect(new URL(signedIn.headers.get('location')!).searchParams.get('error')).toBe('consent_required')
    const denied = await browser.authorize(authorizeUrl('configured-app', { code_challenge: challenge }), { email: user.email, password: PASSWORD }, 'deny')
    expect(denied.status).toBe(302)
    expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toBe('access_denied')
  })

  it('says "Wrong email or password", refuses a form without its CSRF cookie, and redirects access_denied on Deny', async () => {
    const client = await register()
    const { challenge } = pkce()
    const browser = new Browser(fetchApp)
    const url = authorizeUrl(client.client_id, { code_challenge: challenge })
    const page = await (await browser.request(url)).text()
    const wrong = await browser.submit(page, url, { email: user.email, password: 'wrong' })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain('Wrong email or password')
    const stranger = new Browser(fetchApp)
    const forged = await stranger.submit(page, url, { email: user.email, password: PASSWORD })
    expect(forged.status).toBe(403)
    const denied = await new Browser(fetchApp).authorize(url, { email: user.email, password: PASSWORD }, 'deny')
    expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toBe('access_denied')
  })

  it('sets the session cookie HttpOnly and SameSite=Lax, and names the client, its redirect host and the scopes on the consent page', async () => {
    const client = await register({ client_name: 'Acme Agent' })
    const { challenge } = pkce()
    const browser = new Browser(fetchApp)
    const url = authorizeUrl(client.client_id, { code_challenge: challenge })
    const page = await (await browser.request(url)).text()
    const consent = await browser.submit(page, url, { email: user.email, password: PASSWORD })
    expect(consent.headers.get('set-cookie')).toMatch(/litho_session=[^;]+; Path=\/api\/v1\/auth\/oauth2; Max-Age=\d+; HttpOnly; SameSite=Lax/)
    const html = await consent.text()
    expect(html).toContain('Acme Agent')
    expect(html).toContain('127.0.0.1:8090')
    expect(html).toContain('<code>read</code>')
    expect(html).toContain('<code>write</code>')
  })
})

describe('token endpoint', () => {
  it('answers with Cache-Control: no-store', async () => {
    const response = await tokenRequest({ grant_type: 'authorization_code', code: 'nope', client_id: (await register()).client_id })
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('refuses a wrong code_verifier, and the code is spent', async () => {
    const client = await register()
    const { verifier, challenge } = pkce()
    const redirect = await new Browser(fetchApp).authorize(authorizeUrl(client.client_id, { code_challenge: challenge }), { email: user.email, password: PASSWORD })
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
    const wrong = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.client_id, code_verifier: pkce().verifier })
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' })
    const right = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.client_id, code_verifier: verifier })
    expect(right.status).toBe(400)
  })

  it('refuses a missing code_verifier and a different redirect_uri', async () => {
    const client = await register()
    const { verifier, challenge } = pkce()
    for (const fields of [{ code_verifier: '' }, { redirect_uri: 'http://127.0.0.1:8091/callback', code_verifier: verifier }]) {
      const redirect = await new Browser(fetchApp).authorize(authorizeUrl(client.client_id, { code_challenge: challenge }), { email: user.email, password: PASSWORD })
      const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
      const body: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.client_id, ...fields }
      if (body.code_verifier === '') delete body.code_verifier
      const response = await tokenRequest(body)
      expect(response.status).toBe(400)
      expect((await response.json()) as { error: string }).toHaveProperty('error')
    }
  })

  it('refuses a reused code and revokes the tokens it issued', async () => {
    const { client, code, verifier, tokens } = await tokensFor(user)
    expect((await api('/designs/v2', tokens.access_token)).status).toBe(200)
    const replay = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.client_id, code_verifier: verifier })
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' })
    expect((await api('/designs/v2', tokens.access_token)).status).toBe(401)
    expect(await (await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id })).json()).toMatchObject({ error: 'invalid_grant' })
  })

  it('refuses an expired code (lifetime 60 s)', async () => {
    const client = await register()
    const { verifier, challenge } = pkce()
    const redirect = await new Browser(fetchApp).authorize(authorizeUrl(client.client_id, { code_challenge: challenge }), { email: user.email, password: PASSWORD })
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
    h.clock.advance(61_000)
    const response = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.client_id, code_verifier: verifier })
    expect(await response.json()).toMatchObject({ error: 'invalid_grant', error_description: 'The code has expired' })
  })

  it('answers invalid_client (401) for an unknown client, so hosts register again', async () => {
    const response = await tokenRequest({ grant_type: 'authorization_code', code: 'x', client_id: 'acme.unknown' })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ error: 'invalid_client' })
  })

  it('rotates refresh tokens, tolerates reuse within the grace window, and revokes the family after it', async () => {
    const { client, tokens } = await tokensFor(user)
    const refresh = (token: string) => tokenRequest({ grant_type: 'refresh_token', refresh_token: token, client_id: client.client_id })
    const first = await refresh(tokens.refresh_token)
    expect(first.status).toBe(200)
    const rotated = (await first.json()) as { access_token: string; refresh_token: string }
    // A concurrent refresh with the same token 10 s later (hosts do this): the same pair again.
    h.clock.advance(10_000)
    const concurrent = await refresh(tokens.refresh_token)
    expect(concurrent.status).toBe(200)
    const sibling = (await concurrent.json()) as { access_token: string; refresh_token: string }
    expect(sibling).toEqual(rotated)
    // The winner's token still works.
    expect((await api('/designs/v2', rotated.access_token)).status).toBe(200)
    // Reuse after the grace window: theft is assumed, the whole family goes.
    h.clock.advance(61_000)
    const late = await refresh(tokens.refresh_token)
    expect(await late.json()).toMatchObject({ error: 'invalid_grant' })
    expect((await api('/designs/v2', rotated.access_token)).status).toBe(401)
    expect((await refresh(rotated.refresh_token)).status).toBe(400)
    expect((await refresh(sibling.refresh_token)).status).toBe(400)
  })

  it('keeps a narrowed scope when a rotated token is reused within the grace window', async () => {
    const { client, tokens } = await tokensFor(user)
    const refresh = (token: string, scope?: string) => tokenRequest({ grant_type: 'refresh_token', refresh_token: token, client_id: client.client_id, ...(scope ? { scope } : {}) })
    const narrowed = (await (await refresh(tokens.refresh_token, 'read')).json()) as { refresh_token: string; scope: string }
    expect(narrowed.scope).toBe('read')
    expect(((await (await refresh(narrowed.refresh_token)).json()) as { scope: string }).scope).toBe('read')
    const reused = await refresh(narrowed.refresh_token)
    expect(reused.status).toBe(200)
    expect(((await reused.json()) as { scope: string }).scope).toBe('read')
  })

  it('does not spend a refresh token on a request it refuses', async () => {
    const { client, tokens } = await tokensFor(user, { scope: 'read' })
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id, scope: 'write' })).status).toBe(400)
    h.clock.advance(120_000)
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id })).status).toBe(200)
  })

  it('answers unsupported_grant_type for a grant it does not know', async () => {
    const response = await tokenRequest({ grant_type: 'password', client_id: (await register()).client_id, username: 'a', password: 'b' })
    expect(await response.json()).toMatchObject({ error: 'unsupported_grant_type' })
  })

  it('refuses a refresh token of another client, and a wider scope', async () => {
    const { client, tokens } = await tokensFor(user, { scope: 'read' })
    const intruder = await register()
    expect(await (await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: intruder.client_id })).json()).toMatchObject({ error: 'invalid_grant' })
    expect(await (await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id, scope: 'read write' })).json()).toMatchObject({ error: 'invalid_scope' })
  })
})

describe('bearer endpoints', () => {
  it('answer 401 with a resource_metadata challenge without a token, and invalid_token with a bad one', async () => {
    const missing = await api('/designs/v2')
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${RENDER_URL}/.well-known/oauth-protected-resource", scope="read write"`)
    expect(await missing.json()).toMatchObject({ success: false })
    const bad = await api('/designs/v2', 'not.a.token')
    expect(bad.status).toBe(401)
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
    expect((await api(`/designs/v2?access_token=whatever`)).status).toBe(401)
  })

  it('refuse an expired token', async () => {
    const { tokens } = await tokensFor(user)
    h.clock.advance(3601_000)
    const response = await api('/designs/v2', tokens.access_token)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toContain('expired')
  })

  it('at /api/mcp, an expired token of either audience is refused as expired, not as "another resource"', async () => {
    const apiToken = (await tokensFor(user)).tokens.access_token
    const mcpToken = (await tokensFor(user, { resource: `${RENDER_URL}/api/mcp` })).tokens.access_token
    h.clock.advance(3601_000)
    const initialize = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) }
    for (const token of [apiToken, mcpToken]) {
      const response = await api('/api/mcp', token, initialize)
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toContain('has expired')
    }
  })

  it('refuse a token issued for another audience (the MCP endpoint)', async () => {
    const { tokens } = await tokensFor(user, { resource: `${RENDER_URL}/api/mcp` })
    const response = await api('/designs/v2', tokens.access_token)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toContain('another resource')
  })

  it('refuse a forged token signed with another key, or alg none', async () => {
    const { tokens } = await tokensFor(user)
    const [header, payload] = tokens.access_token.split('.')
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`
    expect((await api('/designs/v2', none)).status).toBe(401)
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: other.id })).toString('base64url')}.${tokens.access_token.split('.')[2]}`
    expect((await api('/designs/v2', tampered)).status).toBe(401)
  })

  it('answer 403 insufficient_scope to a read token on a write endpoint', async () => {
    const { tokens } = await tokensFor(user, { scope: 'read' })
    expect((await api('/designs/v2', tokens.access_token)).status).toBe(200)
    const response = await api('/settings/api-keys', tokens.access_token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'CI' }) })
    expect(response.status).toBe(403)
    expect(response.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="read write", resource_metadata="${RENDER_URL}/.well-known/oauth-protected-resource"`)
  })

  it("answer 404 for another user's design, never its data", async () => {
    const { tokens } = await tokensFor(user)
    for (const path of [`/designs/v2/${otherDesign}`, `/designs/v2/${otherDesign}/config`]) {
      const response = await api(path, tokens.access_token)
      expect(response.status, path).toBe(404)
      expect(await response.text()).not.toContain(other.id)
    }
  })
})
