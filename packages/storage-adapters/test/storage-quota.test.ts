// The storage quota (plan storageBytes) and the lifetime of stored renders (core's service
// operations), over the real meters (memory, fs, Redis) with a fake renderer that answers a known
// number of bytes. Redis tests need REDIS_URL (default redis://127.0.0.1:6379) and never skip.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import {
  PLANS,
  bulkRender,
  createUrlSigner,
  meterStorage,
  renderDesign,
  storageUsage,
  sweepStoredFiles,
  type RenderOptions,
  type RenderResult,
} from '@litho/core'
import type { FileStore, Meter } from '@litho/core/contracts'
import { afterAll, describe, expect, it } from 'vitest'
import { memoryDesignStore } from '../src/design-store.js'
import { memoryFileStore } from '../src/file-store.js'
import { fsMeter } from '../src/fs.js'
import { memoryMeter } from '../src/memory.js'
import { redisMeter } from '../src/redis.js'
import { memoryRetentionIndex } from '../src/retention-index.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'

const BYTES = 1000
const NOW = Date.UTC(2026, 10, 23, 12)
const dir = setupTempDir('litho-storage-quota-')
const { base: redisBase } = setupRedis()
const meters: Meter[] = []
afterAll(async () => {
  await Promise.all(meters.map((m) => m.dispose?.()))
})

/** Answers BYTES bytes for every render. */
const renderer = {
  async render(document: unknown, options: RenderOptions = {}): Promise<RenderResult> {
    const doc = document as { width: number; height: number }
    const format = options.format ?? 'png'
    return { bytes: new Uint8Array(BYTES), contentType: `image/${format}`, format, width: doc.width, height: doc.height, variation: 'master', warnings: [] }
  },
}

let n = 0
const backends: Array<[string, () => Meter]> = [
  ['memory', () => memoryMeter()],
  ['fs', () => fsMeter({ base: join(dir, `m${++n}`) })],
  ['redis', () => redisMeter({ url: REDIS_URL, base: `${redisBase}:m${++n}` })],
]

async function setup(makeMeter: () => Meter, options: { files?: (files: FileStore) => FileStore } = {}) {
  const meter = makeMeter()
  meters.push(meter)
  const signer = createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] })
  const real = memoryFileStore({ publicBaseUrl: 'https://render.example.test/files', signer })
  const files = options.files ? options.files(real) : real
  const designs = memoryDesignStore()
  const retention = memoryRetentionIndex()
  let now = NOW
  const clock = { now: () => new Date(now), advance: (ms: number) => void (now += ms) }
  const user = { id: `u_${++n}`, plan: 'free' as const }
  const renderCode = `rc_${randomBytes(12).toString('base64url')}`
  const document = { version: 2, width: 100, height: 100, components: [] }
  await designs.create({ id: `d_${n}`, ownerId: user.id, name: 'Card', renderCode, design: document as never, draft: null, createdAt: new Date(NOW).toISOString(), updatedAt: new Date(NOW).toISOString() })
  const services = { designs, files, meter, retention, renderer, clock }
  /** Fills the storage so that exactly `files` renders still fit. */
  const leaveRoomFor = (count: number) => meterStorage(meter, { account: user, key: `${user.id}/old.png`, bytes: PLANS.free.storageBytes! - count * BYTES })
  const render = (delivery: 'hosted' | 'signed', expiresIn?: number) => renderDesign(services, { account: user, renderCode, params: { delivery, format: 'png', ...(expiresIn ? { expiresIn } : {}) } })
  const renders = () => meter.usage({ subject: user.id, window: '2026-11' })
  return { services, user, renderCode, real, clock, leaveRoomFor, render, renders }
}

