// Per-user webhook secrets in the auth state store: created once with an atomic add (two
// instances agree), replaced at once by rotate, in the Standard Webhooks `whsec_` format.
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import type { AuthStateStore } from '../../src/contracts/auth-state-store.js'
import { LithoError } from '../../src/errors.js'
import { createWebhookSecrets, generateWebhookSecret, isWebhookSecret, webhookSecretKey } from '../../src/webhooks/index.js'

/**
 * A minimal in-memory AuthStateStore with the contract's atomic add/swap, and a macrotask of
 * latency on every call so that concurrent callers really interleave (read, read, add, add).
 */
function memoryStore(): AuthStateStore & { data: Map<string, unknown>; calls: string[] } {
  const data = new Map<string, unknown>()
  const calls: string[] = []
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve))
  const copy = (value: unknown) => (value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown))
  return {
    name: 'test-memory',
    capabilities: { persistent: false, shared: false },
    data,
    calls,
    async get(key) {
      calls.push(`get ${key}`)
      await tick()
      return copy(data.get(key))
    },
    async set(key, value) {
      calls.push(`set ${key}`)
      await tick()
      data.set(key, copy(value))
    },
    async swap(key, value) {
      calls.push(`swap ${key}`)
      await tick()
      const previous = copy(data.get(key))
      data.set(key, copy(value))
      return previous
    },
    async add(key, value) {
      calls.push(`add ${key}`)
      await tick()
      if (data.has(key)) return false
      data.set(key, copy(value))
      return true
    },
    async delete(key) {
      calls.push(`delete ${key}`)
      await tick()
      return data.delete(key)
    },
  }
}

describe('createWebhookSecrets', () => {
  it('get creates a whsec_ secret on first use, under whsec.<userId>, and returns the same one afterwards', async () => {
    const store = memoryStore()
    const secrets = createWebhookSecrets(store)
    const first = await secrets.get('u_1')
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(isWebhookSecret(first)).toBe(true)
    expect(Buffer.from(first.slice(6), 'base64')).toHaveLength(32)
    expect(await secrets.get('u_1')).toBe(first)
    expect(webhookSecretKey('u_1')).toBe('whsec.u_1')
    expect([...store.data.keys()]).toEqual(['whsec.u_1'])
    expect(store.data.get('whsec.u_1')).toMatchObject({ secret: first, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })
    expect(store.calls).toContain('add whsec.u_1')
  })

  it('two concurrent gets on a fresh store (two instances on one backend) return the same secret', async () => {
    const store = memoryStore()
    const a = createWebhookSecrets(store)
    const b = createWebhookSecrets(store)
    const results = await Promise.all([a.get('u_race'), b.get('u_race'), a.get('u_race'), b.get('u_race')])
    expect(new Set(results).size).toBe(1)
    expect(store.calls.filter((c) => c === 'add whsec.u_race').length).toBeGreaterThan(1)
    expect((store.data.get('whsec.u_race') as { secret: string }).secret).toBe(results[0])
  })

  it('users have different secrets', async () => {
    const secrets = createWebhookSecrets(memoryStore())
    expect(await secrets.get('u_a')).not.toBe(await secrets.get('u_b'))
  })

  it('rotate replaces the secret at once: get returns the new one, deliveries signed with the old one no longer verify', async () => {
    const store = memoryStore()
    const secrets = createWebhookSecrets(store)
    const old = await secrets.get('u_2')
    const rotated = await secrets.rotate('u_2')
    expect(isWebhookSecret(rotated)).toBe(true)
    expect(rotated).not.toBe(old)
    expect(await secrets.get('u_2')).toBe(rotated)
    expect(store.calls).toContain('swap whsec.u_2')

    const now = new Date()
    const body = '{"type":"export.completed"}'
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': new Webhook(old).sign('evt_1', now, body) }
    expect(() => new Webhook(rotated).verify(body, headers)).toThrow()
  })

  it('rotate on a user without a secret creates one', async () => {
    const secrets = createWebhookSecrets(memoryStore())
    const rotated = await secrets.rotate('u_new')
    expect(await secrets.get('u_new')).toBe(rotated)
  })

  it('the secret works with standardwebhooks (sign and verify round trip)', async () => {
    const secret = await createWebhookSecrets(memoryStore()).get('u_3')
    const now = new Date()
    const signature = new Webhook(secret).sign('evt_9', now, '{"a":1}')
    expect(new Webhook(secret).verify('{"a":1}', { 'webhook-id': 'evt_9', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature })).toEqual({ a: 1 })
  })

  it('a malformed stored value is an ERR_STORAGE error that does not echo it', async () => {
    const store = memoryStore()
    store.data.set('whsec.u_bad', { secret: 'whsec_leaky', createdAt: 'x' })
    const error = await createWebhookSecrets(store).get('u_bad').then(() => undefined, (e: unknown) => e)
    expect(LithoError.isInstance(error)).toBe(true)
    expect((error as LithoError).code).toBe('ERR_STORAGE')
    expect((error as LithoError).message).not.toContain('leaky')
    // rotate repairs it
    const rotated = await createWebhookSecrets(store).rotate('u_bad')
    expect(await createWebhookSecrets(store).get('u_bad')).toBe(rotated)
  })

  it('rejects bad user ids and stores with TypeErrors', async () => {
    const secrets = createWebhookSecrets(memoryStore())
    for (const bad of ['', 'a.b', 'a:b', 'x'.repeat(65), 42, undefined]) {
      await expect(secrets.get(bad as never), String(bad)).rejects.toThrow(TypeError)
      await expect(secrets.rotate(bad as never), String(bad)).rejects.toThrow(TypeError)
    }
    expect(() => createWebhookSecrets(undefined as never)).toThrow(TypeError)
    expect(() => createWebhookSecrets({} as never)).toThrow(TypeError)
  })
})

describe('secret format', () => {
  it('generateWebhookSecret gives distinct whsec_ secrets of 32 random bytes', () => {
    const all = new Set(Array.from({ length: 50 }, generateWebhookSecret))
    expect(all.size).toBe(50)
    for (const s of all) expect(isWebhookSecret(s)).toBe(true)
  })

  it('isWebhookSecret accepts 24-64 bytes of padded base64 behind whsec_', () => {
    expect(isWebhookSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe(true) // Standard Webhooks' 24-byte example
    expect(isWebhookSecret(`whsec_${Buffer.alloc(64, 1).toString('base64')}`)).toBe(true)
    expect(isWebhookSecret(`whsec_${Buffer.alloc(23, 1).toString('base64')}`)).toBe(false)
    expect(isWebhookSecret(`whsec_${Buffer.alloc(65, 1).toString('base64')}`)).toBe(false)
    expect(isWebhookSecret('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe(false)
    expect(isWebhookSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS!')).toBe(false)
    expect(isWebhookSecret(undefined)).toBe(false)
  })
})
