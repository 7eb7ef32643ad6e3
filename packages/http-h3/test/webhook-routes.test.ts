// The webhook secret routes of the route table on a tiny h3 app, mounted by `mountRoutes` as the
// app mounts them, with a stub bearer verifier (token → user and scopes) and real secrets over
// the memory auth state store.
import { createWebhookSecrets, isWebhookSecret } from '@litho/core'
import { BearerTokenError, type BearerVerifier } from '@litho/auth-adapters'
import { memoryAuthStateStore } from '@litho/storage-adapters'
import { H3 } from 'h3'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Scope } from '../src/app/bearer.js'
import type { LithoAppOptions } from '../src/app/create-litho-app.js'
import { json } from '../src/app/errors.js'
import { createAppContext } from '../src/routes/app-context.js'
import { mountRoutes } from '../src/routes/mount-routes.js'
import { getWebhookSecretRoute, rotateWebhookSecretRoute } from '../src/routes/settings-routes.js'

const BASE = 'https://api.litho.test'

const TOKENS: Record<string, { userId: string; scopes: Scope[] }> = {
  'alice-rw': { userId: 'u_alice', scopes: ['read', 'write'] },
  'alice-r': { userId: 'u_alice', scopes: ['read'] },
  'bob-rw': { userId: 'u_bob', scopes: ['read', 'write'] },
}

const verifier: BearerVerifier = {
  async verify(token, { resource }) {
    const principal = TOKENS[token]
    if (!principal) throw new BearerTokenError('The access token is not valid')
    return { ...principal, clientId: 'c', audience: resource, issuer: `${BASE}/org/acme`, orgId: 'acme', tokenId: 't', expiresAt: new Date(Date.now() + 60_000) }
  },
}

let app: H3
beforeEach(() => {
  app = new H3()
  app.get('/health', () => json({ ok: true }))
  // Only what these two routes read: the accounts, the verifier and the webhook secrets.
  const options = {
    accounts: { getUser: async (id: string) => ({ id, plan: 'free' }) },
    bearer: verifier,
    jobs: { jobs: {}, queue: {}, webhooks: { secrets: createWebhookSecrets(memoryAuthStateStore()) } },
    onError: () => {},
  } as unknown as LithoAppOptions
  mountRoutes(app, [getWebhookSecretRoute, rotateWebhookSecretRoute], createAppContext(options, { renderUrl: BASE, baseUrl: BASE, authUrl: BASE }, () => '{}'))
})

const call = (path: string, init: RequestInit & { token?: string } = {}) => {
  const { token, ...rest } = init
  const headers = new Headers(rest.headers)
  if (token) headers.set('authorization', `Bearer ${token}`)
  return app.fetch(new Request(`${BASE}${path}`, { ...rest, headers }))
}
const secretOf = async (response: Response) => {
  expect(response.status).toBe(200)
  const body = (await response.json()) as { success: boolean; secret: string }
  expect(body.success).toBe(true)
  expect(Object.keys(body).sort()).toEqual(['secret', 'success'])
  return body.secret
}

describe('webhook secret routes', () => {
  it('declares both routes with the write scope (the secret lets its holder forge webhooks)', () => {
    expect([getWebhookSecretRoute.auth, rotateWebhookSecretRoute.auth]).toEqual([{ kind: 'bearer', scope: 'write' }, { kind: 'bearer', scope: 'write' }])
    expect([getWebhookSecretRoute.path, rotateWebhookSecretRoute.path]).toEqual(['/settings/webhook-secret', '/settings/webhook-secret/rotate'])
  })

  it('GET /settings/webhook-secret creates the secret on first use, then returns the same one, uncached', async () => {
    const response = await call('/settings/webhook-secret', { token: 'alice-rw' })
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const secret = await secretOf(response)
    expect(isWebhookSecret(secret)).toBe(true)
    expect(await secretOf(await call('/settings/webhook-secret', { token: 'alice-rw' }))).toBe(secret)
    // Another user has another secret.
    expect(await secretOf(await call('/settings/webhook-secret', { token: 'bob-rw' }))).not.toBe(secret)
  })

  it('POST /settings/webhook-secret/rotate returns a new secret that replaces the old one at once', async () => {
    const old = await secretOf(await call('/settings/webhook-secret', { token: 'alice-rw' }))
    const bob = await secretOf(await call('/settings/webhook-secret', { token: 'bob-rw' }))
    const response = await call('/settings/webhook-secret/rotate', { method: 'POST', token: 'alice-rw' })
    expect(response.headers.get('cache-control')).toBe('no-store')
    const rotated = await secretOf(response)
    expect(isWebhookSecret(rotated)).toBe(true)
    expect(rotated).not.toBe(old)
    expect(await secretOf(await call('/settings/webhook-secret', { token: 'alice-rw' }))).toBe(rotated)
    // Only the caller's secret changed.
    expect(await secretOf(await call('/settings/webhook-secret', { token: 'bob-rw' }))).toBe(bob)
  })

  it('a read-only token gets 403 on both routes; no token gets 401', async () => {
    expect((await call('/settings/webhook-secret', { token: 'alice-r' })).status).toBe(403)
    expect((await call('/settings/webhook-secret/rotate', { method: 'POST', token: 'alice-r' })).status).toBe(403)
    expect((await call('/settings/webhook-secret')).status).toBe(401)
    expect((await call('/settings/webhook-secret/rotate', { method: 'POST' })).status).toBe(401)
  })

  it('answers CORS preflights without auth', async () => {
    const get = await call('/settings/webhook-secret', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } })
    expect(get.status).toBe(204)
    expect(get.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS')
    expect(get.headers.get('access-control-allow-origin')).toBe('*')
    expect(get.headers.get('access-control-allow-headers')).toMatch(/Authorization/)
    const rotate = await call('/settings/webhook-secret/rotate', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } })
    expect(rotate.status).toBe(204)
    expect(rotate.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS')
  })

  it('GET on the rotate path does not rotate', async () => {
    const secret = await secretOf(await call('/settings/webhook-secret', { token: 'alice-rw' }))
    const response = await call('/settings/webhook-secret/rotate', { token: 'alice-rw' })
    expect(response.status).not.toBe(200)
    expect(await secretOf(await call('/settings/webhook-secret', { token: 'alice-rw' }))).toBe(secret)
  })
})
