// The design store on each backend it ships a factory for. The Redis runs use the real Redis at
// REDIS_URL (default redis://127.0.0.1:6379) and never skip: without Redis they fail, loudly.
// Keys live under a base unique to the run and are deleted at the end; nothing else is touched.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DesignRecord, DesignStore } from '@litho/core/contracts'
import { runDesignStoreConformance } from '@litho/testing/design-store'
import { createStorage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { describe, expect, it } from 'vitest'
import { atomicFsDriver } from '../src/kit/atomic-fs-driver.js'
import { fsDesignStore, memoryDesignStore, redisDesignStore, unstorageDesignStore } from '../src/design-store.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'
import { killMidWrite } from './_crash.js'

const { admin, base: redisBase } = setupRedis()
const root = setupTempDir('litho-fs-designs-')

runDesignStoreConformance({ name: 'memory', create: () => memoryDesignStore() })
runDesignStoreConformance({ name: 'fs', persistent: true, create: () => fsDesignStore({ base: join(root, 'suite') }) })
runDesignStoreConformance({ name: 'redis', persistent: true, create: () => redisDesignStore({ url: REDIS_URL, base: `${redisBase}:suite` }) })

/** Each backend with a way to delete a key behind the store's back. */
const backends: Array<{ name: string; open: (label: string) => { store: DesignStore; removeRecord: (id: string) => Promise<void> } }> = [
  {
    name: 'memory',
    open: () => {
      const storage = createStorage({ driver: memoryDriver() })
      return { store: unstorageDesignStore({ storage }), removeRecord: (id) => storage.removeItem(`litho:designs:d:${id}`) }
    },
  },
  {
    name: 'fs',
    open: (label) => {
      const dir = join(root, label)
      return { store: fsDesignStore({ base: dir }), removeRecord: async (id) => rmSync(join(dir, 'litho', 'designs', 'd', id)) }
    },
  },
  {
    name: 'redis',
    open: (label) => {
      const base = `${redisBase}:${label}`
      return { store: redisDesignStore({ url: REDIS_URL, base }), removeRecord: async (id) => void (await admin.del(`${base}:d:${id}`)) }
    },
  },
]

const record = (id: string, fields: Partial<DesignRecord> = {}): DesignRecord => ({
  id,
  ownerId: 'owner-1',
  name: `Design ${id}`,
  renderCode: `code-${id}-0123456789`,
  design: { version: 1 },
  draft: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
})
const page = { offset: 0, limit: 100 }

for (const backend of backends) {
  describe(`unstorage design store › ${backend.name}`, () => {
    it(`${backend.name} › a dangling index entry (record deleted behind the store's back) is left out of items and total`, async () => {
      const { store, removeRecord } = backend.open('dangling')
      try {
        await store.create(record('a', { updatedAt: '2026-01-03T00:00:00.000Z' }))
        await store.create(record('b', { updatedAt: '2026-01-02T00:00:00.000Z' }))
        await store.create(record('c', { updatedAt: '2026-01-01T00:00:00.000Z' }))
        await removeRecord('a')
        const { items, total } = await store.listByOwner('owner-1', page)
        expect(total).toBe(2)
        expect(items.map((item) => item.id)).toEqual(['b', 'c'])
        expect(await store.listByOwner('owner-1', { offset: 1, limit: 1 })).toEqual({ items: [{ id: 'c', name: 'Design c', updatedAt: '2026-01-01T00:00:00.000Z' }], total: 2 })
        // The dangling code finds nothing either, and the id and code can be created again.
        expect(await store.getByRenderCode(record('a').renderCode)).toBeNull()
        await store.create(record('a'))
        expect(await store.get('a')).toEqual(record('a'))
      } finally {
        await store.dispose?.()
      }
    })
  })
}

describe('unstorage design store', () => {
  it('unstorage › keys are <base>:d:<id>, <base>:code:<renderCode> and <base>:owner:<ownerId>:<id>', async () => {
    const storage = createStorage({ driver: memoryDriver() })
    const store = unstorageDesignStore({ storage, base: 'app:designs' })
    const created = record('d1', { updatedAt: '2026-01-02T00:00:00.000Z' })
    await store.create(created)
    expect((await storage.getKeys()).sort()).toEqual(['app:designs:code:code-d1-0123456789', 'app:designs:d:d1', 'app:designs:owner:owner-1:d1'])
    expect(JSON.parse(String(await storage.getItemRaw('app:designs:d:d1')))).toEqual(created)
    expect(await storage.getItemRaw('app:designs:code:code-d1-0123456789')).toBe('d1')
    expect(await storage.getItem('app:designs:owner:owner-1:d1')).toEqual({ updatedAt: '2026-01-02T00:00:00.000Z' })
    await store.delete('d1')
    expect(await storage.getKeys()).toEqual([])
  })

  it('unstorage › ids that look like JSON or numbers come back as strings', async () => {
    // unstorage's getItem parses values ("123" → 123, "null" → null); the store reads raw.
    const store = unstorageDesignStore({ storage: createStorage({ driver: memoryDriver() }) })
    for (const id of ['123', 'null', 'true', '1e5']) {
      const created = record(id, { renderCode: `${id}-0123456789abcdef` })
      await store.create(created)
      expect(await store.getByRenderCode(created.renderCode)).toEqual(created)
    }
  })

  it('unstorage › a corrupt record rejects with ERR_STORAGE and never echoes its content', async () => {
    const storage = createStorage({ driver: memoryDriver() })
    const store = unstorageDesignStore({ storage })
    await storage.setItemRaw('litho:designs:d:bad', '{"id":"bad","name":"secret-name"')
    const error = await store.get('bad').catch((reason: unknown) => reason)
    expect(error).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'unstorage-design-store', operation: 'get' } })
    expect((error as Error).message).not.toContain('secret-name')
    await storage.setItemRaw('litho:designs:d:other', '{"id":"not-other"}')
    await expect(store.get('other')).rejects.toMatchObject({ code: 'ERR_STORAGE' })
  })

  it('unstorage › a failing driver rejects with ERR_STORAGE, the driver error as cause', async () => {
    const failure = new Error('connection refused')
    const storage = createStorage({
      driver: { name: 'broken', hasItem: () => Promise.reject(failure), getItem: () => Promise.reject(failure), getKeys: () => Promise.reject(failure) },
    })
    const store = unstorageDesignStore({ storage })
    for (const [operation, call] of [
      ['get', () => store.get('a')],
      ['create', () => store.create(record('a'))],
      ['listByOwner', () => store.listByOwner('owner-1', page)],
    ] as const) {
      const error = await call().catch((reason: unknown) => reason)
      expect(error, operation).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'unstorage-design-store', operation } })
      expect((error as Error).cause, operation).toBe(failure)
    }
  })

  it('unstorage › rejects bad options with a TypeError at once', () => {
    const typeError = (code: string) => expect.objectContaining({ name: 'TypeError', code })
    const storage = createStorage()
    expect(() => unstorageDesignStore({} as never)).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => unstorageDesignStore({ storage, base: '' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => unstorageDesignStore({ storage, base: 'a::b' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => unstorageDesignStore({ storage, base: '../up' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => unstorageDesignStore({ storage, base: 42 as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => fsDesignStore({} as never)).toThrow(typeError('ERR_MISSING_OPTION'))
    expect(() => fsDesignStore({ base: 42 as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => redisDesignStore({ url: 6379 as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => redisDesignStore({ base: 'a b' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
  })

  it('redis › a disposed store rejects with ERR_STORAGE', async () => {
    const store = redisDesignStore({ url: REDIS_URL, base: `${redisBase}:disposed` })
    expect(await store.get('a')).toBeNull()
    await store.dispose?.()
    await expect(store.get('a')).rejects.toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { operation: 'get' } })
  })

  it('redis › a Redis that is down rejects with ERR_STORAGE within seconds', async () => {
    const store = redisDesignStore({ url: 'redis://127.0.0.1:1', base: `${redisBase}:down` })
    const started = Date.now()
    try {
      await expect(store.get('a')).rejects.toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'unstorage-design-store', operation: 'get' } })
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      await store.dispose?.()
    }
  })
})

describe('fs design store › crashes', () => {
  it('fs › a process killed while rewriting a design always leaves a whole record', async () => {
    for (let run = 0; run < 5; run++) {
      const base = mkdtempSync(join(root, 'crash-'))
      await killMidWrite('fs-update-forever.ts', base)
      // Whatever moment the kill hit, the record reads back whole; stray temp files are only in .litho-tmp.
      const store = fsDesignStore({ base })
      const record = await store.get('crash')
      expect(record?.id).toBe('crash')
      expect((record?.design as { components: unknown[] }).components).toHaveLength(20000)
      expect(readdirSync(base).filter((name) => name !== '.litho-tmp' && !name.startsWith('litho'))).toEqual([])
      await store.dispose?.()
    }
  }, 60_000)
})

describe('atomic fs driver', () => {
  it('fs › concurrent writes to one key leave exactly one whole value, and no temp files', async () => {
    const base = mkdtempSync(join(tmpdir(), 'litho-atomic-'))
    const storage = createStorage({ driver: atomicFsDriver({ base }) })
    // Values of very different lengths: in-place writes racing on one file can leave a mix.
    const values = Array.from({ length: 40 }, (_, i) => `${i}:`.padEnd(1000 + ((i * 7919) % 200_000), String.fromCharCode(97 + (i % 26))))
    await Promise.all(values.map((value) => storage.setItem('a:b:key', value)))
    const final = readFileSync(join(base, 'a', 'b', 'key'), 'utf8')
    expect(values).toContain(final)
    expect(readdirSync(join(base, '.litho-tmp'))).toEqual([])
    expect(await storage.getKeys()).toEqual(['a:b:key'])
    rmSync(base, { recursive: true, force: true })
  })
})

// Large records are kept parsed beside their bytes (kit/parsed-memo): every read must still see
// the latest write, whoever made it, and hand out a copy its caller may change.
describe('large records (parsed once while their bytes are unchanged)', () => {
  const photo = `data:image/png;base64,${'A'.repeat(200_000)}`
  const large = (title: string, at: string): DesignRecord => ({
    id: 'd_large',
    ownerId: 'u_large',
    name: 'Large',
    renderCode: 'rc_large_record_0001',
    design: { components: [{ key: 'photo', src: photo }, { key: 'title', text: title }] },
    draft: null,
    createdAt: '2026-11-26T10:00:00.000Z',
    updatedAt: at,
  })
  for (const name of ['memory', 'fs']) {
    it(`${name}: a copy on every read; an update, or a write by another store on the same data, is seen on the next read`, async () => {
      const dir = join(root, `large-${name}`)
      const storage = name === 'memory' ? createStorage({ driver: memoryDriver() }) : createStorage({ driver: atomicFsDriver({ base: dir }) })
      const store = unstorageDesignStore({ storage })
      const first = large('One', '2026-11-26T10:00:00.000Z')
      await store.create(first)
      const read = (await store.getByRenderCode(first.renderCode)) as DesignRecord
      expect(read).toEqual(first)
      ;(read.design as { components: Array<{ text?: string }> }).components[1]!.text = 'changed by a caller'
      expect(await store.getByRenderCode(first.renderCode)).toEqual(first)
      expect(await store.get(first.id)).toEqual(first)

      const second = large('Two', '2026-11-26T10:00:01.000Z')
      expect(await store.update(second)).toBe(true)
      expect(await store.getByRenderCode(first.renderCode)).toEqual(second)

      // Another instance over the same backend (another process on the same data dir).
      const third = large('Three', '2026-11-26T10:00:02.000Z')
      expect(await unstorageDesignStore({ storage }).update(third)).toBe(true)
      expect(await store.getByRenderCode(first.renderCode)).toEqual(third)
      expect(await store.get(first.id)).toEqual(third)

      expect(await store.delete(first.id)).toBe(true)
      expect(await store.getByRenderCode(first.renderCode)).toBeNull()
    })
  }
})
