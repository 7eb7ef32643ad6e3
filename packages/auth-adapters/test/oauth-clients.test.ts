// Redirect URI rules (RFC 9700 exact match, RFC 8252 loopback ports and private-use schemes),
// and the external JWKS verifier against a real JWKS endpoint on loopback.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BearerTokenError, BearerVerifierUnavailableError, createJwksVerifier, redirectUriMatches, redirectUriProblem } from '../src/index.js'

describe('redirect URIs', () => {
  it.each([
    ['https://app.example/cb', null],
    ['http://127.0.0.1:8090/callback', null],
    ['http://[::1]/cb', null],
    ['http://localhost:8787/callback', null],
    ['cursor://anysphere.cursor-mcp/oauth/callback', null],
    ['com.example.app:/oauth2redirect', null],
    ['http://app.example/cb', 'loopback'],
    ['javascript:alert(1)', 'scheme'],
    ['data:text/html,hi', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['myapp://cb', 'scheme'],
    ['https://app.example/cb#x', 'fragment'],
    ['https://u:p@app.example/cb', 'credentials'],
    ['/relative', 'absolute'],
  ])('%s at registration → %s', (uri, problem) => {
    const found = redirectUriProblem(uri)
    if (problem === null) expect(found).toBeNull()
    else expect(found).toContain(problem)
  })

  it('match exactly, except the port of loopback http URIs', () => {
    const registered = ['https://app.test/cb', 'http://127.0.0.1/callback', 'http://localhost:33418/']
    expect(redirectUriMatches(registered, 'https://app.test/cb')).toBe(true)
    expect(redirectUriMatches(registered, 'http://127.0.0.1:51000/callback')).toBe(true)
    expect(redirectUriMatches(registered, 'http://localhost:9/')).toBe(true)
    for (const attempt of ['https://app.test/cb/', 'https://APP.test/cb', 'https://app.test/cb?x=1', 'https://app.test/cb/../evil', 'https://app.test.evil/cb', 'https://app.test@evil.test/cb', 'http://app.test/cb', 'https://app.test/cb#frag', 'http://127.0.0.1:51000/callback/../x', 'http://127.0.0.1:51000/other', 'http://localhost.evil:9/', 'http://a@127.0.0.1:5/callback'])
      expect(redirectUriMatches(registered, attempt), attempt).toBe(false)
  })
})

describe('createJwksVerifier', () => {
  let server: Server
  let jwksUrl: string
  let privateKey: CryptoKey
  let otherKey: CryptoKey
  const ISSUER = 'https://id.example.com/'
  const RESOURCE = 'https://api.example.com'

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256')
    privateKey = pair.privateKey
    otherKey = (await generateKeyPair('RS256')).privateKey
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ keys: [jwk] }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const token = (claims: Record<string, unknown> = {}, key = privateKey, header: Record<string, unknown> = {}) =>
    new SignJWT({ scope: 'read write', client_id: 'c1', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', ...header })
      .setIssuer((claims.iss as string) ?? ISSUER)
      .setAudience((claims.aud as string) ?? RESOURCE)
      .setSubject('u_1')
      .setIssuedAt()
      .setExpirationTime((claims.exp as number) ?? '1h')
      .sign(key)

  it('accepts a token of the configured issuer for the resource, with its scopes', async () => {
    const verifier = createJwksVerifier({ jwksUrl, issuer: ISSUER, algorithms: ['RS256'] })
    const principal = await verifier.verify(await token(), { resource: RESOURCE })
    expect(principal).toMatchObject({ userId: 'u_1', clientId: 'c1', scopes: ['read', 'write'], issuer: ISSUER, orgId: null })
  })

  it('maps users with userIdOf and reads scopes from another claim', async () => {
    const verifier = createJwksVerifier({ jwksUrl, issuer: ISSUER, algorithms: ['RS256'], scopeClaim: 'scp', userIdOf: (claims) => `ext_${claims.sub}` })
    const principal = await verifier.verify(await token({ scp: ['read'] }), { resource: RESOURCE })
    expect(principal.userId).toBe('ext_u_1')
    expect(principal.scopes).toEqual(['read'])
  })

  it('refuses another issuer, another audience, an expired token, a foreign key and an algorithm not listed', async () => {
    const verifier = createJwksVerifier({ jwksUrl, issuer: ISSUER, algorithms: ['RS256'] })
    const bad = [
      await token({ iss: 'https://evil.example/' }),
      await token({ aud: 'https://other.example.com' }),
      await token({ exp: Math.floor(Date.now() / 1000) - 120 }),
      await token({}, otherKey),
      'not-a-jwt',
    ]
    for (const t of bad) await expect(verifier.verify(t, { resource: RESOURCE })).rejects.toBeInstanceOf(BearerTokenError)
    const es = createJwksVerifier({ jwksUrl, issuer: ISSUER, algorithms: ['ES256'] })
    await expect(es.verify(await token(), { resource: RESOURCE })).rejects.toBeInstanceOf(BearerTokenError)
  })

  it('says "unavailable", not "invalid token", when the JWKS cannot be fetched', async () => {
    const down = createJwksVerifier({ jwksUrl: 'http://127.0.0.1:9/jwks.json', issuer: ISSUER, algorithms: ['RS256'] })
    await expect(down.verify(await token(), { resource: RESOURCE })).rejects.toBeInstanceOf(BearerVerifierUnavailableError)
  })

  it('requires issuer and algorithms, and never accepts "none"', () => {
    expect(() => createJwksVerifier({ jwksUrl, issuer: '', algorithms: ['RS256'] })).toThrow(/issuer/)
    expect(() => createJwksVerifier({ jwksUrl, issuer: ISSUER, algorithms: [] })).toThrow(/algorithms/)
    expect(() => createJwksVerifier({ jwksUrl, issuer: ISSUER, algorithms: ['none'] })).toThrow(/none/)
  })
})
