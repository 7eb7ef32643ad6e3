/**
 * The static-layer cache (docs/performance.md): every golden scene and reference design renders
 * through the layered path (cold, then warm twice with changed overrides) and through the whole
 * path, with equal pixels within the golden tolerance and identical warnings; the cache is
 * bounded in bytes, misses on a changed design or a changed remote image, and the cases it
 * cannot layer fall back to the whole path.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Component, DesignDocumentInput } from '../../src/index.js'
import { renderDocument, renderResolved, type RenderContext, type RenderOptions, type RenderResult } from '../../src/render/render-document.js'
import { createRenderContext, type RendererOptions } from '../../src/render/renderer.js'
import { createLayerCache, layerKey } from '../../src/render/layers/layer-cache.js'
import { clearCanvases } from '../../src/render/layers/canvas.js'
import type { Prepared } from '../../src/render/layout-pass.js'
import { resolveDocument } from '../../src/render/resolve-document.js'
import { createRenderPool } from '../../src/render/pool.js'
import { compareImages, referenceDesigns } from '../../../testing/src/index.js'
import { PUBLIC_HOST, startServer, testPolicy, type FixtureServer } from '../images/fixtures.js'
import { scenes } from './scenes.js'

// expectToMatchGolden's default: at most 0.2 % of the pixels may differ.
const GOLDEN_TOLERANCE = 0.002

interface Counted { context: RenderContext; hits: number; misses: number; stores: number }

/** A render context whose layer cache counts its hits, misses and stores. */
function counted(options: RendererOptions = {}): Counted {
  const context = createRenderContext(options)
  const out: Counted = { context, hits: 0, misses: 0, stores: 0 }
  const layers = context.layers
  if (layers) {
    const get = layers.get.bind(layers)
    const set = layers.set.bind(layers)
    layers.get = (key) => {
      const hit = get(key)
      if (hit) out.hits++
      else out.misses++
      return hit
    }
    layers.set = (key, layer) => {
      out.stores++
      set(key, layer)
    }
  }
  return out
}

const full = createRenderContext({ layerCacheBytes: 0 })

async function expectSameRender(layered: RenderResult, whole: RenderResult): Promise<void> {
  const { ratio } = await compareImages(layered.bytes, whole.bytes)
  expect(ratio).toBeLessThanOrEqual(GOLDEN_TOLERANCE)
  expect(layered.warnings).toEqual(whole.warnings)
  expect([layered.width, layered.height, layered.contentType]).toEqual([whole.width, whole.height, whole.contentType])
}

/** The text in the middle of the paint order (groups included), or the first shape or code. */
function dynamicKey(components: readonly Component[] | undefined): { key: string; field: string; values: unknown[] } {
  const all: Component[] = []
  const walk = (list: readonly Component[]): void => {
    for (const c of list) {
      all.push(c)
      if (c.type === 'group') walk(c.children)
    }
  }
  walk(components ?? [])
  const texts = all.filter((c) => c.type === 'text')
  const text = texts[Math.floor(texts.length / 2)]
  if (text) return { key: text.key, field: 'text', values: ['Layered render A', 'Layered render B', 'Layered render C: a longer line that wraps, shrinks or is cut to fit its box'] }
  const shape = all.find((c) => c.type === 'shape')
  if (shape) return { key: shape.key, field: 'fill', values: ['#dc2626', '#2563eb', '#16a34a'] }
  const code = all.find((c) => c.type === 'qrcode' || c.type === 'barcode')
  if (code) return { key: code.key, field: 'value', values: ['12345670', '55123457', '96385074'] }
  const image = all.filter((c) => c.type === 'image')
  return { key: image[Math.floor(image.length / 2)]!.key, field: 'src', values: swatches }
}

const cases: Array<[string, DesignDocumentInput, RenderOptions]> = []
let swatches: string[] = []
beforeAll(async () => {
  const swatch = async (background: string): Promise<string> =>
    `data:image/png;base64,${(await sharp({ create: { width: 40, height: 30, channels: 4, background } }).png().toBuffer()).toString('base64')}`
  swatches = [await swatch('#dc2626'), await swatch('#2563eb'), await swatch('#16a34a80')]
  for (const [name, scene] of Object.entries(await scenes())) cases.push([`golden ${name}`, scene.design, scene.options ?? {}])
  const reference = await referenceDesigns()
  cases.push(['reference card1080', reference.card1080, {}], ['reference card1080 story', reference.card1080, { variation: 'story' }], ['reference preview1200', reference.preview1200, {}])
})

