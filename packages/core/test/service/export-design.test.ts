import { randomBytes } from 'node:crypto'
import { memoryDesignStore } from '@litho/storage-adapters/design-store'
import { memoryFileStore } from '@litho/storage-adapters/file-store'
import { memoryMeter } from '@litho/storage-adapters/memory'
import { afterAll, describe, expect, it } from 'vitest'
import type { DesignRecord, FileStore, Meter } from '../../src/contracts/index.js'
import {
  EXPORT_RESERVED_KEYS,
  ExportParamsSchema,
  LithoError,
  createRenderer,
  createUrlSigner,
  exportDesign,
  exportOverrides,
  parseExportParams,
  renderDesign,
  type DesignDocument,
  type ExportDesignRequest,
  type ExportServices,
  type RenderOptions,
  type RenderResult,
} from '../../src/index.js'
import { rejection } from './helpers.js'

const alice = { id: 'u_alice', plan: 'pro' as const }
const bob = { id: 'u_bob', plan: 'free' as const }
const NOW = new Date('2026-11-23T12:00:00Z')
const WINDOW = '2026-11'

/** A published document: a dynamic title, and a text component keyed literally `format`. */
function publishedDocument(width = 200): Record<string, unknown> {
  return {
    version: 2,
    width,
    height: 100,
    background: '#ffffff',
    components: [
      { key: 'title', type: 'text', width: 180, height: 40, text: 'Published' },
      { key: 'format', type: 'text', y: 50, width: 180, height: 40, text: 'label' },
    ],
    variations: [{ id: 'square', name: 'Square', width: 100, height: 100 }],
  }
}
const draftDocument = () => ({ ...publishedDocument(300), components: [{ key: 'title', type: 'text', width: 180, height: 40, text: 'Draft' }] })

/** A renderer that records what it was asked and answers fake bytes (or fails when told to). */
function spyRenderer() {
  const calls: Array<{ document: DesignDocument; options: RenderOptions }> = []
  let failure: Error | undefined
  return {
    calls,
    failWith(error: Error | undefined) {
      failure = error
    },
    async render(document: unknown, options: RenderOptions = {}): Promise<RenderResult> {
      calls.push({ document: document as DesignDocument, options })
      if (failure) throw failure
      const format = options.format ?? 'jpeg'
      const doc = document as { width: number; height: number }
      return { bytes: new Uint8Array([1, 2, 3]), contentType: `image/${format}`, format, width: doc.width, height: doc.height, variation: options.variation ?? 'master', warnings: [] }
    },
  }
}

let counter = 0
async function setup(options: { files?: FileStore; meter?: Meter } = {}) {
  const designs = memoryDesignStore()
  const signer = createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] })
  const renderer = spyRenderer()
  const services = {
    designs,
    files: options.files ?? memoryFileStore({ publicBaseUrl: 'https://render.example.test/files', signer }),
    meter: options.meter ?? memoryMeter(),
    renderer,
    clock: { now: () => NOW },
  } satisfies ExportServices
  async function addDesign(record: Partial<DesignRecord> = {}): Promise<string> {
    const id = `d_${String(++counter).padStart(4, '0')}`
    await designs.create({ id, ownerId: alice.id, name: 'Card', renderCode: `rc_${randomBytes(12).toString('base64url')}`, design: publishedDocument(), draft: null, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(), ...record })
    return id
  }
  const usage = (subject = alice.id) => services.meter.usage({ subject, window: WINDOW })
  const run = (request: Partial<ExportDesignRequest> & { id: string }) => exportDesign(services, { account: alice, delivery: 'stream', params: {}, ...request })
  return { services, renderer, addDesign, usage, run }
}

