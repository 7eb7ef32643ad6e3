// The attack: a 100 MB chunked body (no Content-Length) on every POST route of a real `litho
// serve`, the OAuth endpoints and forms without any credential, the render, bulk, MCP and
// bearer routes with the credentials anyone may hold (render keys are public in <img> URLs).
// Each gets its 413 while the upload has barely started (the rest is never read), the
// server's resident memory does not grow by the body, and the next request is served.
import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Browser } from './_browser.js'
import { processFixture, rssGrowthDuring } from './_process.js'

const MB = 1024 * 1024
const ATTACK_BYTES = 100 * MB
const EMAIL = 'body-limits@example.com'
const PASSWORD = 'body limits battery staple'
const REDIRECT = 'http://127.0.0.1:8090/callback'
const OAUTH = '/api/v1/auth/oauth2'

const fixture = processFixture('litho-body-limits-')
let server: ReturnType<typeof fixture.serve>
let base = ''
let key = ''
let renderCode = ''
let designId = ''
let clientId = ''
let accessToken = ''

/** A 100 MB body streamed in 64 KiB chunks, counting what the client has handed over. */
function hugeBody(fill = 'a') {
  const chunk = new TextEncoder().encode(fill.repeat(64 * 1024))
  const counter = { sent: 0 }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.sent >= ATTACK_BYTES) return controller.close()
      counter.sent += chunk.byteLength
      controller.enqueue(chunk)
    },
  })
  return { stream, counter }
}

/** An authorization URL of the registered client, with a fresh PKCE challenge. */
function authorizeUrl(): string {
  const url = new URL(`${base}${OAUTH}/authorize`)
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url')
  for (const [k, v] of Object.entries({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'read write', state: 's', resource: base, code_challenge: challenge, code_challenge_method: 'S256' })) url.searchParams.set(k, v)
  return url.href
}

/**
 * Sends the attack with `send`; returns the response, what the client had uploaded when it
 * arrived, and how far the server's resident memory rose at its peak.
 */
async function attack(send: (body: ReadableStream<Uint8Array>) => Promise<Response>, fill?: string) {
  const { stream, counter } = hugeBody(fill)
  const { result, grewBy } = await rssGrowthDuring(server.child.pid!, async () => {
    const response = await send(stream)
    const sentAtResponse = counter.sent
    return { response, sentAtResponse, body: await response.text() }
  })
  return { ...result, grewBy }
}

const post = (path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) => fetch(`${base}${path}`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit)

/** What every attack must come to: a 413 before a third of the body was sent, and no memory held for it. */
function expectRefusedEarly(result: Awaited<ReturnType<typeof attack>>) {
  expect(result.response.status, result.body).toBe(413)
  expect(result.response.headers.get('content-type')).toMatch(/^application\/json/)
  // Socket buffers hold a few MB in flight; 100 MB read whole would be the whole body.
  expect(result.sentAtResponse).toBeLessThan(32 * MB)
  expect(result.grewBy).toBeLessThan(50 * MB)
}

beforeAll(async () => {
  ;({ key, renderCode } = await fixture.seed(EMAIL, PASSWORD))
  server = fixture.serve(0, { LITHO_ORG_ID: 'acme' })
  base = await server.ready
  const registered = await fetch(`${base}${OAUTH}/register?org=acme`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'body limits', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }) })
  expect(registered.status).toBe(201)
  clientId = ((await registered.json()) as { client_id: string }).client_id
  // A token by the documented flow, for the bearer and MCP routes.
  const verifier = randomBytes(32).toString('base64url')
  const url = new URL(authorizeUrl())
  url.searchParams.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'))
  const redirect = await new Browser(fetch).authorize(url.href, { email: EMAIL, password: PASSWORD })
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
  const tokens = await fetch(`${base}${OAUTH}/token?org=acme`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier, resource: base }) })
  expect(tokens.status).toBe(200)
  accessToken = ((await tokens.json()) as { access_token: string }).access_token
  const designs = (await (await fetch(`${base}/designs/v2`, { headers: { authorization: `Bearer ${accessToken}` } })).json()) as { docs: Array<{ _id: string }> }
  designId = designs.docs[0]!._id
  // Warm every route once, so the baseline RSS includes what serving them costs anyway.
  expect((await fetch(`${base}/v1/${renderCode}?key=${key}`)).status).toBe(200)
}, 120_000)

afterAll(async () => {
  server?.child.kill('SIGTERM')
  await server?.exit
  fixture.cleanup()
})

