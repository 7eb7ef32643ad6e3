// The authorization server as a library: options, orgs, and `handle` routing under {auth_url}
// (the full flows run through the HTTP adapter in packages/http-h3/test/oauth-*.test.ts).
import { memoryAccountStore } from '@litho/storage-adapters/account-store'
import { memoryAuthStateStore } from '@litho/storage-adapters/auth-state-store'
import { describe, expect, it } from 'vitest'
import { createAuthorizationServer } from '../src/index.js'

const base = () => ({ authUrl: 'https://auth.example.com/auth', resources: ['https://api.example.com'], state: memoryAuthStateStore(), accounts: memoryAccountStore() })

describe('createAuthorizationServer', () => {
  it('checks its options', () => {
    expect(() => createAuthorizationServer({ ...base(), authUrl: 'auth.example.com' })).toThrow(/authUrl/)
    expect(() => createAuthorizationServer({ ...base(), resources: [] })).toThrow(/resources/)
    expect(() => createAuthorizationServer({ ...base(), codeTtlSeconds: 601 })).toThrow(/600/)
    expect(() => createAuthorizationServer({ ...base(), accessTokenTtlSeconds: 0 })).toThrow(/accessTokenTtlSeconds/)
    expect(() => createAuthorizationServer({ ...base(), clients: [{ clientId: 'x', clientName: 'X', redirectUris: ['http://evil.example/cb'] }] })).toThrow(/loopback/)
  })

  it('creates one default org however many instances start at once, and keeps it', async () => {
    const options = base()
    const servers = [createAuthorizationServer(options), createAuthorizationServer(options), createAuthorizationServer(options)]
    const ids = await Promise.all(servers.map((s, i) => s.ensureDefaultOrg(i === 0 ? undefined : `org_${i}`)))
    expect(new Set(ids).size).toBe(1)
    expect(await createAuthorizationServer(options).ensureDefaultOrg('another')).toBe(ids[0])
    await expect(servers[0]!.ensureOrg('bad id!')).rejects.toThrow(/org id/)
  })

  it('GET /.well-known/oauth-authorization-server/org/%ZZ and /org/%ZZ/jwks.json through handle() get 400 invalid_request, not a 500', async () => {
    const reported: unknown[] = []
    const server = createAuthorizationServer({ ...base(), onError: (error) => reported.push(error) })
    await server.ensureDefaultOrg('acme')
    for (const path of ['/.well-known/oauth-authorization-server/org/%ZZ', '/org/%ZZ/jwks.json', '/.well-known/oauth-authorization-server/org/%E0%A4%A']) {
      const response = (await server.handle(new Request(`https://auth.example.com/auth${path}`)))!
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/org in the path/) })
    }
    expect(reported).toEqual([])
  })

  it('routes requests under the path of {auth_url}, and leaves others alone', async () => {
    const server = createAuthorizationServer(base())
    const org = await server.ensureDefaultOrg('acme')
    expect(server.issuer(org)).toBe('https://auth.example.com/auth/org/acme')
    const metadata = await server.handle(new Request('https://auth.example.com/auth/.well-known/oauth-authorization-server/org/acme'))
    expect(await metadata!.json()).toMatchObject({ issuer: 'https://auth.example.com/auth/org/acme', token_endpoint: 'https://auth.example.com/auth/api/v1/auth/oauth2/token?org=acme', client_id_metadata_document_supported: false })
    expect((await server.handle(new Request('https://auth.example.com/auth/org/acme/jwks.json')))!.status).toBe(200)
    expect(await server.handle(new Request('https://auth.example.com/other'))).toBeUndefined()
    expect(await server.handle(new Request('https://auth.example.com/auth/nothing'))).toBeUndefined()
    const preflight = await server.handle(new Request('https://auth.example.com/auth/api/v1/auth/oauth2/token', { method: 'OPTIONS' }))
    expect(preflight!.status).toBe(204)
    expect(preflight!.headers.get('access-control-allow-origin')).toBe('*')
    // No CORS on the authorization endpoint.
    const authorize = await server.handle(new Request('https://auth.example.com/auth/api/v1/auth/oauth2/authorize?client_id=nope'))
    expect(authorize!.status).toBe(400)
    expect(authorize!.headers.get('access-control-allow-origin')).toBeNull()
    expect(authorize!.headers.get('x-frame-options')).toBe('DENY')
    // Sign-out: a GET is a confirmation form, never a sign-out.
    const logout = await server.handle(new Request('https://auth.example.com/auth/api/v1/auth/oauth2/logout'))
    expect(logout!.status).toBe(200)
    expect(await logout!.text()).toContain('action="https://auth.example.com/auth/api/v1/auth/oauth2/logout"')
    expect(logout!.headers.get('set-cookie')).toMatch(/^litho_csrf=[^;]+; Path=\/auth\/api\/v1\/auth\/oauth2;/)
  })

  it('answers a storage failure with server_error, not a stack trace', async () => {
    const state = memoryAuthStateStore()
    const errors: unknown[] = []
    const server = createAuthorizationServer({ ...base(), state, onError: (e) => errors.push(e) })
    await server.ensureDefaultOrg('acme')
    state.get = async () => {
      throw new Error('backend down')
    }
    const response = await server.handle(new Request('https://auth.example.com/auth/api/v1/auth/oauth2/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&client_id=acme.x&code=y' }))
    expect(response!.status).toBe(500)
    expect(await response!.json()).toEqual({ error: 'server_error', error_description: 'The server could not complete the request; try again' })
    expect(errors).toHaveLength(1)
  })
})
