import { memoryDesignStore } from '@litho/storage-adapters/design-store'
import { memoryFileStore } from '@litho/storage-adapters/file-store'
import { memoryMeter } from '@litho/storage-adapters/memory'
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createOutputCache, createUrlSigner, publishDesign, renderDesign, updateDesign, type OutputCacheEntry, type RenderResult, type ResolvedDocument } from '../../src/index.js'
import type { RenderDesignRequest } from '../../src/service/render-design.js'

const alice = { id: 'u_alice', plan: 'pro' as const }
const design = {
  version: 2,
  width: 300,
  height: 100,
  background: '#ffffff',
  components: [
    { key: 'title', type: 'text', width: 280, height: 40, text: 'Hi', dynamic: ['text', 'color'] },
    { key: 'photo', type: 'image', y: 40, width: 100, height: 60, dynamic: ['src'] },
  ],
  variations: [{ id: 'wide', width: 600, height: 200 }],
}

/** A renderer that counts its calls and answers bytes that name the call. */
function countingRenderer(size = 100) {
  const calls: ResolvedDocument[] = []
  return {
    calls,
    render: async (): Promise<RenderResult> => {
      throw new Error('render() is not used when renderResolved() exists')
    },
    renderResolved: async (resolved: ResolvedDocument): Promise<RenderResult> => {
      calls.push(resolved)
      const bytes = new Uint8Array(size).fill(calls.length)
      return { bytes, contentType: 'image/png', format: 'png', width: resolved.width, height: resolved.height, variation: resolved.variation, warnings: [{ code: 'text_cut', key: 'title', message: 'cut' }] }
    },
  }
}

async function setup(options: { outputCache?: ReturnType<typeof createOutputCache> | undefined; files?: ReturnType<typeof memoryFileStore> } = {}) {
  let now = new Date('2026-11-26T12:00:00Z')
  const clock = { now: () => now }
  const designs = memoryDesignStore()
  const renderCode = `rc_${randomBytes(12).toString('base64url')}`
  await designs.create({ id: 'd_0001', ownerId: alice.id, name: 'Card', renderCode, design, draft: null, createdAt: now.toISOString(), updatedAt: now.toISOString() })
  const files = options.files ?? memoryFileStore({ publicBaseUrl: 'https://render.example.test/files', signer: createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] }) })
  const renderer = countingRenderer()
  const outputCache = 'outputCache' in options ? options.outputCache : createOutputCache({ clock })
  const services = { designs, files, meter: memoryMeter(), renderer, clock, ...(outputCache ? { outputCache } : {}) }
  const render = (request: Partial<RenderDesignRequest> = {}) => renderDesign(services, { account: alice, renderCode, params: { format: 'png' }, ...request })
  return { services, renderer, render, designs, advance: (ms: number) => (now = new Date(now.getTime() + ms)) }
}

const entry = (size: number, fill = 1): OutputCacheEntry => ({ bytes: new Uint8Array(size).fill(fill), contentType: 'image/png', format: 'png', width: 1, height: 1, variation: 'master', warnings: [] })