describe('parseExportParams', () => {
  it('export › has no defaults of its own: the operation defaults format to png', () => {
    expect(parseExportParams(new URLSearchParams())).toEqual({})
    expect(ExportParamsSchema.shape.format.meta()).toMatchObject({ default: 'png' })
  })

  it('export › reads the query: numbers and draft coerced from their strings', () => {
    expect(parseExportParams(new URLSearchParams('format=webp&quality=90&variation=square&draft=true&expiresIn=30'))).toEqual({ format: 'webp', quality: 90, variation: 'square', draft: true, expiresIn: 30 })
    for (const [text, value] of [['true', true], ['1', true], ['false', false], ['0', false], ['TRUE', true]] as const) expect(parseExportParams(new URLSearchParams(`draft=${text}`))).toEqual({ draft: value })
  })

  it('export › reads the body; the query wins for a parameter given in both', () => {
    expect(parseExportParams(new URLSearchParams(), { format: 'jpeg', quality: 50, variation: 'square', draft: true, expiresIn: 5, 'title.text': 'x' })).toEqual({ format: 'jpeg', quality: 50, variation: 'square', draft: true, expiresIn: 5 })
    expect(parseExportParams(new URLSearchParams('format=pdf&draft=0'), { format: 'jpeg', quality: 50, draft: true })).toEqual({ format: 'pdf', quality: 50, draft: false })
    // A bad body value the query replaces is never looked at.
    expect(parseExportParams(new URLSearchParams('format=png'), { format: 'gif' })).toEqual({ format: 'png' })
  })

  it.each([
    ['format=gif', undefined, 'format', /^format: expected one of png, jpeg, webp, pdf, received "gif"/],
    ['quality=0', undefined, 'quality', /^quality: expected a whole number from 1 to 100, received 0/],
    ['quality=101', undefined, 'quality', /^quality: expected a whole number from 1 to 100, received 101/],
    ['expiresIn=0', undefined, 'expiresIn', /^expiresIn: expected a whole number from 1 to 10080, received 0/],
    ['expiresIn=10081', undefined, 'expiresIn', /^expiresIn: expected a whole number from 1 to 10080, received 10081/],
    ['draft=yes', undefined, 'draft', /^draft: expected true or false, received "yes"/],
    ['format=png&format=jpeg', undefined, 'format', /^format: expected one value, received 2/],
    ['', { draft: 'true' }, 'draft', /^draft: expected true or false, received "true"/],
    ['', { quality: 101 }, 'quality', /^quality: /],
    ['', { variation: '' }, 'variation', /^variation: expected a variation id/],
  ])('export › %s %j is ERR_INVALID_REQUEST naming %s', async (query, body, path, message) => {
    const error = await rejection(() => parseExportParams(new URLSearchParams(query), body))
    expect(error.code).toBe('ERR_INVALID_REQUEST')
    expect(error.message).toMatch(message)
    expect(error.issues[0]!.path).toBe(path)
  })

  it('export › lists every bad parameter at once', async () => {
    const error = await rejection(() => parseExportParams(new URLSearchParams('format=gif'), { quality: 0 }))
    expect(error.issues.map((i) => i.path)).toEqual(['format', 'quality'])
  })

  it.each([[[1]], ['text'], [42], [true]])('export › a body that is not a JSON object (%j) is ERR_INVALID_REQUEST naming body', async (body) => {
    for (const fn of [() => parseExportParams(new URLSearchParams(), body), () => exportOverrides(body)]) {
      const error = await rejection(fn)
      expect(error.code).toBe('ERR_INVALID_REQUEST')
      expect(error.message).toMatch(/^body: expected a JSON object/)
    }
  })
})

describe('exportOverrides', () => {
  it('export › strips the reserved keys and keeps the rest', () => {
    expect(EXPORT_RESERVED_KEYS).toEqual(['format', 'quality', 'variation', 'draft', 'delivery', 'expiresIn', 'webhookUrl', 'dma-api-key'])
    const body = { format: { text: 'x' }, quality: 5, variation: 'v', draft: true, delivery: 'hosted', expiresIn: 5, webhookUrl: 'https://x', 'dma-api-key': 'k', 'title.text': 'Hi', badge: { fill: '#000' } }
    expect(exportOverrides(body)).toEqual({ 'title.text': 'Hi', badge: { fill: '#000' } })
    expect(exportOverrides(undefined)).toEqual({})
  })
})

