// The webhook secret routes on a tiny h3 app, with a stub of the bearer wrapper of
// bearer-routes.ts (token → user and scopes, 401/403, CORS headers, errors as JSON) and real
// secrets over the memory auth state store.
import { createWebhookSecrets, isWebhookSecret, type PlanId } from '@litho/core'
import { memoryAuthStateStore } from '@litho/storage-adapters'
import { H3, type H3Event } from 'h3'
import { beforeEach, describe, expect, it } from 'vitest'
import { BEARER_CORS_HEADERS, type Scope } from '../src/app/bearer.js'
import { errorJson, json } from '../src/app/respond.js'
import { WEBHOOK_SECRET_PATHS, mountWebhookSecretRoutes, type BearerRouteWrapper } from '../src/app/webhook-routes.js'

// The real wrapper's signature (bearer-routes.ts) must be accepted where a BearerRouteWrapper is
// expected, so it can be passed in as it is.
type RealRoute = (scope: Scope, fn: (event: H3Event, account: { id: string; plan: PlanId }) => Promise<Response>) => (event: H3Event) => Promise<Response>
const _assignable = (real: RealRoute): BearerRouteWrapper => real
void _assignable

const TOKENS: Record<string, { userId: string; scopes: Scope[] }> = {
  'alice-rw': { userId: 'u_alice', scopes: ['read', 'write'] },
  'alice-r': { userId: 'u_alice', scopes: ['read'] },
  'bob-rw': { userId: 'u_bob', scopes: ['read', 'write'] },
}

/** Records the scope each route was mounted with. */
const mounted: Scope[] = []
const stubRoute: BearerRouteWrapper = (scope, fn) => {
  mounted.push(scope)
  return async (event) => {
    const header = event.req.headers.get('authorization') ?? ''
    const principal = TOKENS[header.replace(/^Bearer /, '')]
    let response: Response
    if (!principal) response = errorJson(401, 'missing credentials', { code: 'ERR_UNAUTHORIZED' }, { 'www-authenticate': 'Bearer' })
    else if (!principal.scopes.includes(scope)) response = errorJson(403, `insufficient scope: this endpoint needs the "${scope}" scope`, { code: 'ERR_INSUFFICIENT_SCOPE' })
    else {
      try {
        response = await fn(event, { id: principal.userId })
      } catch {
        response = errorJson(500, 'internal error', { code: 'ERR_INTERNAL' })
      }
    }
    for (const [name, value] of Object.entries(BEARER_CORS_HEADERS)) response.headers.set(name, value)
    return response
  }
}

let app: H3
beforeEach(() => {
  mounted.length = 0
  app = new H3()
  app.get('/health', () => json({ ok: true }))
  mountWebhookSecretRoutes(app, { route: stubRoute, secrets: createWebhookSecrets(memoryAuthStateStore()) })
})

const call = (path: string, init: RequestInit & { token?: string } = {}) => {
  const { token, ...rest } = init
  const headers = new Headers(rest.headers)
  if (token) headers.set('authorization', `Bearer ${token}`)
  return app.fetch(new Request(`https://api.litho.test${path}`, { ...rest, headers }))
}
const secretOf = async (response: Response) => {
  expect(response.status).toBe(200)
  const body = (await response.json()) as { success: boolean; secret: string }
  expect(body.success).toBe(true)
  expect(Object.keys(body).sort()).toEqual(['secret', 'success'])
  return body.secret
}

describe('webhook secret routes', () => {
  it('mounts both routes with the write scope (the secret lets its holder forge webhooks)', () => {
    expect(mounted).toEqual(['write', 'write'])
    expect(WEBHOOK_SECRET_PATHS).toEqual({ secret: '/settings/webhook-secret', rotate: '/settings/webhook-secret/rotate' })
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