describe('static-layer cache › equals a whole render', () => {
  it('layers › every golden scene and reference design, cold then warm with changed overrides, matches the whole path (PNG)', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(14)
    for (const [name, design, options] of cases) {
      const layered = counted()
      const { key, field, values } = dynamicKey(design.components as Component[])
      const base = (options.overrides ?? {}) as Record<string, unknown>
      for (const [i, value] of values.entries()) {
        const render: RenderOptions = { ...options, format: 'png', overrides: { ...base, [`${key}.${field}`]: value } }
        const [a, b] = [await renderDocument(design, render, layered.context), await renderDocument(design, render, full)]
        await expectSameRender(a, b).catch((error: Error) => {
          throw new Error(`${name}, ${i === 0 ? 'cold' : 'warm'} (${key}.${field}): ${error.message}`)
        })
      }
      // The first render built the layers, the next ones read them.
      expect({ name, stored: layered.stores > 0, hit: layered.hits > 0 }).toEqual({ name, stored: true, hit: true })
    }
  })

  it('layers › JPEG and WebP of the layered card match the whole path', async () => {
    const card = (await referenceDesigns()).card1080
    const layered = counted()
    for (const format of ['jpeg', 'webp'] as const)
      for (const title of ['First title', 'Second title, on two lines because it is long enough to wrap']) {
        const options: RenderOptions = { format, overrides: { 'title.text': title } }
        await expectSameRender(await renderDocument(card, options, layered.context), await renderDocument(card, options, full))
      }
    expect(layered.hits).toBeGreaterThan(0)
  })

  it('layers › a transparent canvas (no background), the dynamic text at the bottom and a translucent static shape over it', async () => {
    const design: DesignDocumentInput = {
      version: 2, width: 300, height: 160,
      components: [
        { type: 'text', key: 'title', x: 10, y: 10, width: 280, height: 80, text: 'Title', fontSize: 40, color: '#1d4ed8' },
        { type: 'shape', key: 'veil', x: 0, y: 40, width: 300, height: 80, fill: 'rgba(220, 38, 38, 0.4)', radius: 12, opacity: 0.8 },
      ],
    }
    const layered = counted()
    for (const format of ['png', 'webp'] as const)
      for (const title of ['Under a veil', 'Still under it']) {
        const options: RenderOptions = { format, overrides: { 'title.text': title } }
        await expectSameRender(await renderDocument(design, options, layered.context), await renderDocument(design, options, full))
      }
    // The top layer once; each title comes back in the second format, so its dynamic run is kept then.
    expect([layered.stores, layered.hits]).toEqual([3, 3])
  })

  it('layers › the same request gives the same bytes whether its layers were cached or just built', async () => {
    const card = (await referenceDesigns()).card1080
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const layered = counted()
      const options: RenderOptions = { format, overrides: { 'title.text': 'Same bytes' } }
      const cold = await renderDocument(card, options, layered.context)
      const warm = await renderDocument(card, options, layered.context)
      // The second render reads both static layers and keeps the dynamic run (its text came back); the third reads all three.
      expect([layered.stores, layered.hits]).toEqual([3, 2])
      const warmest = await renderDocument(card, options, layered.context)
      expect([layered.stores, layered.hits]).toEqual([3, 5])
      expect(Buffer.compare(Buffer.from(cold.bytes), Buffer.from(warm.bytes))).toBe(0)
      expect(Buffer.compare(Buffer.from(cold.bytes), Buffer.from(warmest.bytes))).toBe(0)
    }
  })

  it('layers › a reused canvas (only the painted rectangles restored, a top layer left in place) gives the bytes of a fresh one', async () => {
    // A top shape at the end of the title's line: a short title stays clear of it, a long one runs under it.
    const design = (background: string | undefined): DesignDocumentInput => ({
      version: 2, width: 400, height: 200, ...(background ? { background } : {}),
      components: [
        { type: 'text', key: 'title', x: 10, y: 10, width: 380, height: 90, text: 'Title', fontSize: 36, color: '#1d4ed8' },
        { type: 'shape', key: 'dot', x: 300, y: 20, width: 70, height: 40, fill: 'rgba(220, 38, 38, 0.6)', radius: 8 },
      ],
    })
    const titles = ['Hi', 'A much longer title that runs under the dot', 'Hi', 'Hey', 'A much longer title that runs under the dot', 'Hi']
    for (const background of ['#fef3c7', undefined])
      for (const format of ['png', 'jpeg'] as const) {
        const layered = counted()
        for (const title of titles) {
          const options: RenderOptions = { format, overrides: { 'title.text': title } }
          const reused = await renderDocument(design(background), options, layered.context)
          clearCanvases()
          const fresh = await renderDocument(design(background), options, layered.context)
          expect({ background, format, title, same: Buffer.compare(Buffer.from(reused.bytes), Buffer.from(fresh.bytes)) }).toEqual({ background, format, title, same: 0 })
          await expectSameRender(reused, await renderDocument(design(background), options, full))
        }
      }
  })

  it('layers › a dynamic run is kept only when its text repeats: one-off titles never push static layers out', async () => {
    const card = (await referenceDesigns()).card1080
    const layered = counted()
    const render = (title: string): Promise<RenderResult> => renderDocument(card, { format: 'jpeg', overrides: { 'title.text': title } }, layered.context)
    for (let i = 0; i < 5; i++) await render(`A one-off title, number ${i}`)
    const staticBytes = layered.context.layers!.bytes()
    expect(layered.stores).toBe(2)
    const first = await render('A title that repeats')
    expect([layered.stores, layered.context.layers!.bytes()]).toEqual([2, staticBytes])
    const second = await render('A title that repeats')
    expect(layered.stores).toBe(3)
    const hits = layered.hits
    const third = await render('A title that repeats')
    expect([layered.stores, layered.hits - hits]).toEqual([3, 3])
    expect(third.layerCache).toBe('hit')
    for (const again of [second, third]) expect(Buffer.compare(Buffer.from(first.bytes), Buffer.from(again.bytes))).toBe(0)
    await expectSameRender(third, await renderDocument(card, { format: 'jpeg', overrides: { 'title.text': 'A title that repeats' } }, full))
  })

  it('layers › font warnings of static texts (an unknown family, glyphs no font has) are replayed on a hit', async () => {
    const design: DesignDocumentInput = {
      version: 2, width: 400, height: 200, background: '#ffffff',
      components: [
        { type: 'text', key: 'odd', width: 400, height: 50, text: 'Family', fontFamily: 'Nowhere Sans' },
        { type: 'text', key: 'title', y: 60, width: 400, height: 40, text: 'Title' },
        { type: 'text', key: 'glyphs', y: 120, width: 400, height: 40, text: 'Runes ᚠᚢᚦ and a box \u{1D400}' },
      ],
    }
    const layered = counted()
    for (const title of ['One', 'Two', 'Three, a title much too long for its box that is cut or overflows the box below it']) {
      const options: RenderOptions = { format: 'png', overrides: { 'title.text': title } }
      const [a, b] = [await renderDocument(design, options, layered.context), await renderDocument(design, options, full)]
      await expectSameRender(a, b)
      expect(a.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['font_fallback']))
    }
    expect(layered.hits).toBeGreaterThan(0)
  })
})