describe('exportDesign', () => {
  it('export › streams png by default, the published version, with the quota after the render', async () => {
    const { run, addDesign, renderer, usage } = await setup()
    const id = await addDesign()
    const result = await run({ id })
    expect(result).toMatchObject({ delivery: 'stream', format: 'png', contentType: 'image/png', source: 'published', variation: 'master', width: 200 })
    expect(renderer.calls[0]!.options).toEqual({ format: 'png', quality: 80, variation: 'master' })
    expect(result.quota).toMatchObject({ usage: 1, limit: 10_000, remaining: 9_999, resetAt: new Date('2026-12-01T00:00:00Z') })
    expect(await usage()).toBe(1)
  })

  it('export › passes format, quality and variation on', async () => {
    const { run, addDesign, renderer } = await setup()
    const result = await run({ id: await addDesign(), params: { format: 'jpeg', quality: 35, variation: 'square' } })
    expect(result).toMatchObject({ format: 'jpeg', variation: 'square' })
    expect(renderer.calls[0]!.options).toEqual({ format: 'jpeg', quality: 35, variation: 'square' })
  })

  it('export › applies overrides; a component keyed `format` is not overridden through the reserved body key', async () => {
    const { run, addDesign, renderer } = await setup()
    const id = await addDesign()
    const texts = () => Object.fromEntries((renderer.calls.at(-1)!.document.components as Array<{ key: string; text: string }>).map((c) => [c.key, c.text]))
    // `format` is the parameter: it picks the output format and overrides nothing.
    const body = { format: 'webp', draft: false, delivery: 'hosted', webhookUrl: 'https://x.test', 'dma-api-key': 'k', 'title.text': 'Hi' }
    const result = await run({ id, params: parseExportParams(new URLSearchParams(), body), overrides: exportOverrides(body) })
    expect(result).toMatchObject({ format: 'webp', delivery: 'stream' })
    expect(texts()).toEqual({ title: 'Hi', format: 'label' })
    // Stripped, not reported: only override keys that name nothing are warnings.
    expect(result.warnings).toEqual([])
    // A nested object under the reserved key is stripped too (and is no valid format).
    expect(exportOverrides({ format: { text: 'overridden' } })).toEqual({})
    // The component's field is still reachable by its dot path.
    await run({ id, overrides: exportOverrides({ 'format.text': 'changed' }) })
    expect(texts()).toEqual({ title: 'Published', format: 'changed' })
  })

  it('export › draft: true exports the draft; without it, the published version', async () => {
    const { run, addDesign, renderer } = await setup()
    const id = await addDesign({ draft: draftDocument() })
    expect(await run({ id, params: { draft: true } })).toMatchObject({ source: 'draft', width: 300 })
    expect((renderer.calls[0]!.document.components[0] as { text: string }).text).toBe('Draft')
    expect(await run({ id, params: { draft: false } })).toMatchObject({ source: 'published', width: 200 })
    expect(await run({ id })).toMatchObject({ source: 'published', width: 200 })
  })

  it('export › draft: true is ignored when there is no draft', async () => {
    const { run, addDesign } = await setup()
    expect(await run({ id: await addDesign(), params: { draft: true } })).toMatchObject({ source: 'published', width: 200 })
  })

  it('export › a design with only a draft: not found without draft (saying so), the draft with it', async () => {
    const { run, addDesign, usage } = await setup()
    const id = await addDesign({ design: null, draft: draftDocument() })
    const error = await rejection(run({ id }))
    expect(error.code).toBe('ERR_DESIGN_NOT_FOUND')
    expect(error.message).toBe(`design "${id}" is not published; pass draft=true to export its draft`)
    expect(await rejection(run({ id, params: { draft: false } }))).toMatchObject({ code: 'ERR_DESIGN_NOT_FOUND' })
    expect(await usage()).toBe(0)
    expect(await run({ id, params: { draft: true } })).toMatchObject({ source: 'draft' })
  })

  it("export › another account's design, an unknown id and a render code are all not found, free", async () => {
    const { run, addDesign, usage, renderer, services } = await setup()
    const theirs = await addDesign({ ownerId: bob.id })
    const mine = await addDesign()
    const code = (await services.designs.get(mine))!.renderCode
    for (const id of [theirs, 'd_missing', code, '../x', '']) {
      const error = await rejection(run({ id, params: { draft: true } }))
      expect(error.code, id).toBe('ERR_DESIGN_NOT_FOUND')
      expect(error.message).toMatch(/^no design has the id/)
    }
    expect(await usage()).toBe(0)
    expect(await usage(bob.id)).toBe(0)
    expect(renderer.calls).toEqual([])
  })

  it('export › an invalid override or an unknown variation costs nothing', async () => {
    const { run, addDesign, usage, renderer } = await setup()
    const id = await addDesign()
    expect(await rejection(run({ id, overrides: { 'title.color': 'not-a-colour' } }))).toMatchObject({ code: 'ERR_INVALID_OVERRIDE' })
    expect(await rejection(run({ id, params: { variation: 'story' } }))).toMatchObject({ code: 'ERR_UNKNOWN_VARIATION' })
    expect(await usage()).toBe(0)
    expect(renderer.calls).toEqual([])
  })

  it('export › a render that fails is refunded: usage unchanged, the error rethrown', async () => {
    const { run, addDesign, usage, renderer } = await setup()
    const id = await addDesign()
    await run({ id })
    renderer.failWith(new LithoError('ERR_RENDER_FAILED', 'boom'))
    for (const delivery of ['stream', 'hosted', 'signed'] as const) {
      const error = await rejection(run({ id, delivery }))
      expect(error).toMatchObject({ code: 'ERR_RENDER_FAILED', message: 'boom' })
    }
    expect(await usage()).toBe(1)
    // A non-Litho error is refunded too.
    renderer.failWith(new TypeError('unexpected'))
    await expect(run({ id })).rejects.toThrow('unexpected')
    expect(await usage()).toBe(1)
  })

  it('export › refunds exactly once', async () => {
    const meter = memoryMeter()
    const refunds: string[] = []
    const counting: Meter = { ...meter, name: meter.name, capabilities: meter.capabilities, consume: (r) => meter.consume(r), usage: (k) => meter.usage(k), history: (r) => meter.history(r), refund: async (r) => (refunds.push(r.id), meter.refund(r)) }
    const { run, addDesign, renderer } = await setup({ meter: counting })
    renderer.failWith(new LithoError('ERR_RENDER_FAILED', 'boom'))
    await rejection(run({ id: await addDesign() }))
    expect(refunds).toHaveLength(1)
  })

  it('export › 429 when the quota is used up: nothing rendered, nothing taken', async () => {
    const { services, run, addDesign, usage, renderer } = await setup()
    const id = await addDesign({ ownerId: bob.id })
    await services.meter.consume({ subject: bob.id, window: WINDOW, amount: 100, limit: 100, id: 'setup', expiresAt: new Date('2026-12-01T00:00:00Z') })
    const error = await rejection(run({ account: bob, id }))
    expect(error.code).toBe('ERR_QUOTA_EXCEEDED')
    expect(error.details).toMatchObject({ usage: 100, limit: 100, remaining: 0, resetAt: '2026-12-01T00:00:00.000Z' })
    expect(renderer.calls).toEqual([])
    expect(await usage(bob.id)).toBe(100)
  })

  it('export › hosted: a public stored file and its URL, without delivery in the body', async () => {
    const { run, addDesign, services } = await setup()
    const result = await run({ id: await addDesign(), delivery: 'hosted', params: { expiresIn: 5 } })
    if (result.delivery === 'stream') throw new Error('expected a stored export')
    expect(result.body).toMatchObject({ success: true, format: 'png', file: { visibility: 'public', contentType: 'image/png', width: 200, height: 100, variation: 'master' }, warnings: [] })
    expect(result.body).not.toHaveProperty('delivery')
    expect(result.body).not.toHaveProperty('expiresAt')
    expect(result.body.url).toMatch(/^https:\/\/render\.example\.test\/files\/u_alice\/r_[A-Za-z0-9_-]+\.png$/)
    expect((await services.files.get(result.body.file.key))!.file.visibility).toBe('public')
  })

  it('export › signed: a private stored file, a signed URL expiring after expiresIn (default 60 minutes)', async () => {
    const { run, addDesign, services } = await setup()
    const id = await addDesign()
    const result = await run({ id, delivery: 'signed' })
    if (result.delivery === 'stream') throw new Error('expected a stored export')
    expect(result.body).toMatchObject({ success: true, format: 'png', expiresAt: '2026-11-23T13:00:00.000Z', file: { visibility: 'private' } })
    expect(result.body.url).toMatch(/\?.*sig=/)
    expect((await services.files.get(result.body.file.key))!.file.visibility).toBe('private')
    const short = await run({ id, delivery: 'signed', params: { expiresIn: 5 } })
    expect(short.delivery !== 'stream' && short.body.expiresAt).toBe('2026-11-23T12:05:00.000Z')
  })

  it.each(['hosted', 'signed'] as const)('export › %s: a storage failure is refunded and nothing is left counted', async (delivery) => {
    const signer = createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] })
    const files = memoryFileStore({ publicBaseUrl: 'https://render.example.test/files', signer })
    files.put = async () => {
      throw new Error('disk full')
    }
    const { run, addDesign, usage } = await setup({ files })
    const id = await addDesign()
    await run({ id })
    const error = await rejection(run({ id, delivery }))
    expect(error.code).toBe('ERR_STORAGE')
    expect(error.message).toMatch(/disk full/)
    expect(await usage()).toBe(1)
  })

  it('export › a signing failure (after the file is stored) is refunded too', async () => {
    const signer = createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] })
    const files = memoryFileStore({ publicBaseUrl: 'https://render.example.test/files', signer })
    files.signedUrl = async () => {
      throw new Error('signer offline')
    }
    const { run, addDesign, usage } = await setup({ files })
    expect((await rejection(run({ id: await addDesign(), delivery: 'signed' }))).code).toBe('ERR_STORAGE')
    expect(await usage()).toBe(0)
  })
})

