// The embedded default keeps the authorization server's state under --data: a restart keeps the
// org, its signing keys, registered clients and refresh tokens, so signed-in clients stay signed in.
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hashPassword } from '@litho/auth-adapters'
import { afterAll, expect, it } from 'vitest'
import { startLithoServer, type LithoServer } from '../src/server.js'
import { Browser } from './_browser.js'

const dataDir = mkdtempSync(join(tmpdir(), 'litho-serve-oauth-'))
const PUBLIC = 'http://litho.test'
const running: LithoServer[] = []
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()))
  rmSync(dataDir, { recursive: true, force: true })
})

async function start(env: Record<string, string> = {}): Promise<{ server: LithoServer; call: (url: string, init?: RequestInit) => Promise<Response> }> {
  const server = await startLithoServer({ dataDir, port: 0, threads: 1, publicUrl: PUBLIC, env, log: () => {} })
  running.push(server)
  return { server, call: (url, init) => fetch(url.replace(PUBLIC, `http://127.0.0.1:${server.port}`), init) }
}

it('keeps the org, its keys, clients and refresh tokens across a restart', async () => {
  const first = await start({ LITHO_ORG_ID: 'acme' })
  expect(first.server.orgId).toBe('acme')
  const now = new Date().toISOString()
  await first.server.backends.accounts.createUser({ id: 'u_restart', email: 'restart@example.com', passwordHash: await hashPassword('pw-1234567890', { N: 2 ** 10, r: 8, p: 1 }), plan: 'free', createdAt: now, updatedAt: now })
  const prm = (await (await first.call(`${PUBLIC}/.well-known/oauth-protected-resource`)).json()) as { authorization_servers: string[] }
  expect(prm.authorization_servers).toEqual([`${PUBLIC}/org/acme`])
  const redirectUri = 'http://127.0.0.1:7777/cb'
  const { client_id } = (await (await first.call(`${PUBLIC}/api/v1/auth/oauth2/register?org=acme`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }) })).json()) as { client_id: string }
  const verifier = randomBytes(32).toString('base64url')
  const url = new URL(`${PUBLIC}/api/v1/auth/oauth2/authorize`)
  for (const [k, v] of Object.entries({ client_id, redirect_uri: redirectUri, response_type: 'code', state: 's', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' })) url.searchParams.set(k, v)
  const redirect = await new Browser(first.call).authorize(url.href, { email: 'restart@example.com', password: 'pw-1234567890' })
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
  const tokens = (await (await first.call(`${PUBLIC}/api/v1/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id, code_verifier: verifier }) })).json()) as { access_token: string; refresh_token: string }
  await first.server.close()

  // A different LITHO_ORG_ID does not replace the org the data already has.
  const second = await start({ LITHO_ORG_ID: 'other' })
  expect(second.server.orgId).toBe('acme')
  expect((await second.call(`${PUBLIC}/designs/v2`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200)
  const refreshed = await second.call(`${PUBLIC}/api/v1/auth/oauth2/token?org=acme`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id }) })
  expect(refreshed.status).toBe(200)
}, 60_000)

it('refuses a malformed LITHO_OAUTH_CLIENTS at startup, naming the variable', async () => {
  await expect(startLithoServer({ dataDir: join(dataDir, 'bad'), port: 0, threads: 1, env: { LITHO_OAUTH_CLIENTS: '[{"clientId":"x"}]' }, log: () => {} })).rejects.toThrow(/LITHO_OAUTH_CLIENTS\[0\]\.clientName/)
})
