// Clients beyond dynamic registration: Client ID Metadata Documents (the client_id is the https
// URL of its metadata), clients configured ahead of time (public and confidential), and an app
// that accepts tokens of an external authorization server through its JWKS.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createJwksVerifier } from '@litho/auth-adapters'
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { Browser } from './_browser.js'
import { RENDER_URL, createHarness, type Harness } from './_harness.js'
import { PASSWORD, pkce } from './_oauth.js'

const CIMD_ID = 'https://agent.example/oauth/client.json'
const CIMD_REDIRECT = 'https://agent.example/callback'
const documents: Record<string, unknown> = {
  [CIMD_ID]: { client_id: CIMD_ID, client_name: 'Agent Example', redirect_uris: [CIMD_REDIRECT], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' },
  'https://liar.example/client.json': { client_id: 'https://someone-else.example/client.json', client_name: 'Liar', redirect_uris: ['https://liar.example/cb'] },
}
const fetched: string[] = []
let h: Harness
let user: UserRecord

beforeAll(async () => {
  h = await createHarness({
    withOAuth: {
      async fetchClientMetadata(url) {
        fetched.push(url)
        if (!(url in documents)) throw new Error('404')
        return documents[url]
      },
      clients: [
        { clientId: 'cli', clientName: 'Litho CLI', redirectUris: ['http://127.0.0.1/callback'] },
        { clientId: 'backend', clientName: 'Backend', redirectUris: ['https://backend.example/cb'], clientSecret: 'a-long-secret-of-at-least-32-characters', scopes: ['read'] },
      ],
    },
  })
  user = await h.createUser('pro', PASSWORD)
})
afterAll(() => h.close())

const fetchApp = async (url: string, init?: RequestInit): Promise<Response> => h.app.fetch(new Request(url, init))
function authorizeUrl(params: Record<string, string>): string {
  const url = new URL(`${RENDER_URL}/api/v1/auth/oauth2/authorize`)
  for (const [k, v] of Object.entries({ response_type: 'code', state: 's', code_challenge_method: 'S256', ...params })) url.searchParams.set(k, v)
  return url.href
}
const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetchApp(`${RENDER_URL}/api/v1/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields) })

describe('Client ID Metadata Documents', () => {
  it('are advertised, fetched once, and work like a registered public client', async () => {
    const metadata = (await (await fetchApp(`${RENDER_URL}/.well-known/oauth-authorization-server/org/acme`)).json()) as Record<string, unknown>
    expect(metadata.client_id_metadata_document_supported).toBe(true)
    expect(metadata.token_endpoint_auth_methods_supported).toContain('none')
    const { verifier, challenge } = pkce()
    const redirect = await new Browser(fetchApp).authorize(authorizeUrl({ client_id: CIMD_ID, redirect_uri: CIMD_REDIRECT, code_challenge: challenge }), { email: user.email, password: PASSWORD })
    const location = new URL(redirect.headers.get('location')!)
    expect(location.origin + location.pathname).toBe(CIMD_REDIRECT)
    const response = await token({ grant_type: 'authorization_code', code: location.searchParams.get('code')!, redirect_uri: CIMD_REDIRECT, client_id: CIMD_ID, code_verifier: verifier })
    expect(response.status).toBe(200)
    const { access_token } = (await response.json()) as { access_token: string }
    expect((await fetchApp(`${RENDER_URL}/designs/v2`, { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(200)
    // Cached: one fetch for the whole flow.
    expect(fetched.filter((u) => u === CIMD_ID)).toHaveLength(1)
  })

  it('are refused when the document names another client_id, or cannot be fetched', async () => {
    for (const id of ['https://liar.example/client.json', 'https://missing.example/client.json']) {
      const response = await fetchApp(authorizeUrl({ client_id: id, redirect_uri: 'https://liar.example/cb', code_challenge: pkce().challenge }), { redirect: 'manual' })
      expect(response.status, id).toBe(400)
      expect(response.headers.get('location')).toBeNull()
    }
  })
})

describe('clients configured ahead of time', () => {
  it('a public client with a loopback redirect works on any port', async () => {
    const { verifier, challenge } = pkce()
    const redirect = await new Browser(fetchApp).authorize(authorizeUrl({ client_id: 'cli', redirect_uri: 'http://127.0.0.1:40404/callback', code_challenge: challenge }), { email: user.email, password: PASSWORD })
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:40404/callback', client_id: 'cli', code_verifier: verifier })).status).toBe(200)
  })

  it('a confidential client must authenticate, and may only ask for its scopes', async () => {
    const tooMuch = await fetchApp(authorizeUrl({ client_id: 'backend', redirect_uri: 'https://backend.example/cb', code_challenge: pkce().challenge, scope: 'read write' }), { redirect: 'manual' })
    expect(new URL(tooMuch.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope')
    const { verifier, challenge } = pkce()
    const redirect = await new Browser(fetchApp).authorize(authorizeUrl({ client_id: 'backend', redirect_uri: 'https://backend.example/cb', code_challenge: challenge, scope: 'read' }), { email: user.email, password: PASSWORD })
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
    const fields = { grant_type: 'authorization_code', code, redirect_uri: 'https://backend.example/cb', code_verifier: verifier }
    expect((await token({ ...fields, client_id: 'backend' })).status).toBe(401)
    const basic = Buffer.from('backend:a-long-secret-of-at-least-32-characters').toString('base64')
    const response = await token(fields, { authorization: `Basic ${basic}` })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { scope: string }).scope).toBe('read')
  })
})

describe('an external authorization server', () => {
  let server: Server
  let external: Harness
  let sign: (claims?: Record<string, unknown>) => Promise<string>
  let member: UserRecord

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256')
    const jwk = { ...(await exportJWK(publicKey)), kid: 'ext', alg: 'ES256' }
    server = createServer((_req, res) => res.end(JSON.stringify({ keys: [jwk] })))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`
    external = await createHarness({ bearer: createJwksVerifier({ jwksUrl, issuer: 'https://id.example.com/', algorithms: ['ES256'] }), authorizationServers: ['https://id.example.com/'] })
    member = await external.createUser('free')
    await external.createDesign(member)
    sign = (claims = {}) =>
      new SignJWT({ scope: 'read', ...claims }).setProtectedHeader({ alg: 'ES256', kid: 'ext' }).setIssuer('https://id.example.com/').setAudience((claims.aud as string | undefined) ?? RENDER_URL).setSubject((claims.sub as string | undefined) ?? member.id).setIssuedAt().setExpirationTime('1h').sign(privateKey)
  })
  afterAll(async () => {
    await external.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('its tokens are accepted, and the protected-resource metadata names it', async () => {
    const call = (t: string) => external.app.fetch(new Request(`${RENDER_URL}/designs/v2`, { headers: { authorization: `Bearer ${t}` } }))
    const ok = await call(await sign())
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as { docs: unknown[] }).docs).toHaveLength(1)
    expect((await call(await sign({ aud: 'https://elsewhere.example' }))).status).toBe(401)
    expect(await (await external.app.fetch(new Request(`${RENDER_URL}/.well-known/oauth-protected-resource`))).json()).toMatchObject({ authorization_servers: ['https://id.example.com/'] })
    // A subject that is not a Litho user id (`auth0|…`) is no account: 401, not a 500.
    expect((await call(await sign({ sub: 'auth0|abc' }))).status).toBe(401)
    // A header that is not `Bearer <token>` is a malformed request (RFC 6750 §3.1).
    expect((await external.app.fetch(new Request(`${RENDER_URL}/designs/v2`, { headers: { authorization: 'Basic dXNlcjpwdw==' } }))).status).toBe(400)
    // No built-in server: its routes are not mounted.
    expect((await external.app.fetch(new Request(`${RENDER_URL}/.well-known/oauth-authorization-server/org/acme`))).status).toBe(404)
  })
})
