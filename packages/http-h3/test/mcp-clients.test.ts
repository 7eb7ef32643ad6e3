// The MCP endpoint against the official MCP TypeScript SDK clients, on a real `litho serve`:
// SDK v2 (`@modelcontextprotocol/client`, 2026-07-28 with version negotiation) and SDK v1
// (`@modelcontextprotocol/sdk`, the 2025 initialize handshake) discover the authorization
// server from the 401, register, send the user through the sign-in and consent pages and
// redeem the code exactly as an MCP host does. Then the scope and audience rules: a `read`
// token may read but not author (403 insufficient_scope, and how each SDK surfaces it), an API
// token is not an MCP token, and a foreign browser Origin is refused.
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hashPassword } from '@litho/auth-adapters'
import {
  Client as ClientV2,
  InsufficientScopeError,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedErrorV2,
  type OAuthClientProvider as ProviderV2,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/client'
import { UnauthorizedError as UnauthorizedErrorV1, type OAuthClientProvider as ProviderV1 } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { SignJWT, decodeJwt, importJWK, type JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLithoServer, type LithoServer } from '../src/server.js'
import { Browser } from './_browser.js'
import { SMALL_DESIGN } from './_harness.js'

const EMAIL = 'mcp-clients@example.com'
const PASSWORD = 'mcp clients battery staple'
const REDIRECT = 'http://127.0.0.1:8090/callback'
const ORG = 'acme'
const TOOLS = ['create_design', 'delete_design', 'get_design', 'get_design_guide', 'get_render_config', 'list_assets', 'list_designs', 'publish_design', 'render_preview', 'update_design', 'upload_asset']

const dataDir = mkdtempSync(join(tmpdir(), 'litho-mcp-clients-'))
let server: LithoServer
let base: string
let mcpUrl: string
let prmUrl: string
let issuer: string
let asMetadata: { issuer: string; authorization_endpoint: string; token_endpoint: string; registration_endpoint: string }
const userId = 'u_mcpclients'
const designId = 'd_mcpclients01'
const renderCode = randomBytes(16).toString('base64url')
const closers: Array<() => Promise<unknown>> = []
/** What the server logged (errors it reported), shown when a tool call fails. */
const serverLog: string[] = []

beforeAll(async () => {
  server = await startLithoServer({ dataDir, port: 0, threads: 1, env: { LITHO_ORG_ID: ORG }, log: (line) => void serverLog.push(line) })
  base = server.url
  mcpUrl = `${base}/api/mcp`
  prmUrl = `${base}/.well-known/oauth-protected-resource/api/mcp`
  issuer = server.oauth.issuer(server.orgId)
  expect(server.orgId).toBe(ORG)
  const now = new Date().toISOString()
  await server.backends.accounts.createUser({ id: userId, email: EMAIL, passwordHash: await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1 }), plan: 'pro', createdAt: now, updatedAt: now })
  await server.backends.designs.create({ id: designId, ownerId: userId, name: 'MCP card', renderCode, design: SMALL_DESIGN, draft: null, createdAt: now, updatedAt: now })
  asMetadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server/org/${ORG}`)).json()) as typeof asMetadata
  expect(asMetadata.issuer).toBe(issuer)
}, 60_000)

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {})
  await server?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** One fetch as a client made it: method, URL, status and the challenge, if any. */
interface Exchange {
  method: string
  url: string
  status: number
  wwwAuthenticate: string | null
  /** The JSON-RPC method(s) of a JSON body, e.g. `initialize`, `tools/call`. */
  rpc?: string
}

/** The real global fetch, recording every exchange (what the SDK fetched, and what came back). */
function recordingFetch(): { fetch: typeof fetch; log: Exchange[] } {
  const log: Exchange[] = []
  const wrapped = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input)
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
    const response = await fetch(input, init)
    let rpc: string | undefined
    if (typeof init?.body === 'string' && /^[[{]/.test(init.body)) {
      const parsed = JSON.parse(init.body) as { method?: string } | Array<{ method?: string }>
      rpc = (Array.isArray(parsed) ? parsed : [parsed]).map((m) => m.method ?? '(response)').join(',')
    }
    log.push({ method, url, status: response.status, wwwAuthenticate: response.headers.get('www-authenticate'), ...(rpc ? { rpc } : {}) })
    return response
  }) as typeof fetch
  return { fetch: wrapped, log }
}

/** An in-memory OAuthClientProvider, as an MCP host keeps one per server; it works for both SDKs. */
class MemoryProvider {
  readonly redirectUrl = REDIRECT
  readonly clientMetadata
  /** Every authorization URL the SDK sent the "user" to. */
  readonly authorizationUrls: URL[] = []
  private client: Record<string, unknown> | undefined
  private saved: Record<string, unknown> | undefined
  private verifier = ''
  private discovery: OAuthDiscoveryState | undefined
  readonly expectedState = randomBytes(16).toString('base64url')

  /**
   * `scope` goes into the client metadata, but both SDKs ask for the scope of the server's
   * challenge (`read write`) first (SEP-835), in registration and authorization alike: a
   * read-only grant comes from narrowing the authorization request (see {@link consent}).
   */
  constructor(scope?: string) {
    this.clientMetadata = {
      client_name: 'Litho MCP test host',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(scope ? { scope } : {}),
    }
  }

  state(): string {
    return this.expectedState
  }
  clientInformation() {
    return this.client as never
  }
  saveClientInformation(info: Record<string, unknown>) {
    this.client = info
  }
  tokens() {
    return this.saved as never
  }
  saveTokens(tokens: Record<string, unknown>) {
    this.saved = tokens
  }
  get savedTokens(): { access_token: string; refresh_token?: string; scope?: string } | undefined {
    return this.saved as never
  }
  get registeredClientId(): string | undefined {
    return this.client?.client_id as string | undefined
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url)
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state
  }
  discoveryState() {
    return this.discovery
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.client = undefined
    if (scope === 'all' || scope === 'tokens') this.saved = undefined
    if (scope === 'all' || scope === 'verifier') this.verifier = ''
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined
  }
}

/**
 * The user's part: opens the last authorization URL (optionally with its `scope` replaced, as a
 * host that asks for less would), signs in, allows; returns the callback URL after checking
 * that it goes to the redirect URI with the client's `state` and the issuer's `iss` (RFC 9207).
 */
async function consent(provider: MemoryProvider, options: { scope?: string } = {}): Promise<URL> {
  const url = new URL(provider.authorizationUrls.at(-1)!.href)
  if (options.scope) url.searchParams.set('scope', options.scope)
  const response = await new Browser(fetch).authorize(url.href, { email: EMAIL, password: PASSWORD })
  expect(response.status).toBe(302)
  const callback = new URL(response.headers.get('location')!)
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT)
  expect(callback.searchParams.get('error')).toBeNull()
  expect(callback.searchParams.get('code')).toBeTruthy()
  expect(callback.searchParams.get('state')).toBe(provider.expectedState)
  expect(callback.searchParams.get('iss')).toBe(issuer)
  return callback
}

/** The `key="value"` parameters of a `WWW-Authenticate: Bearer …` challenge. */
function challengeParams(header: string): Record<string, string> {
  return Object.fromEntries([...header.matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]))
}

/** The JSON-RPC message of a response: plain JSON, or the first `data:` event of an SSE stream (2025-era requests are answered over SSE). */
async function readRpc(response: Response): Promise<unknown> {
  const body = await response.text()
  if (!/^text\/event-stream/.test(response.headers.get('content-type') ?? '')) return JSON.parse(body)
  const data = body.split('\n').find((line) => line.startsWith('data:'))
  expect(data, body).toBeDefined()
  return JSON.parse(data!.slice(5))
}

const text = (result: unknown): string => ((result as { content: Array<{ type: string; text?: string }> }).content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n')
const paths = (log: Exchange[]) => log.map((e) => `${e.method} ${new URL(e.url).pathname}`)

/** v2: connect (401), consent, finishAuth with the callback's params; returns a connected client. */
async function authorizeV2(provider: MemoryProvider, recorder: ReturnType<typeof recordingFetch>, consentOptions: { scope?: string } = {}, transportOptions: { onInsufficientScope?: 'reauthorize' | 'throw' } = {}) {
  const first = new TransportV2(new URL(mcpUrl), { authProvider: provider as unknown as ProviderV2, fetch: recorder.fetch })
  const unauthorized = new ClientV2({ name: 'litho-test-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
  await expect(unauthorized.connect(first)).rejects.toBeInstanceOf(UnauthorizedErrorV2)
  expect(provider.authorizationUrls).toHaveLength(1)
  const callback = await consent(provider, consentOptions)
  await first.finishAuth(callback.searchParams)
  await unauthorized.close().catch(() => {})
  const transport = new TransportV2(new URL(mcpUrl), { authProvider: provider as unknown as ProviderV2, fetch: recorder.fetch, ...transportOptions })
  const client = new ClientV2({ name: 'litho-test-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
  await client.connect(transport)
  closers.push(() => client.close())
  return { client, transport }
}

/** v1: connect (401), consent, finishAuth(code); returns a connected client. */
async function authorizeV1(provider: MemoryProvider, recorder: ReturnType<typeof recordingFetch>, consentOptions: { scope?: string } = {}) {
  const first = new TransportV1(new URL(mcpUrl), { authProvider: provider as unknown as ProviderV1, fetch: recorder.fetch })
  const unauthorized = new ClientV1({ name: 'litho-test-v1', version: '1.0.0' })
  await expect(unauthorized.connect(first)).rejects.toBeInstanceOf(UnauthorizedErrorV1)
  expect(provider.authorizationUrls).toHaveLength(1)
  const callback = await consent(provider, consentOptions)
  await first.finishAuth(callback.searchParams.get('code')!)
  await unauthorized.close().catch(() => {})
  const transport = new TransportV1(new URL(mcpUrl), { authProvider: provider as unknown as ProviderV1, fetch: recorder.fetch })
  const client = new ClientV1({ name: 'litho-test-v1', version: '1.0.0' })
  await client.connect(transport)
  closers.push(() => client.close())
  return { client, transport }
}

/** A token by hand (register, PKCE, consent, code grant) for `resource`. */
async function manualToken(resource: string, scope = 'read write'): Promise<{ access_token: string; scope: string }> {
  const registered = await fetch(asMetadata.registration_endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'manual', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }) })
  expect(registered.status).toBe(201)
  const { client_id } = (await registered.json()) as { client_id: string }
  const verifier = randomBytes(32).toString('base64url')
  const url = new URL(asMetadata.authorization_endpoint)
  for (const [k, v] of Object.entries({ client_id, redirect_uri: REDIRECT, response_type: 'code', scope, state: 'manual', resource, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' })) url.searchParams.set(k, v)
  const redirect = await new Browser(fetch).authorize(url.href, { email: EMAIL, password: PASSWORD })
  expect(redirect.status).toBe(302)
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
  const response = await fetch(asMetadata.token_endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id, code_verifier: verifier, resource }) })
  expect(response.status).toBe(200)
  return (await response.json()) as { access_token: string; scope: string }
}

/** A raw JSON-RPC POST to the MCP endpoint (a 2025 `initialize`, which every era of the server answers). */
function rawMcp(headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  })
}

describe('SDK v2 client (@modelcontextprotocol/client)', () => {
  it('discovers, registers, signs in through the pages and uses the tools', async () => {
    const provider = new MemoryProvider()
    const recorder = recordingFetch()
    const { client } = await authorizeV2(provider, recorder)

    // The discovery path of the MCP authorization spec, in order.
    const seen = paths(recorder.log)
    const index = (entry: string) => {
      const i = seen.indexOf(entry)
      expect(i, `${entry} in ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(0)
      return i
    }
    const first401 = recorder.log.findIndex((e) => e.status === 401)
    expect(recorder.log[first401]).toMatchObject({ method: 'POST', url: mcpUrl })
    expect(recorder.log[first401]!.wwwAuthenticate).toBe(`Bearer resource_metadata="${prmUrl}", scope="read write"`)
    const prm = index('GET /.well-known/oauth-protected-resource/api/mcp')
    const asm = index(`GET /.well-known/oauth-authorization-server/org/${ORG}`)
    const register = index(`POST ${new URL(asMetadata.registration_endpoint).pathname}`)
    const token = index(`POST ${new URL(asMetadata.token_endpoint).pathname}`)
    expect(first401).toBeLessThan(prm)
    expect(prm).toBeLessThan(asm)
    expect(asm).toBeLessThan(register)
    expect(register).toBeLessThan(token)
    // The request the user was sent with: PKCE S256, the MCP resource, the challenged scope.
    const authorizeUrl = provider.authorizationUrls[0]!
    expect(authorizeUrl.href.startsWith(asMetadata.authorization_endpoint)).toBe(true)
    expect(authorizeUrl.searchParams.get('client_id')).toBe(provider.registeredClientId)
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorizeUrl.searchParams.get('resource')).toBe(mcpUrl)
    expect(authorizeUrl.searchParams.get('scope')?.split(' ').sort()).toEqual(['read', 'write'])
    expect(provider.savedTokens?.scope).toBe('read write')
    expect(provider.savedTokens?.refresh_token).toBeTruthy()

    // 2026-07-28 server discovery, not the initialize handshake.
    expect(client.getProtocolEra()).toBe('modern')
    expect(client.getNegotiatedProtocolVersion()).toMatch(/^2026-/)
    const rpcs = recorder.log.filter((e) => e.url === mcpUrl && e.status < 400).map((e) => e.rpc)
    expect(rpcs).toContain('server/discover')
    expect(rpcs).not.toContain('initialize')
    expect(client.getServerVersion()?.name).toBe('litho')

    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS)
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object')

    const listed = await client.callTool({ name: 'list_designs', arguments: {} })
    expect(listed.isError).toBeFalsy()
    const list = listed.structuredContent as { docs: Array<{ _id: string; name: string }> }
    expect(list.docs).toEqual([expect.objectContaining({ _id: designId, name: 'MCP card' })])

    const got = await client.callTool({ name: 'get_design', arguments: { id: designId } })
    expect(got.isError).toBeFalsy()
    expect(got.structuredContent).toMatchObject({ _id: designId, name: 'MCP card', renderCode, design: { version: 2, name: 'Small card', width: 240, height: 160 } })
    expect(got.structuredContent).not.toHaveProperty('draft') // only present when there is one
    expect(JSON.parse(text(got))).toMatchObject({ _id: designId, renderCode })

    const missing = await client.callTool({ name: 'get_design', arguments: { id: 'd_doesnotexist' } })
    expect(missing.isError).toBe(true)

    const guide = await client.callTool({ name: 'get_design_guide', arguments: {} })
    expect(guide.isError).toBeFalsy()
    const markdown = text(guide)
    for (const type of ['text', 'image', 'shape', 'qrcode', 'barcode', 'group']) expect(markdown).toContain(`\`${type}\``)

    // Every MCP request after sign-in carried the token and succeeded.
    const after = recorder.log.slice(token + 1).filter((e) => e.url === mcpUrl)
    expect(after.length).toBeGreaterThan(0)
    for (const e of after) expect(e.status, `${e.method} ${e.url}`).toBeLessThan(400)
  }, 60_000)
})

