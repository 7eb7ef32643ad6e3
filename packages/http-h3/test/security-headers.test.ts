// Response headers that protect every caller: `X-Content-Type-Options: nosniff` on every
// response of the app (so a browser never sniffs a stored file or an error into HTML or script),
// and `Cache-Control: no-store` on every bearer-endpoint and token response (so no browser or
// shared cache keeps a user's data, a token, or a new key's secret).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { Browser } from './_browser.js'
import { RENDER_URL, createHarness, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

let h: Harness
let user: UserRecord
let key = ''
let renderCode = ''
let token = ''
let readToken = ''
let hostedPath = ''

const { api, fetchApp, tokensFor, authorizeUrl, register, tokenRequest } = oauthHelpers(() => h)

beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('pro', PASSWORD)
  key = await h.createKey(user)
  renderCode = await h.createDesign(user)
  token = (await tokensFor(user)).tokens.access_token
  readToken = (await tokensFor(user, { scope: 'read' })).tokens.access_token
  const hosted = (await (await h.fetch(`/v1/${renderCode}?delivery=hosted&key=${key}`)).json()) as { url: string }
  hostedPath = new URL(hosted.url).pathname
})
afterAll(() => h.close())

describe('X-Content-Type-Options: nosniff on every response', () => {
  const cases: Array<[string, () => Promise<Response>, number]> = [
    ['an image (GET render)', () => h.fetch(`/v1/${renderCode}?format=png&key=${key}`), 200],
    ['a stored file', () => h.fetch(hostedPath), 200],
    ['a render error (no key)', () => h.fetch(`/v1/${renderCode}`), 401],
    ['a render error (bad JSON)', () => h.fetch(`/v1/${renderCode}`, { method: 'POST', headers: { 'dma-api-key': key, 'content-type': 'application/json' }, body: '{' }), 400],
    ['the OpenAPI document', () => h.fetch('/openapi.json'), 200],
    ['a bearer JSON answer', () => api('/designs/v2', token), 200],
    ['a bearer challenge', () => api('/designs/v2'), 401],
    ['an unknown route (h3 itself)', () => h.fetch('/no/such/route'), 404],
    ['the sign-in page (HTML)', async () => fetchApp(authorizeUrl((await register()).client_id, { code_challenge: 'x'.repeat(43) })), 200],
    ['an OAuth error', () => tokenRequest({ grant_type: 'nope' }), 401],
    ['the MCP endpoint', () => api('/api/mcp', token, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) }), 200],
    ['a preflight', () => h.fetch('/designs/v2', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } }), 204],
  ]
  it.each(cases)('%s', async (_name, send, status) => {
    const response = await send()
    expect(response.status).toBe(status)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })
})

// The headers above go onto a Response a handler returns, not onto the event: h3 copies a
// Response that meets headers prepared on the event into a new one whose body is a web stream,
// read chunk by chunk instead of written to the socket as it is (about 0.7 ms of the main
// thread per cache hit of the reference card, docs/performance.md).
describe('a Response from a handler reaches the socket as it is', () => {
  type Sendable = { _toNodeResponse?: () => { body: unknown; headers: string[] } }
  it.each([
    ['an image (GET render)', () => h.fetch(`/v1/${renderCode}?format=png&key=${key}`)],
    ['a stored file', () => h.fetch(hostedPath)],
  ])('%s: its bytes, with nosniff and the request id among its headers', async (_name, send) => {
    const response = (await send()) as Response & Sendable
    expect(response.status).toBe(200)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('x-request-id')).toMatch(/\S/)
    // What srvx's Node adapter writes (a one-time conversion): the bytes themselves, not a stream.
    expect(typeof response._toNodeResponse).toBe('function')
    const sent = response._toNodeResponse!()
    expect(sent.body).toBeInstanceOf(Uint8Array)
    expect(sent.headers).toEqual(expect.arrayContaining(['x-content-type-options', 'nosniff', 'x-request-id']))
  })
})

describe('Cache-Control: no-store on every bearer-endpoint and token response', () => {
  const noStore = (response: Response) => expect(response.headers.get('cache-control') ?? '', `${response.status} ${response.url}`).toMatch(/\bno-store\b/)

  it('the 201 of POST /settings/api-keys, which carries the new key\'s secret', async () => {
    const response = await api('/settings/api-keys', token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'CI' }) })
    expect(response.status).toBe(201)
    expect(JSON.stringify(await response.json())).toMatch(/lk_/)
    noStore(response)
  })

  it('every bearer answer: lists, reads, usage, key lists, challenges (401, 403), errors (404)', async () => {
    const responses = [
      await api('/designs/v2', token),
      await api('/analytics/api', token),
      await api('/settings/api-keys', token),
      await api('/designs/v2/d_doesnotexist', token),
      await api('/designs/v2'),
      await api('/designs/v2', 'not.a.token'),
      await api('/settings/api-keys', readToken, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      await api('/api/mcp', token, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) }),
    ]
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 404, 401, 401, 403, 200])
    responses.forEach(noStore)
  })

  it('every token response: the code grant, the refresh grant, and their errors', async () => {
    const { client, tokens } = await tokensFor(user)
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id })
    expect(refreshed.status).toBe(200)
    noStore(refreshed)
    const refused = await tokenRequest({ grant_type: 'authorization_code', code: 'nope', client_id: client.client_id, redirect_uri: 'http://127.0.0.1:8090/callback', code_verifier: 'x'.repeat(43) })
    expect(refused.status).toBe(400)
    noStore(refused)
    // The code grant's own answer (driven here by hand, to see its headers).
    const fresh = await register()
    const browser = new Browser(fetchApp)
    const { createHash, randomBytes } = await import('node:crypto')
    const verifier = randomBytes(32).toString('base64url')
    const redirect = await browser.authorize(authorizeUrl(fresh.client_id, { code_challenge: createHash('sha256').update(verifier).digest('base64url') }), { email: user.email, password: PASSWORD })
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
    const granted = await tokenRequest({ grant_type: 'authorization_code', code, client_id: fresh.client_id, redirect_uri: 'http://127.0.0.1:8090/callback', code_verifier: verifier, resource: RENDER_URL })
    expect(granted.status).toBe(200)
    noStore(granted)
  })
})
