// The job store on each backend it ships a factory for. The Redis runs use the real Redis at
// REDIS_URL (default redis://127.0.0.1:6379) and never skip: without Redis they fail, loudly.
// Keys live under a base unique to the run and are deleted at the end; nothing else is touched.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { MAX_LISTED_JOBS, type JobRecord } from '@litho/core/contracts'
import { runJobStoreConformance } from '@litho/testing/job-queue'
import { createStorage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { describe, expect, it } from 'vitest'
import { fsJobStore, memoryJobStore, redisJobStore, unstorageJobStore } from '../src/job-store.js'
import { MAX_LISTED_JOBS as STORE_MAX_LISTED_JOBS } from '../src/unstorage/job-store.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'

const { admin, base: redisBase } = setupRedis()
const root = setupTempDir('litho-fs-jobs-')

runJobStoreConformance({ name: 'memory', create: () => memoryJobStore() })
runJobStoreConformance({ name: 'fs', persistent: true, create: () => fsJobStore({ base: join(root, 'suite') }) })
runJobStoreConformance({ name: 'redis', persistent: true, create: () => redisJobStore({ url: REDIS_URL, base: `${redisBase}:suite` }) })

const job = (id: string, fields: Partial<JobRecord> = {}): JobRecord => ({
  id,
  ownerId: 'acct_1',
  designId: 'd_1',
  status: 'queued',
  request: { format: 'png' },
  attempts: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
})

describe('unstorage job store', () => {
  it("unstorage › lists as many jobs of an owner as the port's MAX_LISTED_JOBS", () => {
    expect(STORE_MAX_LISTED_JOBS).toBe(MAX_LISTED_JOBS)
  })

  it('unstorage › an owner with more jobs than MAX_LISTED_JOBS: the listing keeps the newest ones and its index stays bounded, every record still readable', async () => {
    const storage = createStorage({ driver: memoryDriver() })
    const store = unstorageJobStore({ storage })
    const count = MAX_LISTED_JOBS + 5
    for (let i = 0; i < count; i++) await store.create(job(`exp_${i}`, { createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString() }))
    const first = await store.listByOwner!('acct_1', { offset: 0, limit: 2 })
    expect(first.total).toBe(MAX_LISTED_JOBS)
    expect(first.items.map((j) => j.id)).toEqual([`exp_${count - 1}`, `exp_${count - 2}`])
    const last = await store.listByOwner!('acct_1', { offset: MAX_LISTED_JOBS - 1, limit: 100 })
    expect(last.items.map((j) => j.id)).toEqual(['exp_5'])
    expect(await storage.getKeys('litho:jobs-index:all:acct_1:')).toHaveLength(MAX_LISTED_JOBS)
    expect(await store.get('exp_0')).not.toBeNull()
  })

  it('unstorage › an index entry whose record is missing (a crash between the writes) is skipped', async () => {
    const storage = createStorage({ driver: memoryDriver() })
    const store = unstorageJobStore({ storage })
    await store.create(job('exp_1'))
    await storage.setItemRaw('litho:jobs-index:all:acct_1:001767225600000_exp_ghost', '1')
    expect((await store.listByOwner!('acct_1', { offset: 0, limit: 10 })).items.map((j) => j.id)).toEqual(['exp_1'])
  })

  it('unstorage › one key per job, <base>:<id>, holding the JSON of the port fields only, in a fixed order, and its owner index entry beside <base>', async () => {
    const storage = createStorage({ driver: memoryDriver() })
    const store = unstorageJobStore({ storage, base: 'app:jobs' })
    await store.create({ ...job('exp_1'), extra: 'dropped' } as JobRecord)
    expect((await storage.getKeys()).sort()).toEqual([`app:jobs-index:all:acct_1:${String(Date.parse('2026-01-01T00:00:00.000Z')).padStart(15, '0')}_exp_1`, 'app:jobs:exp_1'])
    expect(await storage.getItemRaw('app:jobs:exp_1')).toBe(
      '{"id":"exp_1","ownerId":"acct_1","designId":"d_1","status":"queued","request":{"format":"png"},"attempts":0,"createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z"}',
    )
    expect(await store.get('exp_1')).toStrictEqual(job('exp_1'))
  })

  it('unstorage › ids that look like JSON or numbers come back as strings', async () => {
    const store = unstorageJobStore({ storage: createStorage({ driver: memoryDriver() }) })
    for (const id of ['123', 'null', 'true', '1e5']) {
      await store.create(job(id))
      expect(await store.get(id)).toStrictEqual(job(id))
    }
  })

  it('unstorage › a corrupt record, or one of another id, rejects with ERR_STORAGE', async () => {
    const storage = createStorage({ driver: memoryDriver() })
    const store = unstorageJobStore({ storage })
    await storage.setItemRaw('litho:jobs:bad', '{"id":"bad"')
    await expect(store.get('bad')).rejects.toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'unstorage-job-store', operation: 'get' } })
    await storage.setItemRaw('litho:jobs:moved', JSON.stringify(job('other')))
    await expect(store.get('moved')).rejects.toMatchObject({ code: 'ERR_STORAGE' })
    await storage.setItemRaw('litho:jobs:nostatus', JSON.stringify({ ...job('nostatus'), status: 'done' }))
    await expect(store.get('nostatus')).rejects.toMatchObject({ code: 'ERR_STORAGE' })
  })

  it('unstorage › a failing driver rejects with ERR_STORAGE, the driver error as cause', async () => {
    const failure = new Error('connection refused')
    const storage = createStorage({
      driver: { name: 'broken', hasItem: () => Promise.reject(failure), getItem: () => Promise.reject(failure), setItem: () => Promise.reject(failure), getKeys: () => Promise.reject(failure) },
    })
    const store = unstorageJobStore({ storage })
    for (const [operation, call] of [
      ['create', () => store.create(job('a'))],
      ['get', () => store.get('a')],
      ['update', () => store.update(job('a'))],
    ] as const) {
      const error = await (call as () => Promise<unknown>)().catch((reason: unknown) => reason)
      expect(error, operation).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'unstorage-job-store', operation } })
      expect((error as Error).cause, operation).toBe(failure)
    }
  })

  it('unstorage › rejects bad options with a TypeError at once', () => {
    expect(() => unstorageJobStore({} as never)).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }))
    expect(() => unstorageJobStore({ storage: createStorage({ driver: memoryDriver() }), base: 'a b' })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }))
    expect(() => fsJobStore({} as never)).toThrow(expect.objectContaining({ code: 'ERR_MISSING_OPTION' }))
    expect(() => redisJobStore({ base: 'a/b' })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }))
  })

  it('fs › one file per job, <base>/litho/jobs/<id>, and its owner index entry, written through .litho-tmp; a damaged file rejects with ERR_STORAGE', async () => {
    const base = join(root, 'layout')
    const store = fsJobStore({ base })
    try {
      await store.create(job('exp_1'))
      await store.update(job('exp_1', { status: 'processing', attempts: 1 }))
      expect(readdirSync(join(base, 'litho', 'jobs'))).toEqual(['exp_1'])
      expect(readdirSync(join(base, 'litho', 'jobs-index', 'all', 'acct_1'))).toEqual([`${String(Date.parse('2026-01-01T00:00:00.000Z')).padStart(15, '0')}_exp_1`])
      expect(JSON.parse(readFileSync(join(base, 'litho', 'jobs', 'exp_1'), 'utf8'))).toStrictEqual(job('exp_1', { status: 'processing', attempts: 1 }))
      expect(readdirSync(join(base, '.litho-tmp'))).toEqual([])
      mkdirSync(join(base, 'litho', 'jobs'), { recursive: true })
      writeFileSync(join(base, 'litho', 'jobs', 'exp_2'), 'not json')
      await expect(store.get('exp_2')).rejects.toMatchObject({ code: 'ERR_STORAGE', details: { operation: 'get' } })
    } finally {
      await store.dispose?.()
    }
  })

  it('redis › one string per job, <base>:<id>, holding the JSON, and its owner index entry', async () => {
    const base = `${redisBase}:layout`
    const store = redisJobStore({ url: REDIS_URL, base })
    try {
      await store.create(job('exp_1'))
      expect(JSON.parse((await admin.get(`${base}:exp_1`))!)).toStrictEqual(job('exp_1'))
      expect((await admin.keys(`${base}*`)).sort()).toEqual([`${base}-index:all:acct_1:${String(Date.parse('2026-01-01T00:00:00.000Z')).padStart(15, '0')}_exp_1`, `${base}:exp_1`])
    } finally {
      await store.dispose?.()
    }
  })

  it('redis › a disposed store rejects with ERR_STORAGE; a Redis that is down rejects within seconds', async () => {
    const store = redisJobStore({ url: REDIS_URL, base: `${redisBase}:disposed` })
    await store.get('a')
    await store.dispose?.()
    await expect(store.get('a')).rejects.toMatchObject({ code: 'ERR_STORAGE' })
    const down = redisJobStore({ url: 'redis://127.0.0.1:1', base: `${redisBase}:down` })
    const started = Date.now()
    try {
      await expect(down.create(job('a'))).rejects.toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { operation: 'create' } })
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      await down.dispose?.()
    }
  })
})
