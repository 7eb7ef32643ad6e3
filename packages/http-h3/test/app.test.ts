// The app as a whole: the render pool behind it (busy → 503, responsive while rendering),
// mounting into another h3 app, the OpenAPI document, and its options.
import { createRenderPool, type RenderPool } from '@litho/core'
import { worstCase } from '@litho/testing'
import { H3 } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, RENDER_URL, type Harness } from './_harness.js'
import { createLithoApp } from '../src/app/create-litho-app.js'

describe('on the render pool', () => {
  let pool: RenderPool
  let h: Harness
  beforeAll(async () => {
    // One worker and a queue of one: at most two renders in the pool at a time.
    pool = createRenderPool({ threads: 1, maxQueue: 1 })
    await pool.ready()
    h = await createHarness({ renderer: pool })
  })
  afterAll(() => h.close())

  it('beyond what the pool can queue: 503 with Retry-After, and the refused renders are refunded', async () => {
    const user = await h.createUser('pro')
    const key = await h.createKey(user)
    const code = await h.createDesign(user, await worstCase())
    const responses = await Promise.all(Array.from({ length: 6 }, () => h.fetch(`/v1/${code}?format=png`, { headers: { 'dma-api-key': key } })))
    const statuses = responses.map((r) => r.status).sort()
    const busy = responses.filter((r) => r.status === 503)
    expect(busy.length).toBeGreaterThanOrEqual(1)
    expect(statuses.filter((s) => s !== 503).every((s) => s === 200)).toBe(true)
    for (const response of busy) {
      expect(response.headers.get('retry-after')).toBe('2')
      expect(await response.json()).toMatchObject({ success: false, code: 'ERR_RENDER_BUSY', message: expect.stringMatching(/render queue is full/) })
    }
    expect(await h.meter.usage({ subject: user.id, window: '2026-11' })).toBe(6 - busy.length)
  })

  it('answers other requests while a large render runs', async () => {
    const user = await h.createUser('pro')
    const key = await h.createKey(user)
    const code = await h.createDesign(user, await worstCase())
    const order: string[] = []
    const render = h.fetch(`/v1/${code}?format=png`, { headers: { 'dma-api-key': key } }).then((r) => (order.push('render'), r))
    const spec = h.fetch('/openapi.json').then((r) => (order.push('openapi'), r))
    const [rendered, document] = await Promise.all([render, spec])
    expect(rendered.status).toBe(200)
    expect(document.status).toBe(200)
    expect(order).toEqual(['openapi', 'render'])
  })
})

describe('mounting and options', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness()
  })
  afterAll(() => h.close())

  it('mounts under a base path in another h3 app, next to its own routes', async () => {
    const user = await h.createUser()
    const key = await h.createKey(user)
    const code = await h.createDesign(user)
    const parent = new H3()
    parent.get('/', () => 'parent home')
    parent.mount('/litho', h.app)
    expect(await (await parent.request('/')).text()).toBe('parent home')
    const response = await parent.request(`/litho/v1/${code}?format=png`, { headers: { 'dma-api-key': key } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect((await parent.request('/litho/openapi.json')).status).toBe(200)
  })

  it('refuses an app-served file store without a signer, and a renderUrl that is not a URL', () => {
    expect(() => createLithoApp({ designs: h.designs, accounts: h.accounts, files: h.files, meter: h.meter, renderer: { render: async () => { throw new Error('unused') } }, renderUrl: RENDER_URL })).toThrow(
      /Expected option signer/,
    )
    expect(() => createLithoApp({ designs: h.designs, accounts: h.accounts, files: h.files, meter: h.meter, signer: h.signer, renderer: { render: async () => { throw new Error('unused') } }, renderUrl: 'render.example.com' })).toThrow(
      /Expected option renderUrl to be an absolute http\(s\) URL/,
    )
  })

  it('an unexpected error is a 500 without details, reported to onError', async () => {
    const reported: unknown[] = []
    const app = createLithoApp({
      designs: h.designs,
      accounts: h.accounts,
      files: h.files,
      meter: h.meter,
      signer: h.signer,
      renderer: { render: async () => { throw new Error('secret internals') } },
      renderUrl: RENDER_URL,
      onError: (error) => reported.push(error),
    })
    const user = await h.createUser()
    const key = await h.createKey(user)
    const code = await h.createDesign(user)
    const response = await app.request(`/v1/${code}`, { headers: { 'dma-api-key': key } })
    expect(response.status).toBe(500)
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toEqual({ success: false, message: 'internal error', code: 'ERR_INTERNAL' })
    expect(reported).toHaveLength(1)
    // And the failed render was refunded.
    expect(await h.meter.usage({ subject: user.id, window: '2026-11' })).toBe(0)
  })
})

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document generated from the request schemas', async () => {
    const h = await createHarness()
    const doc = (await (await h.fetch('/openapi.json')).json()) as any
    await h.close()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers).toEqual([{ url: RENDER_URL, description: '{render_url}' }])
    expect(Object.keys(doc.paths)).toEqual(['/v1/{design_id}', '/bulk', '/files/{key}'])
    const get = doc.paths['/v1/{design_id}'].get
    const byName = Object.fromEntries(get.parameters.map((p: any) => [p.name, p]))
    expect(byName.quality.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 80 })
    expect(byName.expiresIn.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 10080, default: 60 })
    expect(byName.format.schema).toMatchObject({ enum: ['png', 'jpeg', 'webp', 'pdf'], default: 'jpeg' })
    expect(byName.delivery.schema).toMatchObject({ enum: ['stream', 'hosted', 'signed'], default: 'stream' })
    expect(get.security).toEqual([{ renderKeyHeader: [] }, { renderKeyQuery: [] }, { renderKeyQueryKey: [] }, { renderKeyQueryApiKey: [] }])
    expect(doc.paths['/v1/{design_id}'].post.security).toEqual([{ renderKeyHeader: [] }])
    expect(doc.paths['/bulk'].post.security).toEqual([{ renderKeyHeader: [] }, { renderKeyQuery: [] }])
    expect(Object.keys(get.responses).sort()).toEqual(['200', '400', '401', '404', '413', '422', '429', '503'])
    const bulk = doc.components.schemas.BulkRequest
    expect(bulk.required).toEqual(['items'])
    expect(bulk.properties.items).toMatchObject({ minItems: 1, maxItems: 25 })
    expect(bulk.properties.items.items.required).toEqual(['designId'])
    expect(bulk.properties.delivery).toMatchObject({ enum: ['hosted', 'signed'], default: 'hosted' })
    // Every $ref points at a schema that exists.
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[A-Za-z]+"/g) ?? []
    for (const ref of refs) expect(doc.components.schemas).toHaveProperty(ref.slice(22, -1))
  })
})

describe('docs/http-reference.md', () => {
  it('is what the generator produces from the OpenAPI document now', async () => {
    const { readFileSync } = await import('node:fs')
    const { HTTP_REFERENCE_FILE, renderHttpReference } = await import('../src/app/reference.js')
    // If this fails, run `npx tsx packages/http-h3/scripts/gen-reference.ts` from the repo root.
    expect(readFileSync(new URL(`../../../${HTTP_REFERENCE_FILE}`, import.meta.url), 'utf8')).toBe(renderHttpReference())
  })
})