describe('static-layer cache › keys, bounds and eviction', () => {
  it('layers › the cache stays within its byte bound, and a layer larger than the bound is never kept', async () => {
    const card = (await referenceDesigns()).card1080
    const bound = 12 * 1024 * 1024
    const layered = counted({ layerCacheBytes: bound })
    for (let i = 0; i < 10; i++) {
      // A different component at the bottom (each design twice): five bottom layers of 4.7 MB each, one shared top layer.
      const extra = { type: 'text' as const, key: 'extra', width: 200, height: 40, text: `Design ${i >> 1}` }
      await renderDocument({ ...card, components: [extra, ...card.components!] }, { format: 'jpeg', overrides: { 'title.text': 'Same title' } }, layered.context)
      expect(layered.context.layers!.bytes()).toBeLessThanOrEqual(bound)
    }
    // Five bottom layers, the shared top layer, and the title's run (the same title every time).
    expect(layered.stores).toBe(7)
    expect(layered.context.layers!.bytes()).toBeGreaterThan(0)
    const small = createLayerCache(1000)!
    small.set('big', { x: 0, y: 0, width: 100, height: 100, pixels: Buffer.alloc(40_000), layoutWarnings: [], fontWarnings: [] })
    expect([small.get('big'), small.bytes()]).toEqual([undefined, 0])
    // A 4096x4096 canvas is exactly 64 MiB of pixels: more than the default cache can keep with its bookkeeping.
    expect(createLayerCache()!.fits(4096 * 4096 * 4)).toBe(false)
    expect(createLayerCache()!.fits(2160 * 2160 * 4)).toBe(true)
  })

  it('layers › a changed design misses the cache and shows its change', async () => {
    const card = (await referenceDesigns()).card1080
    const layered = counted()
    const options: RenderOptions = { format: 'png', overrides: { 'title.text': 'Same title' } }
    await renderDocument(card, options, layered.context)
    await renderDocument(card, options, layered.context)
    const changed = { ...card, components: card.components!.map((c) => (c.key === 'subtitle' ? { ...c, text: 'A subtitle changed by an update of the design' } : c)) }
    const misses = layered.misses
    const [a, b] = [await renderDocument(changed, options, layered.context), await renderDocument(changed, options, full)]
    expect(layered.misses).toBeGreaterThan(misses)
    await expectSameRender(a, b)
    const stale = await renderDocument(card, options, full)
    expect((await compareImages(a.bytes, stale.bytes)).diffPixels).toBeGreaterThan(0)
  })

  it('layers › a stored design rendered at a new version drops the layers of its older version at once', async () => {
    const card = (await referenceDesigns()).card1080
    const render = (design: DesignDocumentInput, version: string, context: RenderContext): Promise<RenderResult> =>
      renderResolved({ ...resolveDocument(design, { overrides: { 'title.text': 'Same title' } }), source: { designId: 'd_card', version } }, { format: 'jpeg', quality: 80 }, context)
    const updated = { ...card, components: card.components!.map((c) => (c.key === 'subtitle' ? { ...c, text: 'Published again with a new subtitle' } : c)) }
    const layered = counted()
    await render(card, '2026-11-01T00:00:00.000Z', layered.context)
    await render(card, '2026-11-01T00:00:00.000Z', layered.context)
    await render(updated, '2026-11-02T00:00:00.000Z', layered.context)
    // What is left is exactly what the new version uses: the shared bottom layer and its new top layer.
    // (Twice, so that it keeps the title's run too, as the layered context did on its second render.)
    const fresh = counted()
    await render(updated, '2026-11-02T00:00:00.000Z', fresh.context)
    await render(updated, '2026-11-02T00:00:00.000Z', fresh.context)
    expect(layered.context.layers!.bytes()).toBe(fresh.context.layers!.bytes())
    expect([layered.stores, layered.hits]).toEqual([4, 4])

    const cache = createLayerCache()!
    const layer = { x: 0, y: 0, width: 1, height: 1, pixels: Buffer.alloc(4), layoutWarnings: [], fontWarnings: [] }
    for (const key of ['a', 'b', 'c']) cache.set(key, layer)
    cache.track('d1', 'v1', ['a'])
    cache.track('d1', 'v1', ['b'])
    cache.track('d2', 'v1', ['c'])
    cache.track('d1', 'v2', ['b'])
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual([false, true, true])
  })

  it('layers › a key follows the content of the design\'s font files, not only their URLs', () => {
    const resolved = resolveDocument({
      version: 2, width: 200, height: 100, background: '#ffffff',
      fonts: [{ family: 'Brand', src: 'https://fonts.example.com/brand.woff2' }],
      components: [{ type: 'text', key: 't', width: 200, height: 100, text: 'Hi', fontFamily: 'Brand' }],
    })
    const prepared = (data: Buffer): Prepared => ({
      fonts: { fonts: [{ name: 'Brand', data, weight: 400, style: 'normal' }], familyFor: () => '"Brand", "Inter"', loadAdditionalAsset: async () => [], warnings: [] },
      images: new Map(),
      fittedSizes: new Map(),
      warnings: [],
    })
    const key = (data: Buffer): string => layerKey('below', resolved, resolved.document.components, resolved.document.background, prepared(data))
    expect(key(Buffer.from('version 1'))).toBe(key(Buffer.from('version 1')))
    expect(key(Buffer.from('version 1'))).not.toBe(key(Buffer.from('version 2')))
  })

  describe('a remote image in a static layer', () => {
    let server: FixtureServer
    let color = '#ff0000'
    beforeAll(async () => {
      server = await startServer(PUBLIC_HOST, (_req, res) => {
        void sharp({ create: { width: 64, height: 64, channels: 3, background: color } }).png().toBuffer().then((png) => {
          res.writeHead(200, { 'content-type': 'image/png' })
          res.end(png)
        })
      })
    })
    afterAll(() => server.close())

    it('layers › shows a changed remote image once the image cache TTL has passed, as a whole render does', async () => {
      const design: DesignDocumentInput = {
        version: 2, width: 300, height: 200, background: '#ffffff',
        components: [
          { type: 'image', key: 'photo', width: 300, height: 120, src: `${server.origin}/photo.png` },
          { type: 'text', key: 'title', y: 130, width: 300, height: 60, text: 'Title' },
        ],
      }
      const layered = counted({ network: testPolicy(), imageCacheTtlMs: 30 })
      const pixel = async (result: RenderResult): Promise<number[]> => [...(await sharp(result.bytes).extract({ left: 150, top: 60, width: 1, height: 1 }).raw().toBuffer())]
      const red = (result: RenderResult): Promise<boolean> => pixel(result).then(([r, , b]) => r! > 240 && b! < 16)
      const blue = (result: RenderResult): Promise<boolean> => pixel(result).then(([r, , b]) => r! < 16 && b! > 240)
      for (const title of ['One', 'Two', 'Three']) expect(await red(await renderDocument(design, { format: 'png', overrides: { 'title.text': title } }, layered.context))).toBe(true)
      expect([layered.stores, layered.hits]).toEqual([1, 2])
      color = '#0000ff'
      await new Promise((resolve) => setTimeout(resolve, 80))
      for (const title of ['Four', 'Five', 'Six']) {
        const options: RenderOptions = { format: 'png', overrides: { 'title.text': title } }
        const result = await renderDocument(design, options, layered.context)
        expect(await blue(result)).toBe(true)
        await expectSameRender(result, await renderDocument(design, options, createRenderContext({ network: testPolicy(), layerCacheBytes: 0 })))
      }
      expect([layered.stores, layered.hits]).toEqual([2, 4])
    })
  })
})