describe('output cache › renders', () => {
  it('output cache › a repeat is served without rendering, with the same bytes and ETag, and is metered as a render', async () => {
    const { render, renderer } = await setup()
    const first = await render({ overrides: 'title.text=Hello' })
    const second = await render({ overrides: 'title.text=Hello' })
    if (first.delivery !== 'stream' || second.delivery !== 'stream') throw new Error('expected stream results')
    expect(renderer.calls).toHaveLength(1)
    expect([first.cache, second.cache]).toEqual(['miss', 'hit'])
    expect(second.bytes).toEqual(first.bytes)
    expect(second.etag).toBe(first.etag)
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/)
    expect(second.warnings.map((w) => w.code)).toEqual(['text_cut'])
    expect([first.quota.usage, second.quota.usage]).toEqual([1, 2])
  })

  it('output cache › a query override and the same override in a body are one entry; an ignored override keeps the entry but warns', async () => {
    const { render, renderer } = await setup()
    const query = await render({ overrides: 'title.text=Hello' })
    const body = await render({ overrides: { title: { text: 'Hello' } } })
    const ignored = await render({ overrides: 'title.text=Hello&nothing.here=1' })
    expect(renderer.calls).toHaveLength(1)
    expect(body.delivery === 'stream' && body.etag).toBe(query.delivery === 'stream' && query.etag)
    expect(ignored.delivery === 'stream' && ignored.etag).toBe(query.delivery === 'stream' && query.etag)
    expect(ignored.warnings.map((w) => w.code)).toEqual(['override_ignored', 'text_cut'])
  })

  it('output cache › every input changes the ETag: override value, override field, variation, format, quality', async () => {
    const { render } = await setup()
    const etagOf = async (request: Partial<RenderDesignRequest>) => {
      const result = await render(request)
      return result.delivery === 'stream' ? result.etag : undefined
    }
    const etags = [
      await etagOf({ overrides: 'title.text=Hello' }),
      await etagOf({ overrides: 'title.text=Hello!' }),
      await etagOf({ overrides: 'title.color=%23ff0000' }),
      await etagOf({ overrides: 'title.text=Hello', params: { format: 'png', variation: 'wide' } }),
      await etagOf({ overrides: 'title.text=Hello', params: { format: 'jpeg' } }),
      await etagOf({ overrides: 'title.text=Hello', params: { format: 'jpeg', quality: 81 } }),
      await etagOf({}),
    ]
    expect(new Set(etags).size).toBe(etags.length)
  })

  it('output cache › publishing a new version, or updating and publishing at once, changes the ETag of every render of the design', async () => {
    const { render, services, advance } = await setup()
    const requests: Array<Partial<RenderDesignRequest>> = [{}, { overrides: 'title.text=A' }, { params: { format: 'jpeg', variation: 'wide' } }]
    const etags = async () => Promise.all(requests.map(async (r) => ((await render(r)) as { etag?: string }).etag))
    const before = await etags()
    advance(1000)
    await updateDesign(services, { account: alice, id: 'd_0001', document: { ...design, background: '#eeeeee' } })
    advance(1000)
    await publishDesign(services, { account: alice, id: 'd_0001' })
    const published = await etags()
    published.forEach((etag, i) => expect(etag).not.toBe(before[i]))
    advance(1000)
    await updateDesign(services, { account: alice, id: 'd_0001', document: { ...design, background: '#000000' }, publish: true })
    const updated = await etags()
    updated.forEach((etag, i) => expect(etag).not.toBe(published[i]))
  })

  it('output cache › two publishes stamped with the same updatedAt (one millisecond, or instances whose clocks drift) still change the ETag and the bytes', async () => {
    const { render, services, renderer } = await setup()
    const first = (await render()) as { etag?: string; bytes: Uint8Array }
    // The clock does not move: both versions carry the updatedAt of the first render's record.
    await updateDesign(services, { account: alice, id: 'd_0001', document: { ...design, background: '#eeeeee' }, publish: true })
    const second = (await render()) as { etag?: string; bytes: Uint8Array }
    await updateDesign(services, { account: alice, id: 'd_0001', document: { ...design, background: '#000000' }, publish: true })
    const third = (await render()) as { etag?: string; bytes: Uint8Array }
    expect(new Set([first.etag, second.etag, third.etag]).size).toBe(3)
    expect(renderer.calls.map((call) => call.document.background)).toEqual(['#ffffff', '#eeeeee', '#000000'])
    expect(((await render()) as { etag?: string }).etag).toBe(third.etag)
    expect(renderer.calls).toHaveLength(3)
  })

  it('output cache › a matching ifNoneMatch is answered without rendering and metered; another tag renders', async () => {
    const { render, renderer } = await setup({ outputCache: undefined })
    const first = await render()
    if (first.delivery !== 'stream' || first.etag === undefined) throw new Error('expected a stream result with an etag')
    const etag = first.etag
    const hit = await render({ ifNoneMatch: (tag) => tag === etag })
    expect(hit).toMatchObject({ delivery: 'not-modified', etag })
    expect(hit.quota.usage).toBe(2)
    const miss = await render({ ifNoneMatch: (tag) => tag === '"other"' })
    expect(miss.delivery).toBe('stream')
    expect(miss.quota.usage).toBe(3)
    expect(renderer.calls).toHaveLength(2)
    expect(first.cache).toBeUndefined() // no cache: still an ETag
  })

  it('output cache › hosted delivery is never served from the cache', async () => {
    const { render, renderer } = await setup()
    await render({ params: { format: 'png', delivery: 'hosted' } })
    await render({ params: { format: 'png', delivery: 'hosted' } })
    expect(renderer.calls).toHaveLength(2)
  })

  it('output cache › a failed render is refunded and nothing is cached', async () => {
    const { render, renderer } = await setup()
    const failing = renderer.renderResolved
    renderer.renderResolved = async () => {
      throw new Error('boom')
    }
    await expect(render()).rejects.toThrow('boom')
    renderer.renderResolved = failing
    const after = await render()
    expect(after.delivery === 'stream' && after.cache).toBe('miss')
    expect(after.quota.usage).toBe(1)
  })

  it('output cache › a design with a remote image is kept at most remoteTtlMs (0: not kept)', async () => {
    const { render, renderer } = await setup({ outputCache: createOutputCache({ remoteTtlMs: 0 }) })
    await render({ overrides: 'photo.src=https://images.example.test/a.png' })
    await render({ overrides: 'photo.src=https://images.example.test/a.png' })
    expect(renderer.calls).toHaveLength(2)
    await render({ overrides: 'photo.src=data:image/png;base64,iVBORw0KGgo=' })
    await render({ overrides: 'photo.src=data:image/png;base64,iVBORw0KGgo=' })
    expect(renderer.calls).toHaveLength(3)
  })
})

