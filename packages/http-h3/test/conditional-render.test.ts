// GET renders with the output cache: the strong ETag, If-None-Match and 304 (RFC 9110, 13.1.2),
// every fetch metered, and the cache shared by two app instances through one file store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRenderer, type RenderResult } from '@litho/core'
import type { UserRecord } from '@litho/core/contracts'
import { createLithoApp } from '../src/index.js'
import { createHarness, expectError, RENDER_URL, sniff, WINDOW, type Harness } from './_harness.js'

let h: Harness
let user: UserRecord
let key: string
let code: string

beforeAll(async () => {
  h = await createHarness()
  user = await h.createUser('pro')
  key = await h.createKey(user)
  code = await h.createDesign(user)
})
afterAll(() => h.close())

const get = (query = '', headers: Record<string, string> = {}, app = h) => app.fetch(`/v1/${code}${query}`, { headers: { 'dma-api-key': key, ...headers } })
const usage = () => h.meter.usage({ subject: user.id, window: WINDOW })

describe('GET render › ETag', () => {
  it('GET render › an image carries a strong ETag and private, no-cache; a repeat is a cache hit, metered', async () => {
    const before = await usage()
    const first = await get('?title.text=Etag')
    const second = await get('?title.text=Etag')
    expect(first.status).toBe(200)
    expect(first.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/)
    expect(first.headers.get('cache-control')).toBe('private, no-cache')
    expect([first.headers.get('x-litho-cache'), second.headers.get('x-litho-cache')]).toEqual(['miss', 'hit'])
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'))
    expect(Buffer.from(await second.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer()))).toBe(true)
    expect(await usage()).toBe(before + 2)
    expect(Number(second.headers.get('x-quota-remaining'))).toBe(10_000 - (await usage()))
  })

  it('GET render › the ETag changes with the overrides, the format, the quality and the variation', async () => {
    const tags = await Promise.all(['?title.text=A', '?title.text=B', '?title.text=A&format=png', '?title.text=A&quality=50', '?title.text=A&variation=square'].map(async (q) => (await get(q)).headers.get('etag')))
    expect(new Set(tags).size).toBe(5)
  })

  it('GET render › hosted delivery is JSON without an ETag; a POST render is not cacheable by clients', async () => {
    const hosted = await get('?delivery=hosted')
    expect(hosted.status).toBe(200)
    expect(hosted.headers.get('etag')).toBeNull()
    expect(hosted.headers.get('cache-control')).toBe('private, no-store')
    const post = await h.fetch(`/v1/${code}`, { method: 'POST', headers: { 'dma-api-key': key, 'content-type': 'application/json' }, body: '{"title.text":"Etag"}' })
    expect(post.status).toBe(200)
    expect(post.headers.get('etag')).toBeNull()
    expect(post.headers.get('cache-control')).toBe('private, no-store')
    expect(post.headers.get('x-litho-cache')).toBe('hit') // the GET above rendered the same output
  })
})

describe('GET render › If-None-Match', () => {
  let etag: string
  beforeAll(async () => {
    etag = (await get('?title.text=Cond')).headers.get('etag')!
  })

  it.each([
    ['the tag itself', () => etag],
    ['the weak form (weak comparison)', () => `W/${etag}`],
    ['a list that holds it', () => `"nope", ${etag}, W/"other"`],
    ['a list with empty members', () => `, ,${etag},`],
    ['*', () => '*'],
  ])('GET render › If-None-Match with %s → 304 without a body, with ETag and quota headers, metered', async (_name, value) => {
    const before = await usage()
    const response = await get('?title.text=Cond', { 'if-none-match': value() })
    expect(response.status).toBe(304)
    expect(await response.text()).toBe('')
    expect(response.headers.get('etag')).toBe(etag)
    expect(response.headers.get('cache-control')).toBe('private, no-cache')
    expect(response.headers.get('x-quota-limit')).toBe('10000')
    expect(await usage()).toBe(before + 1)
    expect(Number(response.headers.get('x-quota-remaining'))).toBe(10_000 - (await usage()))
  })

  it('GET render › If-None-Match with another tag → 200 and the image', async () => {
    const response = await get('?title.text=Cond', { 'if-none-match': '"something-else"' })
    expect(response.status).toBe(200)
    expect(sniff(new Uint8Array(await response.arrayBuffer()))).toBe('jpeg')
  })

  it.each(['garbage', '"unterminated', 'W/', '*, "a"', '"a" "b"', 'W/"a', '""x', ' '])('GET render › a malformed If-None-Match (%j) is ignored: 200, never 500', async (value) => {
    const response = await get('?title.text=Cond', { 'if-none-match': value })
    expect(response.status).toBe(200)
    expect(response.headers.get('etag')).toBe(etag)
  })

  it('GET render › If-None-Match: * on an unknown design is its 404, not a 304, and costs nothing', async () => {
    const before = await usage()
    await expectError(await h.fetch('/v1/AAAAAAAAAAAAAAAAAAAAAA', { headers: { 'dma-api-key': key, 'if-none-match': '*' } }), 404, /render code/)
    expect(await usage()).toBe(before)
  })

  it('GET render › publishing a new version changes every ETag of the design: the old tag gets a 200', async () => {
    const tags = await Promise.all(['?title.text=Cond', '', '?format=png'].map(async (q) => (await get(q)).headers.get('etag')))
    const record = (await h.designs.getByRenderCode(code))!
    h.clock.advance(1000)
    await h.designs.update({ ...record, design: { ...(record.design as object), background: '#123456' }, updatedAt: h.clock.now().toISOString() })
    const after = await Promise.all(['?title.text=Cond', '', '?format=png'].map((q, i) => get(q, { 'if-none-match': tags[i]! })))
    expect(after.map((r) => r.status)).toEqual([200, 200, 200])
    after.forEach((r, i) => expect(r.headers.get('etag')).not.toBe(tags[i]))
  })
})