describe.each(backends)('storage quota on the %s meter', (_name, makeMeter) => {
  it('storage quota › 20 concurrent hosted renders with room for 5 files store exactly 5; the others are refused naming storage, refunded, and store nothing', async () => {
    const { services, user, leaveRoomFor, render, renders } = await setup(makeMeter)
    await leaveRoomFor(5)
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => render(i % 2 ? 'hosted' : 'signed')))
    const stored = outcomes.filter((o) => o.status === 'fulfilled')
    expect(stored).toHaveLength(5)
    for (const o of outcomes) {
      if (o.status === 'fulfilled') continue
      expect(o.reason).toMatchObject({ code: 'ERR_STORAGE_QUOTA', details: { limit: PLANS.free.storageBytes, bytes: BYTES } })
      expect((o.reason as Error).message).toMatch(/^The storage of the free plan \(500 MB of stored renders\) is full/)
    }
    expect(await renders(), 'refused renders are refunded').toBe(5)
    expect(await storageUsage(services.meter, user)).toEqual({ usedBytes: PLANS.free.storageBytes, limitBytes: PLANS.free.storageBytes })
    const recorded = await services.retention.list({ limit: 100 })
    expect(recorded).toHaveLength(5)
    for (const file of recorded) expect(await services.files.get(file.key)).not.toBeNull()
  })

  it('storage quota › bulk items past the storage limit are failed rows, refunded; the others are stored', async () => {
    const { services, user, renderCode, leaveRoomFor, renders } = await setup(makeMeter)
    await leaveRoomFor(2)
    const { body } = await bulkRender(services, { account: user, request: { items: [{ designId: renderCode }, { designId: renderCode }, { designId: renderCode }] } })
    expect(body.summary).toEqual({ total: 3, succeeded: 2, failed: 1 })
    expect(body.results.find((r) => !r.success)?.error).toMatch(/storage of the free plan/)
    expect(await renders()).toBe(2)
    expect(await services.retention.list({ limit: 100 })).toHaveLength(2)
  })

  it('storage quota › a failed put gives the bytes back and leaves no record', async () => {
    const { services, user, render, renders } = await setup(makeMeter, { files: (files) => ({ ...files, put: async () => { throw new Error('disk full') } }) })
    await expect(render('hosted')).rejects.toMatchObject({ code: 'ERR_STORAGE' })
    expect((await storageUsage(services.meter, user)).usedBytes).toBe(0)
    expect(await services.retention.list({ limit: 10 })).toEqual([])
    expect(await renders()).toBe(0)
  })

  it('retention › a signed file goes once its URL expired and its bytes come back; hosted files stay unless a retention is set', async () => {
    const { services, user, clock, render, real } = await setup(makeMeter)
    const signed = await render('signed', 1)
    const hosted = await render('hosted')
    const keyOf = (r: Awaited<ReturnType<typeof render>>) => (r.delivery === 'stream' ? '' : r.body.file.key)
    expect((await storageUsage(services.meter, user)).usedBytes).toBe(2 * BYTES)

    clock.advance(30_000)
    expect(await sweepStoredFiles(services, { hostedRetentionDays: null })).toMatchObject({ scanned: 2, deleted: 0 })
    clock.advance(31_000)
    expect(await sweepStoredFiles(services, { hostedRetentionDays: null })).toEqual({ scanned: 2, deleted: 1, freedBytes: BYTES, failed: 0 })
    expect(await real.get(keyOf(signed))).toBeNull()
    expect(await real.get(keyOf(hosted))).not.toBeNull()
    expect((await storageUsage(services.meter, user)).usedBytes).toBe(BYTES)

    // Kept by default, however old; gone after the retention.
    clock.advance(400 * 86_400_000)
    expect((await sweepStoredFiles(services, { hostedRetentionDays: null })).deleted).toBe(0)
    expect(await sweepStoredFiles(services, { hostedRetentionDays: 30 })).toEqual({ scanned: 1, deleted: 1, freedBytes: BYTES, failed: 0 })
    expect(await real.get(keyOf(hosted))).toBeNull()
    expect((await storageUsage(services.meter, user)).usedBytes).toBe(0)
    expect(await services.retention.list({ limit: 10 })).toEqual([])
  })

  it('retention › a delete that fails is counted and retried by the next sweep, never refunded twice', async () => {
    let failing = true
    const { services, user, clock, render } = await setup(makeMeter, {
      files: (files) => ({ ...files, put: files.put.bind(files), delete: async (key: string) => (failing ? Promise.reject(new Error('storage down')) : files.delete(key)) }),
    })
    await render('signed', 1)
    clock.advance(61_000)
    expect(await sweepStoredFiles(services, { hostedRetentionDays: null })).toMatchObject({ deleted: 0, failed: 1 })
    expect((await storageUsage(services.meter, user)).usedBytes).toBe(BYTES)
    failing = false
    expect(await sweepStoredFiles(services, { hostedRetentionDays: null })).toMatchObject({ deleted: 1, freedBytes: BYTES, failed: 0 })
    expect(await sweepStoredFiles(services, { hostedRetentionDays: null })).toMatchObject({ scanned: 0, deleted: 0 })
    expect((await storageUsage(services.meter, user)).usedBytes).toBe(0)
  })
})