describe('a 100 MB chunked body gets 413 at once, the server holds none of it, and the next request is served', () => {
  it('on POST /token (no credentials): 413 invalid_request', async () => {
    const result = await attack((body) => post(`${OAUTH}/token?org=acme`, body, { 'content-type': 'application/x-www-form-urlencoded' }))
    expectRefusedEarly(result)
    expect(JSON.parse(result.body)).toMatchObject({ error: 'invalid_request', error_description: 'The body is larger than 65536 bytes' })
    const next = await fetch(`${base}${OAUTH}/token?org=acme`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code: 'nope', redirect_uri: REDIRECT, client_id: clientId, code_verifier: 'x'.repeat(43) }) })
    expect(next.status).toBe(400)
    expect(await next.json()).toMatchObject({ error: 'invalid_grant' })
  }, 60_000)

  it('on POST /register (no credentials): 413 invalid_request', async () => {
    const result = await attack((body) => post(`${OAUTH}/register?org=acme`, body, { 'content-type': 'application/json' }), ' ')
    expectRefusedEarly(result)
    expect(JSON.parse(result.body)).toMatchObject({ error: 'invalid_request' })
    const next = await fetch(`${base}${OAUTH}/register?org=acme`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }) })
    expect(next.status).toBe(201)
  }, 60_000)

  it('on POST /revoke (no credentials): 413 invalid_request', async () => {
    const result = await attack((body) => post(`${OAUTH}/revoke?org=acme`, body, { 'content-type': 'application/x-www-form-urlencoded' }))
    expectRefusedEarly(result)
    expect(JSON.parse(result.body)).toMatchObject({ error: 'invalid_request' })
    const next = await fetch(`${base}${OAUTH}/revoke?org=acme`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: 'not-a-token', client_id: clientId }) })
    expect(next.status).toBe(200)
  }, 60_000)

  it('on the sign-in form (POST /authorize, no session): 413', async () => {
    const browser = new Browser(fetch)
    const page = await (await browser.request(authorizeUrl())).text()
    expect(page).toContain('>Sign in</button>')
    const result = await attack((body) => browser.request(`${base}${OAUTH}/authorize`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, duplex: 'half' } as RequestInit))
    expectRefusedEarly(result)
    // The same sign-in still works.
    const signedIn = await browser.submit(page, authorizeUrl(), { email: EMAIL, password: PASSWORD })
    expect(await signedIn.text()).toContain('>Allow</button>')
  }, 60_000)

  it('on the consent form (POST /authorize, signed in): 413', async () => {
    const browser = new Browser(fetch)
    let page = await (await browser.request(authorizeUrl())).text()
    page = await (await browser.submit(page, authorizeUrl(), { email: EMAIL, password: PASSWORD })).text()
    expect(page).toContain('>Allow</button>')
    const result = await attack((body) => browser.request(`${base}${OAUTH}/authorize`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, duplex: 'half' } as RequestInit))
    expectRefusedEarly(result)
    expect((await browser.submit(page, authorizeUrl(), { decision: 'allow' })).status).toBe(302)
  }, 60_000)

  it('on the sign-out form (POST /logout, no credentials): 413', async () => {
    const result = await attack((body) => post(`${OAUTH}/logout`, body, { 'content-type': 'application/x-www-form-urlencoded' }))
    expectRefusedEarly(result)
    expect(JSON.parse(result.body)).toMatchObject({ error: 'invalid_request' })
    // The sign-out page is still served.
    expect((await fetch(`${base}${OAUTH}/logout`)).status).toBe(200)
  }, 60_000)

  it('on POST /v1/:design_id (a render key, public in <img> URLs): 413 ERR_BODY_TOO_LARGE', async () => {
    const result = await attack((body) => post(`/v1/${renderCode}`, body, { 'content-type': 'application/json', 'dma-api-key': key }), ' ')
    expectRefusedEarly(result)
    expect(JSON.parse(result.body)).toMatchObject({ success: false, code: 'ERR_BODY_TOO_LARGE' })
    expect((await fetch(`${base}/v1/${renderCode}`, { method: 'POST', headers: { 'content-type': 'application/json', 'dma-api-key': key }, body: '{}' })).status).toBe(200)
  }, 60_000)

  it('on POST /bulk (a render key): 413 ERR_BODY_TOO_LARGE', async () => {
    const result = await attack((body) => post('/bulk', body, { 'content-type': 'application/json', 'dma-api-key': key }), ' ')
    expectRefusedEarly(result)
    expect(JSON.parse(result.body)).toMatchObject({ success: false, code: 'ERR_BODY_TOO_LARGE' })
    expect((await fetch(`${base}/bulk`, { method: 'POST', headers: { 'content-type': 'application/json', 'dma-api-key': key }, body: JSON.stringify({ items: [{ designId: renderCode }] }) })).status).toBe(200)
  }, 60_000)

  it('on POST /api/mcp (a bearer token; the MCP SDK reads bodies whole): 413 before the SDK sees it', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${accessToken}` }
    const result = await attack((body) => post('/api/mcp', body, headers), ' ')
    expectRefusedEarly(result)
    expect(JSON.parse(result.body)).toMatchObject({ success: false, code: 'ERR_BODY_TOO_LARGE' })
    const next = await fetch(`${base}/api/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) })
    expect(next.status).toBe(200)
  }, 60_000)

  it.each(['/designs/v2/:id/export', '/designs/v2/:id/export/jobs', '/settings/api-keys'])('on POST %s (a bearer token): 413 ERR_BODY_TOO_LARGE', async (path) => {
    const result = await attack((body) => post(path.replace(':id', designId), body, { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` }), ' ')
    expectRefusedEarly(result)
    expect(JSON.parse(result.body)).toMatchObject({ success: false, code: 'ERR_BODY_TOO_LARGE' })
    expect((await fetch(`${base}/designs/v2`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200)
  }, 60_000)
})
