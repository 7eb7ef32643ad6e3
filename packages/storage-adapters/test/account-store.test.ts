// The account store on each backend it ships a factory for. The Redis runs use the real Redis at
// REDIS_URL (default redis://127.0.0.1:6379) and never skip: without Redis they fail, loudly.
// Keys live under a base unique to the run and are deleted at the end; nothing else is touched.
import { createHash } from 'node:crypto'
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { AccountStore, KeyRecord, UserRecord } from '@litho/core/contracts'
import { runAccountStoreConformance } from '@litho/testing/account-store'
import { createStorage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { describe, expect, it } from 'vitest'
import { fsAccountStore, memoryAccountStore, redisAccountStore, unstorageAccountStore } from '../src/account-store.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'

const { admin, base: redisBase } = setupRedis()
const root = setupTempDir('litho-fs-accounts-')

runAccountStoreConformance({ name: 'memory', create: () => memoryAccountStore() })
runAccountStoreConformance({ name: 'fs', persistent: true, create: () => fsAccountStore({ base: join(root, 'suite') }) })
runAccountStoreConformance({ name: 'redis', persistent: true, create: () => redisAccountStore({ url: REDIS_URL, base: `${redisBase}:suite` }) })

const hashOf = (secret: string) => `sha256:${createHash('sha256').update(secret, 'utf8').digest('base64url')}`
const emailHash = (email: string) => createHash('sha256').update(email, 'utf8').digest('base64url')
const SECRET_HASH = 'scrypt$16384$8$1$c2VjcmV0LXNhbHQ=$TOP-SECRET-PASSWORD-HASH'

const user = (id: string, fields: Partial<UserRecord> = {}): UserRecord => ({
  id,
  email: `${id}@example.com`,
  passwordHash: SECRET_HASH,
  plan: 'free',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
})
const key = (id: string, fields: Partial<KeyRecord> = {}): KeyRecord => ({
  id,
  userId: 'u1',
  name: `Key ${id}`,
  hash: hashOf(`secret-${id}`),
  prefix: `lk_${id}`,
  active: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: null,
  ...fields,
})

/** Each backend with a way to delete a record behind the store's back. */
const backends: Array<{ name: string; open: (label: string) => { store: AccountStore; remove: (kind: 'u' | 'k', id: string) => Promise<void> } }> = [
  {
    name: 'memory',
    open: () => {
      const storage = createStorage({ driver: memoryDriver() })
      return { store: unstorageAccountStore({ storage }), remove: (kind, id) => storage.removeItem(`litho:accounts:${kind}:${id}`) }
    },
  },
  {
    name: 'fs',
    open: (label) => {
      const dir = join(root, label)
      return { store: fsAccountStore({ base: dir }), remove: async (kind, id) => rmSync(join(dir, 'litho', 'accounts', kind, id)) }
    },
  },
  {
    name: 'redis',
    open: (label) => {
      const base = `${redisBase}:${label}`
      return { store: redisAccountStore({ url: REDIS_URL, base }), remove: async (kind, id) => void (await admin.del(`${base}:${kind}:${id}`)) }
    },
  },
]

for (const backend of backends) {
  describe(`unstorage account store › ${backend.name}`, () => {
    it(`${backend.name} › dangling index entries (records deleted behind the store's back) are ignored, and can be reused`, async () => {
      const { store, remove } = backend.open('dangling')
      try {
        await store.createUser(user('u1'))
        await store.createKey(key('a', { createdAt: '2026-01-03T00:00:00.000Z' }))
        await store.createKey(key('b', { createdAt: '2026-01-02T00:00:00.000Z' }))
        await store.createKey(key('c', { createdAt: '2026-01-01T00:00:00.000Z' }))
        await remove('k', 'a')
        await remove('u', 'u1')
        expect((await store.listKeys('u1', { limit: 100 })).map((k) => k.id)).toEqual(['b', 'c'])
        expect(await store.listKeys('u1', { limit: 1 })).toEqual([key('b', { createdAt: '2026-01-02T00:00:00.000Z' })])
        expect(await store.findKeyByHash(key('a').hash)).toBeNull()
        expect(await store.findUserByEmail('u1@example.com')).toBeNull()
        // The ids, the email and the hash can be created again.
        await store.createUser(user('u1'))
        expect(await store.findUserByEmail('u1@example.com')).toEqual(user('u1'))
        await store.createUser(user('u2', { email: 'other@example.com' }))
        await store.createKey(key('a'))
        expect(await store.findKeyByHash(key('a').hash)).toEqual(key('a'))
        // A hash entry left by a key whose record now has another hash finds nothing.
        await remove('k', 'b')
        await store.createKey(key('b', { hash: hashOf('another') }))
        expect(await store.findKeyByHash(key('b').hash)).toBeNull()
        expect(await store.findKeyByHash(hashOf('another'))).toEqual(key('b', { hash: hashOf('another') }))
      } finally {
        await store.dispose?.()
      }
    })
  })
}

describe('unstorage account store', () => {
  it('unstorage › keys are <base>:u:<id>, <base>:email:<sha256>, <base>:k:<id>, <base>:kh:<hash> and <base>:uk:<userId>:<keyId>', async () => {
    const storage = createStorage({ driver: memoryDriver() })
    const store = unstorageAccountStore({ storage, base: 'app:accounts' })
    const created = user('u1', { email: 'ann@example.com' })
    const createdKey = key('k1')
    await store.createUser(created)
    await store.createKey(createdKey)
    const hashPart = createdKey.hash.slice('sha256:'.length)
    expect((await storage.getKeys()).sort()).toEqual(
      [`app:accounts:email:${emailHash('ann@example.com')}`, 'app:accounts:k:k1', `app:accounts:kh:${hashPart}`, 'app:accounts:u:u1', 'app:accounts:uk:u1:k1'].sort(),
    )
    expect(JSON.parse(String(await storage.getItemRaw('app:accounts:u:u1')))).toEqual(created)
    expect(await storage.getItemRaw(`app:accounts:email:${emailHash('ann@example.com')}`)).toBe('u1')
    expect(JSON.parse(String(await storage.getItemRaw('app:accounts:k:k1')))).toEqual(createdKey)
    expect(await storage.getItemRaw(`app:accounts:kh:${hashPart}`)).toBe('k1')
    expect(await storage.getItem('app:accounts:uk:u1:k1')).toEqual({ createdAt: '2026-01-01T00:00:00.000Z' })
    // markKeyUsed writes only <base>:ku:<id>, never the record.
    await store.markKeyUsed('k1', '2026-01-02T00:00:00.000Z')
    expect(await storage.getItemRaw('app:accounts:ku:k1')).toBe('2026-01-02T00:00:00.000Z')
    expect(JSON.parse(String(await storage.getItemRaw('app:accounts:k:k1')))).toEqual(createdKey)
    expect(await store.getKey('k1')).toEqual({ ...createdKey, lastUsedAt: '2026-01-02T00:00:00.000Z' })
    await store.markKeyUsed('k1', '2026-01-01T12:00:00.000Z')
    expect((await store.findKeyByHash(createdKey.hash))?.lastUsedAt, 'never moves back').toBe('2026-01-02T00:00:00.000Z')
    await store.deleteKey('k1')
    expect((await storage.getKeys()).sort()).toEqual([`app:accounts:email:${emailHash('ann@example.com')}`, 'app:accounts:u:u1'])
  })

  it('unstorage › findKeyByHash reads three keys (kh, k, ku) and never lists', async () => {
    const storage = createStorage({ driver: memoryDriver() })
    const store = unstorageAccountStore({ storage })
    await store.createKey(key('k1'))
    const calls: string[] = []
    const spied = new Proxy(storage, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver) as unknown
        return typeof value === 'function' ? (...args: unknown[]) => (calls.push(String(property)), (value as (...a: unknown[]) => unknown).apply(target, args)) : value
      },
    })
    const watched = unstorageAccountStore({ storage: spied })
    expect(await watched.findKeyByHash(key('k1').hash)).toEqual(key('k1'))
    expect(calls).toEqual(['getItemRaw', 'getItemRaw', 'getItemRaw'])
  })

  it('unstorage › ids that look like JSON or numbers come back as strings', async () => {
    const store = unstorageAccountStore({ storage: createStorage({ driver: memoryDriver() }) })
    for (const id of ['123', 'null', 'true', '1e5']) {
      await store.createUser(user(id))
      expect(await store.findUserByEmail(`${id}@example.com`)).toEqual(user(id))
      await store.createKey(key(id))
      expect(await store.findKeyByHash(key(id).hash)).toEqual(key(id))
    }
  })

  it('unstorage › a corrupt record rejects with ERR_STORAGE and never echoes its content', async () => {
    const storage = createStorage({ driver: memoryDriver() })
    const store = unstorageAccountStore({ storage })
    await storage.setItemRaw('litho:accounts:u:bad', `{"id":"bad","passwordHash":"${SECRET_HASH}"`)
    const error = await store.getUser('bad').catch((reason: unknown) => reason)
    expect(error).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'unstorage-account-store', operation: 'getUser' } })
    expect((error as Error).message).not.toContain('TOP-SECRET')
    await storage.setItemRaw('litho:accounts:u:other', `{"id":"not-other","passwordHash":"${SECRET_HASH}"}`)
    const other = await store.getUser('other').catch((reason: unknown) => reason)
    expect(other).toMatchObject({ code: 'ERR_STORAGE' })
    expect(JSON.stringify({ message: (other as Error).message, details: (other as { details: unknown }).details })).not.toContain('TOP-SECRET')
  })

  it('unstorage › a failing driver rejects with ERR_STORAGE, the driver error as cause, never echoing a record', async () => {
    const failure = new Error('connection refused')
    const storage = createStorage({
      driver: {
        name: 'broken',
        hasItem: () => Promise.reject(failure),
        getItem: () => Promise.reject(failure),
        setItem: () => Promise.reject(failure),
        getKeys: () => Promise.reject(failure),
      },
    })
    const store = unstorageAccountStore({ storage })
    for (const [operation, call] of [
      ['createUser', () => store.createUser(user('a'))],
      ['getUser', () => store.getUser('a')],
      ['findUserByEmail', () => store.findUserByEmail('a@example.com')],
      ['updateUser', () => store.updateUser(user('a'))],
      ['createKey', () => store.createKey(key('a'))],
      ['getKey', () => store.getKey('a')],
      ['findKeyByHash', () => store.findKeyByHash(key('a').hash)],
      ['listKeys', () => store.listKeys('u1', { limit: 10 })],
      ['setKeyActive', () => store.setKeyActive('a', false)],
      ['markKeyUsed', () => store.markKeyUsed('a', '2026-01-01T00:00:00.000Z')],
      ['deleteKey', () => store.deleteKey('a')],
    ] as const) {
      const error = await (call as () => Promise<unknown>)().catch((reason: unknown) => reason)
      expect(error, operation).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'unstorage-account-store', operation } })
      expect((error as Error).cause, operation).toBe(failure)
      const shown = `${(error as Error).message} ${JSON.stringify((error as { details: unknown }).details)}`
      expect(shown, operation).not.toContain('TOP-SECRET')
      expect(shown, operation).not.toContain('@example.com')
    }
  })

  it('unstorage › a driver failing on writes only leaves nothing a read returns', async () => {
    const inner = memoryDriver()
    let failWrites = false
    const storage = createStorage({
      driver: {
        ...inner,
        setItem: (k, v, o) => (failWrites ? Promise.reject(new Error('disk full')) : inner.setItem!(k, v, o)),
        setItemRaw: (k, v, o) => (failWrites ? Promise.reject(new Error('disk full')) : inner.setItemRaw!(k, v, o)),
      },
    })
    const store = unstorageAccountStore({ storage })
    failWrites = true
    await expect(store.createUser(user('u1'))).rejects.toMatchObject({ code: 'ERR_STORAGE' })
    await expect(store.createKey(key('k1'))).rejects.toMatchObject({ code: 'ERR_STORAGE' })
    failWrites = false
    expect(await store.getUser('u1')).toBeNull()
    expect(await store.findUserByEmail('u1@example.com')).toBeNull()
    expect(await store.getKey('k1')).toBeNull()
    await store.createUser(user('u1'))
    await store.createKey(key('k1'))
    expect(await store.findKeyByHash(key('k1').hash)).toEqual(key('k1'))
  })

  it('unstorage › invalid input messages never echo the password hash, email or key hash', async () => {
    const store = memoryAccountStore()
    const errors = await Promise.all([
      store.createUser(user('u1', { email: 'Ann@Example.com' })).catch((e: unknown) => e),
      store.createUser(user('u1', { plan: 'TOP-SECRET' as never })).catch((e: unknown) => e),
      store.createUser(user('u1', { passwordHash: 'x'.repeat(5000) })).catch((e: unknown) => e),
      store.createKey(key('k1', { hash: 'sha256:TOP-SECRET' })).catch((e: unknown) => e),
    ])
    for (const error of errors) {
      expect(error).toMatchObject({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' })
      expect((error as Error).message).not.toMatch(/TOP-SECRET|Ann@|xxxxx/)
    }
  })

  it('unstorage › rejects bad options with a TypeError at once', () => {
    const typeError = (code: string) => expect.objectContaining({ name: 'TypeError', code })
    const storage = createStorage()
    expect(() => unstorageAccountStore({} as never)).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => unstorageAccountStore({ storage, base: '' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => unstorageAccountStore({ storage, base: 'a::b' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => unstorageAccountStore({ storage, base: '../up' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => unstorageAccountStore({ storage, base: 42 as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => fsAccountStore({} as never)).toThrow(typeError('ERR_MISSING_OPTION'))
    expect(() => fsAccountStore({ base: 42 as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => redisAccountStore({ url: 6379 as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => redisAccountStore({ base: 'a b' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
  })

  it('fs › writes go through the atomic driver: no temp files left, nothing outside litho/', async () => {
    const base = join(root, 'atomic')
    const store = fsAccountStore({ base })
    await store.createUser(user('u1'))
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.markKeyUsed('k1', `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`)))
    await store.createKey(key('k1'))
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.setKeyActive('k1', i % 2 === 0)))
    expect(readdirSync(base).sort()).toEqual(['.litho-tmp', 'litho'])
    expect(readdirSync(join(base, '.litho-tmp'))).toEqual([])
    expect((await store.getKey('k1'))?.active).toBe(false)
    await store.dispose?.()
  })

  it('redis › markKeyUsed on another instance never reactivates a key deactivated meanwhile', async () => {
    const base = `${redisBase}:race`
    const [a, b] = [redisAccountStore({ url: REDIS_URL, base }), redisAccountStore({ url: REDIS_URL, base })]
    try {
      await a.createKey(key('k1'))
      for (let i = 0; i < 20; i++) {
        await a.setKeyActive('k1', true)
        await Promise.all([a.setKeyActive('k1', false), b.markKeyUsed('k1', `2026-01-02T00:00:${String(i).padStart(2, '0')}.000Z`)])
        expect(await b.findKeyByHash(key('k1').hash), `round ${i}`).toMatchObject({ active: false })
      }
    } finally {
      await a.dispose?.()
      await b.dispose?.()
    }
  })

  it('redis › a disposed store rejects with ERR_STORAGE', async () => {
    const store = redisAccountStore({ url: REDIS_URL, base: `${redisBase}:disposed` })
    expect(await store.getUser('a')).toBeNull()
    await store.dispose?.()
    await expect(store.getUser('a')).rejects.toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { operation: 'getUser' } })
  })

  it('redis › a Redis that is down rejects findKeyByHash with ERR_STORAGE within seconds', async () => {
    const store = redisAccountStore({ url: 'redis://127.0.0.1:1', base: `${redisBase}:down` })
    const started = Date.now()
    try {
      await expect(store.findKeyByHash(key('a').hash)).rejects.toMatchObject({
        name: 'LithoError',
        code: 'ERR_STORAGE',
        details: { adapter: 'unstorage-account-store', operation: 'findKeyByHash' },
      })
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      await store.dispose?.()
    }
  })
})
