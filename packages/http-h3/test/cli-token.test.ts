// `litho token create|revoke` (docs/authentication.md, "A token for scripts"): the token it prints
// is accepted by the bearer endpoints of a real `litho serve` (and, minted for the MCP resource,
// by /api/mcp), carries only the scopes asked for, stops working when revoked, and every bad flag
// is a usage error that names it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UsageError, parseTtl, tokenCreateCommand, tokenRevokeCommand, type AdminCommandIo } from '../src/index.js'
import { processFixture } from './_process.js'

const EMAIL = 'script@example.com'
const fixture = processFixture('litho-token-')
let url = ''

const io = (over: Partial<AdminCommandIo> = {}): AdminCommandIo & { out: string[] } => {
  const out: string[] = []
  return { out, writeStdout: (text) => void out.push(text), writeStderr: () => {}, env: {}, ...over }
}
async function mint(...flags: string[]): Promise<Record<string, string | number>> {
  const streams = io()
  expect(await tokenCreateCommand(['--email', EMAIL, '--url', url, '--data', fixture.data, ...flags], streams)).toBe(0)
  expect(streams.out).toHaveLength(1)
  return JSON.parse(streams.out[0]!)
}
const get = (path: string, token: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } })
const mcpInitialize = (token: string) =>
  fetch(`${url}/api/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  })

beforeAll(async () => {
  await fixture.seed(EMAIL, 'a long enough password')
  url = await fixture.serve().ready
}, 60_000)
afterAll(() => fixture.cleanup())

describe('litho token create', () => {
  it('cli › prints one JSON object whose token the bearer endpoints accept', async () => {
    const minted = await mint()
    expect(minted).toMatchObject({ tokenType: 'Bearer', scope: 'read write', audience: url, expiresIn: 3600 })
    expect(Date.parse(String(minted.expiresAt)) - Date.now()).toBeGreaterThan(3590_000)
    const designs = await get('/designs/v2', String(minted.accessToken))
    expect(designs.status).toBe(200)
    expect(((await designs.json()) as { docs: unknown[] }).docs).toHaveLength(1)
    const created = await fetch(`${url}/settings/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${minted.accessToken}`, 'content-type': 'application/json' }, body: '{"name":"from a script"}' })
    expect(created.status).toBe(201)
  })

  it('cli › --scope read gives a token that reads but cannot write (403 naming the scope)', async () => {
    const { accessToken, scope } = await mint('--scope', 'read')
    expect(scope).toBe('read')
    expect((await get('/settings/api-keys', String(accessToken))).status).toBe(200)
    const refused = await fetch(`${url}/settings/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }, body: '{}' })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_scope')
  })

  it('cli › --resource mcp gives a token /api/mcp accepts; the base-URL token is refused there for its audience', async () => {
    const mcp = await mint('--resource', 'mcp')
    expect(mcp.audience).toBe(`${url}/api/mcp`)
    expect((await mcpInitialize(String(mcp.accessToken))).status).toBe(200)
    const full = await mint('--resource', `${url}/api/mcp`)
    expect(full.audience).toBe(`${url}/api/mcp`)
  })

  it('cli › litho token revoke makes the token (and its sign-in) stop working at once', async () => {
    const { accessToken } = await mint('--ttl', '10m')
    expect((await get('/designs/v2', String(accessToken))).status).toBe(200)
    const streams = io()
    expect(await tokenRevokeCommand([String(accessToken), '--url', url, '--data', fixture.data], streams)).toBe(0)
    expect(JSON.parse(streams.out.join(''))).toEqual({ revoked: true })
    const after = await get('/designs/v2', String(accessToken))
    expect(after.status).toBe(401)
    expect(((await after.json()) as { message: string }).message).toContain('revoked')
  })

  it('cli › a token minted for another --url is not accepted (its issuer is not this server)', async () => {
    const streams = io()
    await tokenCreateCommand(['--email', EMAIL, '--url', 'http://127.0.0.1:1', '--data', fixture.data], streams)
    const { accessToken } = JSON.parse(streams.out.join('')) as { accessToken: string }
    expect((await get('/designs/v2', accessToken)).status).toBe(401)
  })

  it.each([
    ['--ttl 59s (below one minute)', ['--ttl', '59s'], '--ttl: expected 60 to 86400 seconds, received 59'],
    ['--ttl 86401s (above 24 hours)', ['--ttl', '86401s'], '--ttl: expected 60 to 86400 seconds, received 86401'],
    ['--ttl without a unit', ['--ttl', '60'], '--ttl: expected a lifetime like 90s, 30m or 1h'],
    ['--scope admin', ['--scope', 'admin'], '--scope: expected one or more of read, write, received "admin"'],
    ['--resource of another server', ['--resource', 'https://elsewhere.example'], '--resource: expected one of'],
    ['--url that is not a URL', ['--url', 'localhost:3000'], '--url: expected the service\'s http(s) address'],
  ])('cli › %s is a usage error naming the flag', async (_name, flags, message) => {
    const streams = io()
    const call = tokenCreateCommand(['--email', EMAIL, '--url', url, '--data', fixture.data, ...flags], streams)
    await expect(call).rejects.toThrow(UsageError)
    await expect(call).rejects.toThrow(message)
    expect(streams.out).toEqual([])
  })

  it('cli › both ends of --ttl are accepted: 60s and 24h', async () => {
    expect((await mint('--ttl', '60s')).expiresIn).toBe(60)
    expect((await mint('--ttl', '24h')).expiresIn).toBe(86_400)
  })

  it('cli › an unknown email and a foreign token are clear errors', async () => {
    await expect(tokenCreateCommand(['--email', 'nobody@example.com', '--url', url, '--data', fixture.data], io())).rejects.toThrow('no user with email nobody@example.com (create one with: litho users create --email nobody@example.com)')
    await expect(tokenRevokeCommand(['not.a.token', '--url', url, '--data', fixture.data], io())).rejects.toThrow('not a live access token of this service')
  })

  it('cli › parseTtl reads s, m and h', () => {
    expect([parseTtl('90s'), parseTtl('30m'), parseTtl('1h')]).toEqual([90, 1800, 3600])
  })

  it('cli › the real binary: litho token create prints only its JSON on stdout', async () => {
    const printed = await fixture.litho('token', 'create', '--email', EMAIL, '--url', url, '--scope', 'read')
    expect(Object.keys(printed).sort()).toEqual(['accessToken', 'audience', 'expiresAt', 'expiresIn', 'scope', 'tokenType'])
    expect((await get('/designs/v2', printed.accessToken!)).status).toBe(200)
  })
})