describe('SDK v1 client (@modelcontextprotocol/sdk)', () => {
  it('does the same dance with finishAuth(code) and speaks the 2025 initialize handshake', async () => {
    const provider = new MemoryProvider()
    const recorder = recordingFetch()
    const { client } = await authorizeV1(provider, recorder)

    const seen = paths(recorder.log)
    expect(seen).toContain('GET /.well-known/oauth-protected-resource/api/mcp')
    expect(seen).toContain(`GET /.well-known/oauth-authorization-server/org/${ORG}`)
    expect(seen).toContain(`POST ${new URL(asMetadata.registration_endpoint).pathname}`)
    expect(seen).toContain(`POST ${new URL(asMetadata.token_endpoint).pathname}`)
    expect(provider.authorizationUrls[0]!.searchParams.get('resource')).toBe(mcpUrl)
    expect(provider.savedTokens?.scope).toBe('read write')

    // The 2025 handshake: initialize negotiated a 2025 revision, and the server said who it is.
    expect(client.getServerVersion()?.name).toBe('litho')
    expect(client.getServerCapabilities()?.tools).toBeDefined()
    const ok = recorder.log.filter((e) => e.url === mcpUrl && e.status < 400).map((e) => `${e.method} ${e.rpc ?? ''} ${e.status}`.replace('  ', ' '))
    expect(ok.slice(0, 2)).toEqual(['POST initialize 200', 'POST notifications/initialized 202'])
    expect(ok).not.toContain('POST server/discover 200')
    expect((client.transport as TransportV1 | undefined)?.protocolVersion).toMatch(/^2025-/)
    // The optional GET stream of the 2025 transport (opened in the background, so maybe not yet):
    // a stateless server answers 405, which v1 tolerates.
    for (const e of recorder.log.filter((e) => e.method === 'GET' && e.url === mcpUrl)) expect(e.status).toBe(405)

    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS)

    const got = await client.callTool({ name: 'get_design', arguments: { id: designId } })
    expect(got.isError).toBeFalsy()
    expect(got.structuredContent).toMatchObject({ _id: designId, name: 'MCP card', renderCode, design: { version: 2 } })
  }, 60_000)
})

