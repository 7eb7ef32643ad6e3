// A signed-in user of a running `litho serve`: created with a password, then taken through
// registration, the sign-in and consent forms and the code grant; returns an access token.
import { createHash, randomBytes } from 'node:crypto'
import { hashPassword } from '@litho/auth-adapters'
import type { LithoServer } from '../src/server.js'
import type { Browser as BrowserClass } from './_browser.js'

export async function seedSignedInUser(
  server: LithoServer,
  call: (url: string, init?: RequestInit) => Promise<Response>,
  publicUrl: string,
  Browser: typeof BrowserClass,
  scope = 'read write',
): Promise<{ userId: string; token: string }> {
  const userId = `u_${randomBytes(8).toString('base64url')}`
  const email = `${userId.toLowerCase()}@example.com`
  const now = new Date().toISOString()
  await server.backends.accounts.createUser({ id: userId, email, passwordHash: await hashPassword('pw-1234567890', { N: 2 ** 10, r: 8, p: 1 }), plan: 'pro', createdAt: now, updatedAt: now })
  const redirectUri = 'http://127.0.0.1:7777/cb'
  const registered = await call(`${publicUrl}/api/v1/auth/oauth2/register?org=${server.orgId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }) })
  const { client_id } = (await registered.json()) as { client_id: string }
  const verifier = randomBytes(32).toString('base64url')
  const url = new URL(`${publicUrl}/api/v1/auth/oauth2/authorize`)
  for (const [k, v] of Object.entries({ client_id, redirect_uri: redirectUri, response_type: 'code', scope, state: 's', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' })) url.searchParams.set(k, v)
  const redirect = await new Browser(call).authorize(url.href, { email, password: 'pw-1234567890' })
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
  const tokens = (await (await call(`${publicUrl}/api/v1/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id, code_verifier: verifier }) })).json()) as { access_token: string }
  return { userId, token: tokens.access_token }
}