describe('GET render › shared output cache', () => {
  it('GET render › two app instances on one file store: the second serves the first one\'s render without rendering', async () => {
    const a = await createHarness({ outputCache: { shared: true } })
    try {
      const owner = await a.createUser('pro')
      const ownerKey = await a.createKey(owner)
      const renderCode = await a.createDesign(owner)
      const renders: number[] = []
      const real = createRenderer()
      // render() only: without renderResolved, every render of instance b goes through it.
      const counting = { render: async (...args: Parameters<typeof real.render>): Promise<RenderResult> => (renders.push(1), real.render(...args)) }
      const b = createLithoApp({ designs: a.designs, accounts: a.accounts, files: a.files, meter: a.meter, signer: a.signer, clock: a.clock, renderer: counting, renderUrl: RENDER_URL, outputCache: { shared: true }, onError: () => {} })
      const url = `/v1/${renderCode}?title.text=Shared&format=png`
      const first = await a.fetch(url, { headers: { 'dma-api-key': ownerKey } })
      expect(first.headers.get('x-litho-cache')).toBe('miss')
      const second = await b.fetch(new Request(new URL(url, RENDER_URL), { headers: { 'dma-api-key': ownerKey } }))
      expect(second.status).toBe(200)
      expect(second.headers.get('x-litho-cache')).toBe('hit')
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'))
      expect(Buffer.from(await second.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer()))).toBe(true)
      expect(renders).toHaveLength(0)
      expect(await a.meter.usage({ subject: owner.id, window: WINDOW })).toBe(2)
      await real.close()
    } finally {
      await a.close()
    }
  })

  it('GET render › outputCache: false renders every time, still with an ETag and 304s', async () => {
    const c = await createHarness({ outputCache: false })
    try {
      const owner = await c.createUser('pro')
      const ownerKey = await c.createKey(owner)
      const renderCode = await c.createDesign(owner)
      const first = await c.fetch(`/v1/${renderCode}`, { headers: { 'dma-api-key': ownerKey } })
      expect(first.headers.get('x-litho-cache')).toBeNull()
      const second = await c.fetch(`/v1/${renderCode}`, { headers: { 'dma-api-key': ownerKey, 'if-none-match': first.headers.get('etag')! } })
      expect(second.status).toBe(304)
    } finally {
      await c.close()
    }
  })
})

describe('GET render › output cache option', () => {
  it('GET render › a bad outputCache size is refused when the app is created, naming the option', async () => {
    await expect(createHarness({ outputCache: { maxBytes: -1 } })).rejects.toThrow(/Expected option maxBytes to be a whole number ≥ 0 but received -1/)
  })
})

describe('GET render › OpenAPI', () => {
  it('GET render › the operation documents If-None-Match, the ETag and the 304', async () => {
    const document = (await (await h.fetch('/openapi.json')).json()) as { paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }>; responses: Record<string, { headers: Record<string, unknown> }> }>> }
    const operation = document.paths['/v1/{design_id}']!.get
    expect(operation!.parameters.some((p) => p.name === 'If-None-Match' && p.in === 'header')).toBe(true)
    expect(operation!.responses['304']!.headers.ETag).toBeDefined()
    expect(operation!.responses['200']!.headers.ETag).toBeDefined()
    expect(document.paths['/v1/{design_id}']!.post!.responses['304']).toBeUndefined()
  })
})