describe('static-layer cache › falls back to the whole path', () => {
  const fallsBack = async (design: unknown, options: RenderOptions, renderer: RendererOptions = {}): Promise<void> => {
    const layered = counted(renderer)
    const outcome = (context: RenderContext): Promise<RenderResult | string> => renderDocument(design, options, context).catch((error: Error) => error.message)
    // Twice: neither render may build layers.
    await outcome(layered.context)
    const [a, b] = [await outcome(layered.context), await outcome(full)]
    expect(layered.stores).toBe(0)
    if (typeof a === 'string' || typeof b === 'string') expect(a).toEqual(b)
    else if (options.format === 'pdf') expect(a.bytes.length).toBeGreaterThan(0)
    else await expectSameRender(a, b)
  }

  it('layers › PDF stays vector and never touches the cache', async () => {
    await fallsBack((await referenceDesigns()).card1080, { format: 'pdf', overrides: { 'title.text': 'PDF' } })
  })

  it('layers › nothing static to reuse: no background and every component overridden', async () => {
    await fallsBack({ version: 2, width: 300, height: 100, components: [{ type: 'text', key: 't', width: 300, height: 100, text: 'x' }] }, { format: 'png', overrides: { 't.text': 'All dynamic' } })
  })

  it('layers › a canvas whose bottom layer is larger than the whole cache', async () => {
    await fallsBack((await referenceDesigns()).card1080, { format: 'jpeg', overrides: { 'title.text': 'Too big to keep' } }, { layerCacheBytes: 1_000_000 })
  })

  it('layers › an SVG that needs anchored, isolated resvg (the resvg abort fixture and a tiny canvas)', async () => {
    const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('./fixtures/resvg-abort-seed42.json', import.meta.url)), 'utf8'))
    await fallsBack(fixture.raw, { format: 'png', overrides: fixture.overrides })
    await fallsBack({ version: 2, width: 40, height: 30, background: '#ffffff', components: [{ type: 'text', key: 't', width: 40, height: 30, text: 'x' }] }, { format: 'png', overrides: { 't.text': 'y' } })
  })

  it('layers › layerCacheBytes must be an integer >= 0, checked by the pool before any worker starts', () => {
    expect(() => createRenderContext({ layerCacheBytes: -1 })).toThrow(/layerCacheBytes.*integer >= 0.*-1/)
    expect(() => createRenderPool({ threads: 1, layerCacheBytes: 1.5 })).toThrow(/layerCacheBytes.*integer >= 0.*1\.5/)
    expect(createRenderContext({ layerCacheBytes: 0 }).layers).toBeUndefined()
  })
})