describe('scope enforcement', () => {
  const createArgs = { name: 'Should not exist', document: SMALL_DESIGN }
  /** The 403 of a changing tool: RFC 6750 `insufficient_scope`, the whole scope to ask for, and where to look it up. */
  const expectInsufficientScope = (header: string | null) => {
    expect(header).toMatch(/^Bearer error="insufficient_scope"/)
    expect(challengeParams(header!)).toMatchObject({ error: 'insufficient_scope', scope: 'read write', resource_metadata: prmUrl })
  }

  it('SDK v2: a read token reads; create_design is a 403 insufficient_scope (throw mode surfaces InsufficientScopeError)', async () => {
    const provider = new MemoryProvider('read')
    const recorder = recordingFetch()
    const { client } = await authorizeV2(provider, recorder, { scope: 'read' }, { onInsufficientScope: 'throw' })
    expect(provider.savedTokens?.scope).toBe('read')

    const listed = await client.callTool({ name: 'list_designs', arguments: {} })
    expect(listed.isError).toBeFalsy()

    const error = await client.callTool({ name: 'create_design', arguments: createArgs }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(InsufficientScopeError)
    expect((error as InsufficientScopeError).requiredScope).toBe('read write')
    expect((error as InsufficientScopeError).resourceMetadataUrl?.href).toBe(prmUrl)
    const refused = recorder.log.filter((e) => e.status === 403)
    expect(refused).toHaveLength(1)
    expect(refused[0]!.url).toBe(mcpUrl)
    expectInsufficientScope(refused[0]!.wwwAuthenticate)
    expect((await server.backends.designs.listByOwner(userId, { offset: 0, limit: 100 })).items.map((d) => d.name)).not.toContain('Should not exist')
  }, 60_000)

  it('SDK v2: by default the 403 starts step-up authorization for "read write"; after consent the call succeeds', async () => {
    const provider = new MemoryProvider('read')
    const recorder = recordingFetch()
    const { client, transport } = await authorizeV2(provider, recorder, { scope: 'read' })
    expect(provider.savedTokens?.scope).toBe('read')

    const before = recorder.log.length
    await expect(client.callTool({ name: 'create_design', arguments: createArgs })).rejects.toBeInstanceOf(UnauthorizedErrorV2)
    // One 403, then straight to the user: no refresh (it cannot widen scope), no new registration.
    const exchanges = recorder.log.slice(before)
    expect(exchanges.map((e) => `${e.method} ${new URL(e.url).pathname} ${e.rpc ?? ''} ${e.status}`)).toEqual(['POST /api/mcp tools/call 403'])
    expectInsufficientScope(exchanges[0]!.wwwAuthenticate)
    // A fresh authorization request (refresh cannot widen scope), for the challenged scope.
    expect(provider.authorizationUrls).toHaveLength(2)
    const stepUp = provider.authorizationUrls[1]!
    expect(stepUp.searchParams.get('scope')?.split(' ').sort()).toEqual(['read', 'write'])
    expect(stepUp.searchParams.get('resource')).toBe(mcpUrl)
    expect(stepUp.searchParams.get('client_id')).toBe(provider.authorizationUrls[0]!.searchParams.get('client_id'))

    // The user allows the wider scope; the same client then may author.
    const callback = await consent(provider)
    await transport.finishAuth(callback.searchParams)
    expect(provider.savedTokens?.scope).toBe('read write')
    const created = await client.callTool({ name: 'create_design', arguments: { name: 'Stepped up', document: SMALL_DESIGN } })
    expect(created.isError, `${text(created)}\n${serverLog.join('\n')}`).toBeFalsy()
    const record = created.structuredContent as { _id: string; name: string }
    expect(record.name).toBe('Stepped up')
    const deleted = await client.callTool({ name: 'delete_design', arguments: { id: record._id } })
    expect(deleted.isError, text(deleted)).toBeFalsy()
  }, 60_000)

  it('SDK v1: a read token reads; create_design gets 403, a refresh (which cannot widen scope), 403 again, then StreamableHTTPError 403', async () => {
    const provider = new MemoryProvider('read')
    const recorder = recordingFetch()
    const { client } = await authorizeV1(provider, recorder, { scope: 'read' })
    expect(provider.savedTokens?.scope).toBe('read')

    const listed = await client.callTool({ name: 'list_designs', arguments: {} })
    expect(listed.isError).toBeFalsy()

    const before = recorder.log.length
    const error = await client.callTool({ name: 'create_design', arguments: createArgs }).then(
      () => undefined,
      (e: unknown) => e,
    )
    // v1 "upscopes" through auth(), which has a refresh token and so refreshes instead of asking
    // the user; the refreshed token is still `read`, the identical second 403 ends it.
    expect(error).toBeInstanceOf(StreamableHTTPError)
    expect((error as StreamableHTTPError).code).toBe(403)
    const exchanges = recorder.log.slice(before)
    expect(exchanges.map((e) => `${e.method} ${new URL(e.url).pathname} ${e.status}`)).toEqual([
      'POST /api/mcp 403',
      `POST ${new URL(asMetadata.token_endpoint).pathname} 200`,
      'POST /api/mcp 403',
    ])
    expectInsufficientScope(exchanges[0]!.wwwAuthenticate)
    expectInsufficientScope(exchanges[2]!.wwwAuthenticate)
    expect(provider.authorizationUrls).toHaveLength(1)
    expect(provider.savedTokens?.scope).toBe('read')
    expect((await server.backends.designs.listByOwner(userId, { offset: 0, limit: 100 })).items.map((d) => d.name)).not.toContain('Should not exist')
  }, 60_000)

  it('raw HTTP: 401 challenge without a token, unauthenticated preflight, foreign Origin refused', async () => {
    const none = await rawMcp()
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${prmUrl}", scope="read write"`)
    expect(none.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/i)

    const prm = await fetch(prmUrl)
    expect(prm.status).toBe(200)
    expect(await prm.json()).toMatchObject({ resource: mcpUrl, authorization_servers: [issuer], scopes_supported: ['read', 'write'] })

    const preflight = await fetch(mcpUrl, { method: 'OPTIONS', headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-expose-headers')).toMatch(/(^|,\s*)WWW-Authenticate(\s*,|$)/i)
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/)
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization')

    // The MCP token works, from no Origin and from the server's own; a foreign browser Origin is refused.
    const mcp = await manualToken(mcpUrl)
    const ok = await rawMcp({ authorization: `Bearer ${mcp.access_token}` })
    expect(ok.status).toBe(200)
    expect(((await readRpc(ok)) as { result?: { serverInfo?: { name?: string } } }).result?.serverInfo?.name).toBe('litho')
    expect((await rawMcp({ authorization: `Bearer ${mcp.access_token}`, origin: new URL(base).origin })).status).toBe(200)
    const evil = await rawMcp({ authorization: `Bearer ${mcp.access_token}`, origin: 'https://evil.example' })
    expect(evil.status).toBe(403)
    expect(evil.headers.get('www-authenticate')).toBeNull()
    // The Origin is checked before the token: a foreign page is refused even without one.
    expect((await rawMcp({ origin: 'https://evil.example' })).status).toBe(403)
  }, 60_000)
})

describe('audiences: the API token (resource = the API base address) and the MCP endpoint\'s own', () => {
  /** A client that sends `token` as it is, with no OAuth provider (a host that followed the documented flow). */
  async function connectWithToken(token: string) {
    const transport = new TransportV2(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
    const client = new ClientV2({ name: 'litho-test-static', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
    await client.connect(transport)
    closers.push(() => client.close())
    return client
  }

  /** `token` signed again by the org's own key with `claims` changed: a token this server's keys vouch for, but for someone else. */
  async function resigned(token: string, claims: Record<string, unknown>): Promise<string> {
    const [stored] = (await server.backends.authState.get(`org.${ORG}.keys`)) as Array<{ kid: string; privateJwk: JWK }>
    const key = await importJWK(stored!.privateJwk, 'ES256')
    return new SignJWT({ ...decodeJwt(token), ...claims }).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: stored!.kid }).sign(key)
  }

  it('the documented flow (code + PKCE, resource = base): tools/list and get_design work at /api/mcp, and the same token at the REST API', async () => {
    const api = await manualToken(base)
    expect(decodeJwt(api.access_token).aud).toBe(base)
    const client = await connectWithToken(api.access_token)
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS)
    const got = await client.callTool({ name: 'get_design', arguments: { id: designId } })
    expect(got.isError, text(got)).toBeFalsy()
    expect(text(got)).toContain('MCP card')
    expect((await fetch(`${base}/designs/v2`, { headers: { authorization: `Bearer ${api.access_token}` } })).status).toBe(200)
  }, 60_000)

  it('the SDK-discovery flow (resource = …/api/mcp) still works at /api/mcp, and is still not a REST API token', async () => {
    const mcp = await manualToken(mcpUrl)
    expect(decodeJwt(mcp.access_token).aud).toBe(mcpUrl)
    const client = await connectWithToken(mcp.access_token)
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS)
    const rest = await fetch(`${base}/designs/v2`, { headers: { authorization: `Bearer ${mcp.access_token}` } })
    expect(rest.status).toBe(401)
    expect(rest.headers.get('www-authenticate')).toContain('another resource')
  }, 60_000)

  it('a token for a foreign resource, or from a foreign issuer, is refused at /api/mcp and at the REST API', async () => {
    const api = await manualToken(base)
    const foreign = [
      await resigned(api.access_token, { aud: 'https://other-api.example' }),
      await resigned(api.access_token, { aud: `${base}/api/other` }),
      await resigned(api.access_token, { aud: [`https://other-api.example`, `${base}/api/mcp/extra`] }),
      await resigned(api.access_token, { iss: 'https://evil.example/org/acme' }),
    ]
    for (const token of foreign) {
      const atMcp = await rawMcp({ authorization: `Bearer ${token}` })
      expect(atMcp.status).toBe(401)
      expect(atMcp.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
      expect(atMcp.headers.get('www-authenticate')).toContain(`resource_metadata="${prmUrl}"`)
      const atRest = await fetch(`${base}/designs/v2`, { headers: { authorization: `Bearer ${token}` } })
      expect(atRest.status).toBe(401)
      expect(atRest.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
    }
    // The re-signing itself is sound: the same token with its own audience is accepted.
    expect((await rawMcp({ authorization: `Bearer ${await resigned(api.access_token, {})}` })).status).toBe(200)
  }, 60_000)
})
