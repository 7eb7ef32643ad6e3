// The auth state store on each backend it ships a factory for, plus what the suite cannot see
// (layouts, the sweep, failures) and the suite's own control. The Redis runs use the real Redis
// at REDIS_URL (default redis://127.0.0.1:6379) and never skip: without Redis they fail, loudly.
// Keys live under a base unique to the run and are deleted at the end; nothing else is touched.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AuthStateStore } from '@litho/core/contracts'
import { runAuthStateStoreConformance } from '@litho/testing/auth-state-store'
import { createStorage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { describe, expect, it, vi } from 'vitest'
// The suite's cases as data, for the control below (as packages/testing/test/meter-conformance.test.ts does for meters).
import { fsAuthStateStore, memoryAuthStateStore, redisAuthStateStore, unstorageAuthStateStore } from '../src/auth-state-store.js'
import { latencyStorage } from '../../testing/test/_latency-storage.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'

const { admin, base: redisBase } = setupRedis()
const root = setupTempDir('litho-fs-auth-state-')

runAuthStateStoreConformance({ name: 'memory', create: () => memoryAuthStateStore() })
runAuthStateStoreConformance({ name: 'fs', create: () => fsAuthStateStore({ base: join(root, 'suite') }) })
runAuthStateStoreConformance({ name: 'redis', create: () => redisAuthStateStore({ url: REDIS_URL, base: `${redisBase}:suite` }) })
// One unstorage instance for every store the suite makes: persistent over it.
const sharedMemory = createStorage({ driver: memoryDriver() })
runAuthStateStoreConformance({ name: 'unstorage (memory driver)', create: () => unstorageAuthStateStore({ storage: sharedMemory, persistent: true }) })

const sha256 = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex')
const SECRET = 'TOP-SECRET-CODE'

describe('auth state store', () => {
  it('rejects bad options with a TypeError at once', () => {
    const typeError = (code: string) => expect.objectContaining({ name: 'TypeError', code })
    const storage = createStorage()
    expect(() => unstorageAuthStateStore({} as never)).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => unstorageAuthStateStore({ storage, base: 'a::b' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => unstorageAuthStateStore({ storage, persistent: 'yes' as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => fsAuthStateStore({} as never)).toThrow(typeError('ERR_MISSING_OPTION'))
    expect(() => fsAuthStateStore({ base: 42 as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => redisAuthStateStore({ url: 6379 as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => redisAuthStateStore({ base: 'a b' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => redisAuthStateStore({ url: REDIS_URL, client: admin })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => redisAuthStateStore({ client: {} as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
  })

  for (const [name, open] of [
    ['memory', () => memoryAuthStateStore()],
    ['redis', () => redisAuthStateStore({ url: REDIS_URL, base: `${redisBase}:strict` })],
  ] as const) {
    it(`${name} › refuses what JSON cannot carry faithfully (a Date, a Map, null, a TTL over 10 years), never echoing keys or values`, async () => {
      const store: AuthStateStore = open()
      try {
        const code = (value: unknown) => store.set('k', value).catch((error: unknown) => error)
        expect(await code(new Date())).toMatchObject({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
        expect(await code(new Map())).toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' })
        expect(await code(null)).toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' })
        expect(await code({ at: new Date() })).toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' })
        expect(await code([1, undefined])).toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' })
        // undefined properties are left out, as JSON.stringify does; null inside values is JSON.
        await store.set('k', { a: 1, gone: undefined, none: null })
        expect(await store.get('k')).toStrictEqual({ a: 1, none: null })
        expect(await store.set('k', 1, { ttlSeconds: 10 * 365 * 86_400 + 1 }).catch((error: unknown) => error)).toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' })
        await store.set('k', 1, { ttlSeconds: 10 * 365 * 86_400 })
        const errors = await Promise.all([
          store.set(`${SECRET} `, 1).catch((error: unknown) => error),
          store.set('k', { secret: SECRET, f: () => 1 }).catch((error: unknown) => error),
          store.swap('k', { secret: SECRET, n: Number.NaN }).catch((error: unknown) => error),
        ])
        for (const error of errors) {
          expect(error).toBeInstanceOf(TypeError)
          expect((error as Error).message).not.toContain(SECRET)
        }
        await store.delete('k')
      } finally {
        await store.dispose?.()
      }
    })
  }

  it('unstorage › a failing driver rejects with ERR_STORAGE, the driver error as cause', async () => {
    const failure = new Error('connection refused')
    const storage = createStorage({
      driver: { name: 'broken', hasItem: () => Promise.reject(failure), getItem: () => Promise.reject(failure), setItem: () => Promise.reject(failure), getKeys: () => Promise.reject(failure) },
    })
    const store = unstorageAuthStateStore({ storage })
    for (const [operation, call] of [
      ['get', () => store.get('k')],
      ['set', () => store.set('k', { secret: SECRET })],
      ['swap', () => store.swap('k', { secret: SECRET })],
      ['add', () => store.add('k', { secret: SECRET })],
      ['delete', () => store.delete('k')],
    ] as const) {
      const error = await (call as () => Promise<unknown>)().catch((reason: unknown) => reason)
      expect(error, operation).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'unstorage-auth-state-store', operation } })
      expect((error as Error).cause, operation).toBe(failure)
      expect((error as Error).message, operation).not.toContain(SECRET)
    }
    await store.dispose?.()
  })

  it('unstorage › two stores over one storage object share the lock: swaps across them are exactly-once', async () => {
    const storage = latencyStorage()
    const [a, b] = [unstorageAuthStateStore({ storage }), unstorageAuthStateStore({ storage })]
    await a.set('code', 'original')
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? b : a).swap('code', `racer-${i}`)))
    expect(results.filter((result) => result === 'original')).toHaveLength(1)
    expect(new Set(results).size).toBe(40)
  })

  it('memory › a disposed store rejects with ERR_STORAGE', async () => {
    const store = memoryAuthStateStore()
    await store.set('k', 1)
    await store.dispose?.()
    await expect(store.get('k')).rejects.toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { operation: 'get' } })
    await expect(store.swap('k', 2)).rejects.toMatchObject({ code: 'ERR_STORAGE', details: { operation: 'swap' } })
  })

  it('fs › one file per key, <base>/litho/auth-state/<hh>/<sha256 hex>, holding the key, expiry and value; no temp files left', async () => {
    const base = join(root, 'layout')
    const store = fsAuthStateStore({ base })
    try {
      const before = Date.now()
      await store.set('code:Ab.c', { clientId: 'c1' }, { ttlSeconds: 60 })
      await store.set('code:ab.c', 'lower')
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.swap('code:ab.c', i)))
      const hex = sha256('code:Ab.c')
      const entry = JSON.parse(readFileSync(join(base, 'litho', 'auth-state', hex.slice(0, 2), hex), 'utf8')) as Record<string, unknown>
      expect(entry).toMatchObject({ key: 'code:Ab.c', value: { clientId: 'c1' } })
      expect(entry.expiresAt).toBeGreaterThanOrEqual(before + 60_000)
      expect(entry.expiresAt).toBeLessThanOrEqual(Date.now() + 60_000)
      const lower = sha256('code:ab.c')
      expect(JSON.parse(readFileSync(join(base, 'litho', 'auth-state', lower.slice(0, 2), lower), 'utf8'))).toMatchObject({ key: 'code:ab.c', expiresAt: null })
      expect(readdirSync(base).sort()).toEqual(['.litho-tmp', 'litho'])
      expect(readdirSync(join(base, '.litho-tmp'))).toEqual([])
    } finally {
      await store.dispose?.()
    }
  })

  it('fs › two stores on one directory in one process share the lock: swaps across them are exactly-once', async () => {
    const base = join(root, 'two-instances')
    const [a, b] = [fsAuthStateStore({ base }), fsAuthStateStore({ base })]
    try {
      await a.set('code', 'original')
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? b : a).swap('code', `racer-${i}`)))
      expect(results.filter((result) => result === 'original')).toHaveLength(1)
      expect(new Set(results).size).toBe(40)
      expect(await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? b : a).add('once', i)))).toSatisfy((added: boolean[]) => added.filter(Boolean).length === 1)
    } finally {
      await a.dispose?.()
      await b.dispose?.()
    }
  })

  it('fs › a write starts a sweep that removes expired entries and leaves live and foreign files alone', async () => {
    const base = join(root, 'sweep')
    const dir = join(base, 'litho', 'auth-state')
    const plant = (key: string, expiresAt: number | null) => {
      const hex = sha256(key)
      mkdirSync(join(dir, hex.slice(0, 2)), { recursive: true })
      writeFileSync(join(dir, hex.slice(0, 2), hex), JSON.stringify({ key, expiresAt, value: { planted: key } }))
      return join(dir, hex.slice(0, 2), hex)
    }
    const expired = plant('expired', Date.now() - 1_000)
    const live = plant('live', Date.now() + 60_000)
    const forever = plant('forever', null)
    writeFileSync(join(dir, 'not-an-entry'), 'hello')
    const store = fsAuthStateStore({ base })
    expect(await store.get('expired')).toBeNull()
    expect(await store.get('live')).toEqual({ planted: 'live' })
    await store.set('new', 1) // the first write of a store starts a sweep, in the background
    await vi.waitFor(() => expect(existsSync(expired)).toBe(false), { timeout: 5_000, interval: 20 })
    await store.dispose?.() // stops a sweep still running and waits for it
    expect(existsSync(live)).toBe(true)
    expect(existsSync(forever)).toBe(true)
    expect(existsSync(join(dir, 'not-an-entry'))).toBe(true)
  })

  it('fs › a corrupt entry, or one of another key, rejects with ERR_STORAGE without echoing it', async () => {
    const base = join(root, 'corrupt')
    const dir = join(base, 'litho', 'auth-state')
    const pathOf = (key: string) => {
      const hex = sha256(key)
      mkdirSync(join(dir, hex.slice(0, 2)), { recursive: true })
      return join(dir, hex.slice(0, 2), hex)
    }
    writeFileSync(pathOf('garbage'), `not json ${SECRET}`)
    writeFileSync(pathOf('moved'), JSON.stringify({ key: 'other', expiresAt: null, value: SECRET }))
    const store = fsAuthStateStore({ base })
    try {
      for (const key of ['garbage', 'moved']) {
        for (const [operation, call] of [
          ['get', () => store.get(key)],
          ['swap', () => store.swap(key, 1)],
          ['add', () => store.add(key, 1)],
          ['delete', () => store.delete(key)],
        ] as const) {
          const error = await (call as () => Promise<unknown>)().catch((reason: unknown) => reason)
          expect(error, `${operation} ${key}`).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'unstorage-auth-state-store', operation } })
          expect((error as Error).message).not.toContain(SECRET)
        }
      }
      // set overwrites without reading.
      await store.set('garbage', 'fixed')
      expect(await store.get('garbage')).toBe('fixed')
    } finally {
      await store.dispose?.()
    }
  })

  it('redis › keys are <base>:<key> holding the JSON text; ttlSeconds is a Redis PX expiry, cleared by a write without one', async () => {
    const base = `${redisBase}:layout`
    const store = redisAuthStateStore({ url: REDIS_URL, base })
    try {
      await store.set('code:a.b', { clientId: 'c1' }, { ttlSeconds: 60 })
      expect(await admin.get(`${base}:code:a.b`)).toBe('{"clientId":"c1"}')
      const pttl = await admin.pttl(`${base}:code:a.b`)
      expect(pttl).toBeGreaterThan(55_000)
      expect(pttl).toBeLessThanOrEqual(60_000)
      expect(await store.swap('code:a.b', { used: true })).toEqual({ clientId: 'c1' })
      expect(await admin.pttl(`${base}:code:a.b`)).toBe(-1)
      expect(await store.swap('code:a.b', 'x', { ttlSeconds: 5 })).toEqual({ used: true })
      expect(await admin.pttl(`${base}:code:a.b`)).toBeGreaterThan(4_000)
      expect(await store.add('fresh', 1, { ttlSeconds: 7 })).toBe(true)
      expect(await admin.pttl(`${base}:fresh`)).toBeGreaterThan(6_000)
      expect(await store.add('fresh', 2, { ttlSeconds: 7 })).toBe(false)
      expect(await admin.get(`${base}:fresh`)).toBe('1')
    } finally {
      await store.dispose?.()
    }
  })

  it('redis › a value that is not JSON, or a key of another type, rejects with ERR_STORAGE', async () => {
    const base = `${redisBase}:foreign`
    await admin.set(`${base}:text`, `not json ${SECRET}`)
    await admin.hset(`${base}:hash`, 'field', 'value')
    const store = redisAuthStateStore({ url: REDIS_URL, base })
    try {
      const error = await store.get('text').catch((reason: unknown) => reason)
      expect(error).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'redis-auth-state-store', operation: 'get' } })
      expect((error as Error).message).not.toContain(SECRET)
      await expect(store.get('hash')).rejects.toMatchObject({ code: 'ERR_STORAGE', details: { operation: 'get' } })
      await expect(store.swap('hash', 1)).rejects.toMatchObject({ code: 'ERR_STORAGE', details: { operation: 'swap' } })
    } finally {
      await store.dispose?.()
    }
  })

  it('redis › a client passed in is used and never quit', async () => {
    const base = `${redisBase}:client`
    const store = redisAuthStateStore({ client: admin, base })
    await store.set('k', { v: 1 })
    await store.dispose?.()
    expect(admin.status).toBe('ready')
    expect(await admin.get(`${base}:k`)).toBe('{"v":1}')
    await expect(store.get('k')).rejects.toMatchObject({ code: 'ERR_STORAGE' })
  })

  it('redis › a Redis that is down rejects swap with ERR_STORAGE within seconds', async () => {
    const store = redisAuthStateStore({ url: 'redis://127.0.0.1:1', base: `${redisBase}:down` })
    const started = Date.now()
    try {
      await expect(store.swap('code', 'used')).rejects.toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'redis-auth-state-store', operation: 'swap' } })
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      await store.dispose?.()
    }
  })
})

// --- the suite's control: a read-then-write store must fail the concurrency cases ---