describe('exportDesign with the real renderer', () => {
  const renderer = createRenderer()
  afterAll(() => renderer.close())

  it('export › renders real png, jpeg, webp and pdf bytes', async () => {
    const { services, addDesign } = await setup()
    const id = await addDesign()
    const real = { ...services, renderer }
    const png = await exportDesign(real, { account: alice, id, delivery: 'stream', params: {} })
    expect(png.delivery === 'stream' && Buffer.from(png.bytes.subarray(1, 4)).toString('latin1')).toBe('PNG')
    for (const [format, magic] of [['jpeg', 'ffd8ff'], ['webp', '52494646'], ['pdf', '255044462d']] as const) {
      const result = await exportDesign(real, { account: alice, id, delivery: 'stream', params: { format } })
      expect(result.delivery === 'stream' && Buffer.from(result.bytes).toString('hex').startsWith(magic), format).toBe(true)
    }
  })

  it('export › renderDesign keeps its own default (jpeg) over the shared render path', async () => {
    const { services, addDesign } = await setup()
    const id = await addDesign()
    const code = (await services.designs.get(id))!.renderCode
    const result = await renderDesign({ ...services, renderer }, { account: alice, renderCode: code, params: {} })
    expect(result).toMatchObject({ delivery: 'stream', format: 'jpeg', contentType: 'image/jpeg' })
  })
})
