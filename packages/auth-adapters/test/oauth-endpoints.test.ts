// The authorization server as a route table: `server.endpoints` mounted by a router of one's
// own answers exactly what handle() answers; refusals come back as responses, failures as throws.
import { memoryAccountStore } from '@litho/storage-adapters/account-store'
import { memoryAuthStateStore } from '@litho/storage-adapters/auth-state-store'
import { describe, expect, it } from 'vitest'
import { OAUTH_PATHS, createAuthorizationServer, type AuthorizationServer, type OAuthEndpoint } from '../src/index.js'

const AUTH = 'https://auth.example.com/auth'
const base = () => ({ authUrl: AUTH, resources: ['https://api.example.com'], state: memoryAuthStateStore(), accounts: memoryAccountStore() })

/** A router of one's own over the table: segments, `:name` parameters, the declared methods. */
function mount(endpoints: readonly OAuthEndpoint[]) {
  return async (request: Request): Promise<Response | undefined> => {
    const path = new URL(request.url).pathname.slice('/auth'.length).split('/')
    for (const endpoint of endpoints) {
      const pattern = endpoint.path.split('/')
      if (pattern.length !== path.length) continue
      const params: Record<string, string> = {}
      if (!pattern.every((part, i) => (part.startsWith(':') ? ((params[part.slice(1)] = decodeURIComponent(path[i]!)), true) : part === path[i]))) continue
      if (endpoint.methods !== '*' && !endpoint.methods.includes(request.method)) return new Response(null, { status: 405 })
      try {
        return await endpoint.handler(request, { clientAddress: '192.0.2.1', params })
      } catch {
        return endpoint.serverError()
      }
    }
    return undefined
  }
}

async function snapshot(response: Response | undefined) {
  if (!response) return undefined
  return { status: response.status, headers: [...response.headers].sort(), body: await response.text() }
}

const form = (body: string) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })

describe('oauth endpoints', () => {
  it('lists the seven endpoints at the paths of OAUTH_PATHS, the documents by GET and OPTIONS only', () => {
    const server = createAuthorizationServer(base())
    expect(server.endpoints.map((e) => [e.name, e.path, e.methods])).toEqual([
      ['metadata', OAUTH_PATHS.metadata, ['GET', 'OPTIONS']],
      ['jwks', OAUTH_PATHS.jwks, ['GET', 'OPTIONS']],
      ['register', OAUTH_PATHS.register, '*'],
      ['token', OAUTH_PATHS.token, '*'],
      ['revoke', OAUTH_PATHS.revoke, '*'],
      ['authorize', OAUTH_PATHS.authorize, '*'],
      ['logout', OAUTH_PATHS.logout, '*'],
    ])
    expect(Object.isFrozen(server.endpoints)).toBe(true)
  })

  it('mounted from the table, answers what handle() answers: statuses, headers and bodies', async () => {
    const server: AuthorizationServer = createAuthorizationServer(base())
    await server.ensureDefaultOrg('acme')
    const viaTable = mount(server.endpoints)
    const requests: Array<[string, RequestInit?]> = [
      [`${AUTH}/.well-known/oauth-authorization-server/org/acme`],
      [`${AUTH}/.well-known/oauth-authorization-server/org/nobody`],
      [`${AUTH}/org/acme/jwks.json`],
      [`${AUTH}/org/acme/jwks.json`, { method: 'OPTIONS' }],
      [`${AUTH}/api/v1/auth/oauth2/token`],
      [`${AUTH}/api/v1/auth/oauth2/token`, { method: 'OPTIONS' }],
      [`${AUTH}/api/v1/auth/oauth2/token`, form('grant_type=authorization_code&client_id=acme.unknown&code=x')],
      [`${AUTH}/api/v1/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }],
      [`${AUTH}/api/v1/auth/oauth2/token`, form('x'.repeat(70 * 1024))],
      [`${AUTH}/api/v1/auth/oauth2/revoke`, form('token=abc')],
      [`${AUTH}/api/v1/auth/oauth2/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"redirect_uris":["http://evil.example/cb"]}' }],
      [`${AUTH}/api/v1/auth/oauth2/register`, { method: 'GET' }],
      [`${AUTH}/api/v1/auth/oauth2/authorize?client_id=nope`],
      [`${AUTH}/api/v1/auth/oauth2/authorize`, { method: 'DELETE' }],
      [`${AUTH}/api/v1/auth/oauth2/logout`, form('csrf=abc')],
      [`${AUTH}/api/v1/auth/oauth2/nothing`],
    ]
    for (const [url, init] of requests) {
      const expected = await snapshot(await server.handle(new Request(url, init), { clientAddress: '192.0.2.1' }))
      expect(await snapshot(await viaTable(new Request(url, init))), `${init?.method ?? 'GET'} ${url}`).toEqual(expected)
    }
  })

  it('a refusal is an answer, not a throw: 405 invalid_request with Allow from the token endpoint', async () => {
    const server = createAuthorizationServer(base())
    const token = server.endpoints.find((e) => e.name === 'token')!
    const response = await token.handler(new Request(`${AUTH}${OAUTH_PATHS.token}`))
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST, OPTIONS')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'Use POST' })
  })

  it('a failure of the store is thrown to the mount; serverError() is a page on authorize and logout, server_error JSON elsewhere', async () => {
    const state = memoryAuthStateStore()
    const server = createAuthorizationServer({ ...base(), state })
    await server.ensureDefaultOrg('acme')
    state.get = async () => {
      throw new Error('backend down')
    }
    const byName = Object.fromEntries(server.endpoints.map((e) => [e.name, e]))
    await expect(byName.revoke!.handler(new Request(`${AUTH}${OAUTH_PATHS.revoke}`, form('client_id=acme.x&token=y')))).rejects.toThrow('backend down')
    const page = byName.authorize!.serverError()
    expect(page.status).toBe(500)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await page.text()).toContain('Something went wrong')
    expect(byName.logout!.serverError().headers.get('x-frame-options')).toBe('DENY')
    const json = byName.token!.serverError()
    expect(json.status).toBe(500)
    expect(json.headers.get('access-control-allow-origin')).toBe('*')
    expect(await json.json()).toEqual({ error: 'server_error', error_description: 'The server could not complete the request; try again' })
  })

  it('metadata(request, org) and jwks(request, org) take the org as given, without decoding it', async () => {
    const server = createAuthorizationServer(base())
    await server.ensureDefaultOrg('acme')
    const response = await server.metadata(new Request(`${AUTH}/whatever`), '%ZZ')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'not_found', error_description: 'unknown org "%ZZ"' })
    expect((await server.jwks(new Request(`${AUTH}/whatever`), 'acme')).status).toBe(200)
  })
})