describe('output cache › memory', () => {
  it('output cache › memory is bounded in bytes: the least recently used entry goes first', async () => {
    const cache = createOutputCache({ maxBytes: 3 * (1000 + 512) })
    await cache.set('a', entry(1000))
    await cache.set('b', entry(1000))
    await cache.set('c', entry(1000))
    await cache.get('a') // a is now more recent than b
    await cache.set('d', entry(1000))
    expect(await cache.get('b')).toBeUndefined()
    expect(await cache.get('a')).toBeDefined()
    expect(await cache.get('d')).toBeDefined()
    expect(cache.stats().bytes).toBeLessThanOrEqual(3 * 1512)
    await cache.set('huge', entry(5000))
    expect(await cache.get('huge')).toBeUndefined()
  })

  it('output cache › maxBytes 0 keeps nothing; bad sizes and prefixes are refused with the option named', async () => {
    const cache = createOutputCache({ maxBytes: 0 })
    await cache.set('a', entry(10))
    expect(await cache.get('a')).toBeUndefined()
    expect(() => createOutputCache({ maxBytes: -1 })).toThrow(/maxBytes.*-1/)
    expect(() => createOutputCache({ maxBytes: 1.5 })).toThrow(/maxBytes/)
    expect(() => createOutputCache({ sharedPrefix: '../x' })).toThrow(/sharedPrefix/)
  })
})

describe('output cache › shared through a file store', () => {
  const store = () => memoryFileStore({ publicBaseUrl: 'https://render.example.test/files', signer: createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] }) })

  it('output cache › an instance serves what another rendered, with its metadata; entries are private files under the prefix', async () => {
    const files = store()
    const a = createOutputCache({ shared: files, sharedPrefix: 'oc/test' })
    const b = createOutputCache({ shared: files, sharedPrefix: 'oc/test' })
    await a.set('k1', { ...entry(50, 7), warnings: [{ code: 'text_cut', key: 'title', message: 'cut' }] })
    const found = await b.get('k1')
    expect(found?.bytes).toEqual(new Uint8Array(50).fill(7))
    expect(found?.warnings).toEqual([{ code: 'text_cut', key: 'title', message: 'cut' }])
    expect(found?.contentType).toBe('image/png')
    // 'k1' is shorter than the 6 bytes a slot is computed from: slot 0.
    const stored = await files.get('oc/test/0.bin')
    expect(stored?.file.visibility).toBe('private')
  })

  it('output cache › a slot taken by another key, an expired entry and a corrupt file are misses, never another image', async () => {
    let now = new Date('2026-11-26T12:00:00Z')
    const files = store()
    const clock = { now: () => now }
    const a = createOutputCache({ shared: files, sharedSlots: 1, maxBytes: 0, clock })
    await a.set('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', entry(10, 1))
    await a.set('BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', entry(10, 2))
    expect(await a.get('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined()
    expect((await a.get('BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'))?.bytes[0]).toBe(2)
    await a.set('CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC', entry(10, 3), { ttlMs: 60_000 })
    expect(await a.get('CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC')).toBeDefined()
    now = new Date(now.getTime() + 60_001)
    expect(await a.get('CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC')).toBeUndefined()
    await files.put('output-cache/0.bin', new TextEncoder().encode('LOC1\xff\xff\xff\xffgarbage'), { contentType: 'application/octet-stream', visibility: 'private' })
    expect(await a.get('CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC')).toBeUndefined()
  })

  it('output cache › a failing shared store is a miss, reported, and the render goes on', async () => {
    const errors: unknown[] = []
    const broken = { ...store(), get: async () => Promise.reject(new Error('down')), put: async () => Promise.reject(new Error('down')) }
    const cache = createOutputCache({ shared: broken, maxBytes: 0, onError: (e) => errors.push(e) })
    await cache.set('k', entry(10))
    expect(await cache.get('k')).toBeUndefined()
    expect(errors).toHaveLength(2)
  })
})