describe('oauth cookies', () => {
  const logout = (cookie: string, csrf: string) => new Request(`${AUTH}${OAUTH_PATHS.logout}`, { ...form(`csrf=${csrf}`), headers: { 'content-type': 'application/x-www-form-urlencoded', cookie } })
  const csrf = 'A'.repeat(43)

  it('sets the CSRF cookie HttpOnly, SameSite=Lax and Secure on https, its attributes in the order of docs/connecting-a-client.md', async () => {
    const server = createAuthorizationServer(base())
    const page = await server.logout(new Request(`${AUTH}${OAUTH_PATHS.logout}`))
    expect(page.headers.get('set-cookie')).toMatch(/^litho_csrf=[A-Za-z0-9_-]{43}; Path=\/auth\/api\/v1\/auth\/oauth2; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/)
    const plain = createAuthorizationServer({ ...base(), secureCookies: false })
    expect((await plain.logout(new Request(`${AUTH}${OAUTH_PATHS.logout}`))).headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax$/)
  })

  it('signs out and clears the session cookie when the form matches the CSRF cookie, among others and with spaces', async () => {
    const server = createAuthorizationServer(base())
    const response = await server.logout(logout(`theme=dark;  litho_csrf=${csrf} ; litho_session=${'B'.repeat(43)}`, csrf))
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toBe('litho_session=; Path=/auth/api/v1/auth/oauth2; Max-Age=0; HttpOnly; SameSite=Lax; Secure')
  })

  it('refuses (403) a CSRF cookie that matches only once percent-decoded, or only as the second of its name', async () => {
    const server = createAuthorizationServer(base())
    expect((await server.logout(logout(`litho_csrf=%41${'A'.repeat(42)}`, csrf))).status).toBe(403)
    expect((await server.logout(logout(`litho_csrf=other; litho_csrf=${csrf}`, csrf))).status).toBe(403)
    expect((await server.logout(logout(`xlitho_csrf=${csrf}`, csrf))).status).toBe(403)
  })
})
