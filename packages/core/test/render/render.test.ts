import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { inflateSync } from 'node:zlib'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { LithoError, createRenderer, render, type DesignDocumentInput, type Renderer } from '../../src/index.js'
import { socialCard } from '../../../testing/src/index.js'

const require = createRequire(import.meta.url)
let renderer: Renderer
let card: DesignDocumentInput

beforeAll(async () => {
  renderer = createRenderer()
  card = await socialCard()
})

const simple = (extra: Partial<DesignDocumentInput> = {}): DesignDocumentInput => ({
  version: 2,
  width: 320,
  height: 200,
  background: '#ffffff',
  components: [
    { type: 'shape', key: 'box', x: 10, y: 10, width: 300, height: 60, fill: '#2563eb', radius: 8 },
    { type: 'text', key: 'title', x: 10, y: 90, width: 300, height: 40, text: 'Hello Litho', fontSize: 28 },
  ],
  ...extra,
})

async function expectLithoError(promise: Promise<unknown>, code: string, message?: RegExp): Promise<LithoError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(LithoError.isInstance(error), `expected a LithoError ${code}, got ${String(error)}`).toBe(true)
  const lithoError = error as LithoError
  expect(lithoError.code).toBe(code)
  if (message) expect(lithoError.message).toMatch(message)
  return lithoError
}

describe('output formats', () => {
  it.each([
    ['png', 'image/png', 'png'],
    ['jpeg', 'image/jpeg', 'jpeg'],
    ['webp', 'image/webp', 'webp'],
  ] as const)('render › %s decodes as %s at the design size', async (format, contentType, decoded) => {
    const result = await renderer.render(card, { format })
    expect(result.contentType).toBe(contentType)
    expect(result.format).toBe(format)
    expect([result.width, result.height]).toEqual([1080, 1080])
    const meta = await sharp(result.bytes).metadata()
    expect(meta.format).toBe(decoded)
    expect([meta.width, meta.height]).toEqual([1080, 1080])
  })

  it('render › defaults to jpeg at quality 80', async () => {
    const result = await renderer.render(simple())
    expect(result.contentType).toBe('image/jpeg')
    const q80 = await renderer.render(simple(), { format: 'jpeg', quality: 80 })
    expect(Buffer.compare(Buffer.from(result.bytes), Buffer.from(q80.bytes))).toBe(0)
  })

  it('render › jpeg quality changes the output size', async () => {
    const low = await renderer.render(card, { format: 'jpeg', quality: 10 })
    const high = await renderer.render(card, { format: 'jpeg', quality: 95 })
    expect(low.bytes.length).toBeLessThan(high.bytes.length / 2)
  })

  it('render › a transparent background stays transparent in png and becomes white in jpeg', async () => {
    const doc = simple({ background: 'transparent' })
    const png = await sharp((await renderer.render(doc, { format: 'png' })).bytes).ensureAlpha().raw().toBuffer()
    expect(png[3]).toBe(0) // top-left corner pixel: alpha 0
    const jpeg = await sharp((await renderer.render(doc, { format: 'jpeg' })).bytes).raw().toBuffer()
    expect([jpeg[0], jpeg[1], jpeg[2]].every((c) => c! > 250)).toBe(true)
  })

  it.each([
    ['with the static-layer cache', {}],
    ['without it', { layerCacheBytes: 0 }],
  ])('render › half-transparent paint on a transparent canvas keeps its colour in every raster format, %s', async (_, options) => {
    // resvg's pixels are premultiplied: read as straight alpha, this red came out dark red (WebP) and on JPEG's white as (191, 127, 127).
    const own = createRenderer(options)
    const doc = simple({ background: 'transparent', components: [{ type: 'shape', key: 'box', x: 0, y: 0, width: 320, height: 200, fill: '#ff000080' }] })
    const centre = async (format: 'png' | 'jpeg' | 'webp'): Promise<number[]> => {
      const { data, info } = await sharp((await own.render(doc, { format })).bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
      const i = (100 * info.width + 160) * 4
      return [...data.subarray(i, i + 4)]
    }
    const near = (got: number[], want: number[], within: number) => expect(got.every((v, i) => Math.abs(v - want[i]!) <= within), `${got} should be within ${within} of ${want}`).toBe(true)
    for (let i = 0; i < 2; i++) {
      near(await centre('png'), [255, 0, 0, 128], 1)
      near(await centre('webp'), [255, 0, 0, 128], 6)
      near(await centre('jpeg'), [255, 127, 127, 255], 6)
    }
    await own.close()
  })

  it('render › the variation sets the output size', async () => {
    const result = await renderer.render(card, { format: 'png', variation: 'story' })
    expect([result.width, result.height, result.variation]).toEqual([1080, 1920, 'story'])
    const meta = await sharp(result.bytes).metadata()
    expect([meta.width, meta.height]).toEqual([1080, 1920])
  })
})

/** Every deflated stream of a PDF, inflated (content streams and forms). */
function inflatedStreams(pdf: Buffer): string[] {
  const text = pdf.toString('latin1')
  const ops: string[] = []
  for (const m of text.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length
    const end = text.indexOf('endstream', start)
    try {
      ops.push(inflateSync(pdf.subarray(start, end)).toString('latin1'))
    } catch {
      // not a deflated stream
    }
  }
  return ops
}

describe('pdf', () => {
  it('pdf › one page whose size in points equals the design size in pixels', async () => {
    const result = await renderer.render(simple(), { format: 'pdf' })
    expect(result.contentType).toBe('application/pdf')
    const pdf = Buffer.from(result.bytes).toString('latin1')
    expect(pdf.startsWith('%PDF-')).toBe(true)
    expect(pdf.match(/\/Type \/Page\b/g)).toHaveLength(1)
    expect(pdf).toMatch(/\/MediaBox \[0 0 320 200\]/)
  })

  it('pdf › text and shapes are vector paths, not an embedded picture', async () => {
    const result = await renderer.render(simple(), { format: 'pdf' })
    const pdf = Buffer.from(result.bytes)
    expect(pdf.toString('latin1')).not.toMatch(/\/Subtype \/Image/)
    // Inflate every content stream and look for path painting operators.
    const content = inflatedStreams(pdf).join('\n')
    // Glyph outlines are drawn with curves (c) and filled (f); the box with its rounded corners too.
    expect(content.match(/ c\n/g)?.length ?? 0).toBeGreaterThan(20)
    expect(content).toMatch(/\bf\b/)
  })

  it('pdf › the photo of the card is embedded once, as an image', async () => {
    const result = await renderer.render(card, { format: 'pdf' })
    const pdf = Buffer.from(result.bytes).toString('latin1')
    expect(pdf.match(/\/Subtype \/Image/g)).toHaveLength(1)
    expect(pdf).toMatch(/\/MediaBox \[0 0 1080 1080\]/)
  })
  it('pdf › the QR code of the card is clipped by its own box, with no soft mask (its plain rect clip-path is left out)', async () => {
    const pdf = Buffer.from((await renderer.render(card, { format: 'pdf' })).bytes).toString('latin1')
    expect(pdf).not.toMatch(/\/SMask/)
    // The inlined QR code's nested <svg> still clips to its box: a rect, then W n, then its scale.
    const content = inflatedStreams(Buffer.from(pdf, 'latin1')).join('\n')
    expect(content).toMatch(/850 850 m\n1020 850 l\n1020 1020 l\n850 1020 l\nh\nW n\n5\.483871 0 0 5\.483871 850 850 cm/)
  })
  it('pdf › a dotted border 7 px wide (satori\'s stroke-dasharray "0 7", which pdfkit refused) renders as round dots, not a failed render', async () => {
    const result = await renderer.render(
      { version: 2, width: 59, height: 49, components: [{ type: 'shape', key: 'dots', x: 4, y: 4, width: 40, height: 30, fill: '#ffffff', border: { color: '#114e4d', width: 7, style: 'dotted' } }] },
      { format: 'pdf' },
    )
    expect(Buffer.from(result.bytes).subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(result.contentType).toBe('application/pdf')
  })
})

describe('pdf dotted strokes', () => {
  // satori draws dotted borders as zero-length dashes under a round cap; pdfkit refused any
  // dash that is not above zero, so every small dotted shape failed as ERR_RENDER_FAILED (a 500).
  it.each([
    [0, 0],
    [0, 40],
    [40, 0],
    [1, 1],
  ])('pdf › a %ix%i shape with a dotted stroke renders (found by the fuzz suite)', async (width, height) => {
    const { bytes } = await render(
      { version: 2, width: 200, height: 200, components: [{ type: 'shape', key: 's', x: 10, y: 10, width, height, stroke: { color: '#000', width: 3, style: 'dotted' } }] },
      { format: 'pdf' },
    )
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
  })
})

describe('determinism', () => {
  it.each(['png', 'jpeg', 'webp', 'pdf'] as const)('render › the same input gives the same %s bytes', async (format) => {
    const a = await renderer.render(card, { format, overrides: { 'title.text': 'Same every time' } })
    const other = createRenderer()
    const b = await other.render(card, { format, overrides: { 'title.text': 'Same every time' } })
    expect(Buffer.compare(Buffer.from(a.bytes), Buffer.from(b.bytes))).toBe(0)
  })
})

describe('warnings', () => {
  it('render › ignored overrides come back as warnings with their reason', async () => {
    const result = await renderer.render(simple(), { format: 'png', overrides: 'title=Hi&nope.text=x&box.x=3&title.text=Hey' })
    const ignored = result.warnings.filter((w) => w.code === 'override_ignored').map((w) => [w.key, w.reason])
    expect(ignored).toEqual([
      ['title', 'bare_key'],
      ['nope.text', 'unknown_component'],
      ['box.x', 'not_dynamic'],
    ])
  })

  it('render › maxLines that cuts text and autoFit that shrinks it are reported', async () => {
    const result = await renderer.render(card, { format: 'png' })
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'text_cut', key: 'title' }))
    const shrunk = await renderer.render(
      simple({ components: [{ type: 'text', key: 't', width: 120, height: 40, text: 'A long headline that must shrink', fontSize: 40, autoFit: { min: 8 } }] }),
      { format: 'png' },
    )
    const warning = shrunk.warnings.find((w) => w.code === 'text_shrunk')
    expect(warning?.message).toMatch(/^t: text shrunk from 40px to \d+px to fit its box$/)
  })

  it('render › text taller than its box is reported', async () => {
    const result = await renderer.render(simple({ components: [{ type: 'text', key: 'tall', width: 100, height: 20, text: 'one two three four five six seven', fontSize: 20 }] }), { format: 'png' })
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'text_overflow', key: 'tall' }))
  })

  it('render › characters no font can draw are reported, not silently boxed', async () => {
    const result = await renderer.render(simple({ components: [{ type: 'text', key: 'runes', width: 300, height: 40, text: 'Runes ᚠᚢᚦ', fontSize: 20 }] }), { format: 'png' })
    const warning = result.warnings.find((w) => w.code === 'missing_glyphs')
    expect(warning?.message).toContain('runes: no available font can draw "ᚠ" (U+16A0)')
  })

  it('render › an unknown font family falls back with a warning', async () => {
    const result = await renderer.render(simple({ components: [{ type: 'text', key: 't', width: 300, height: 40, text: 'Hello', fontFamily: 'Comic Sans MS' }] }), { format: 'png' })
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'font_fallback', key: 't' }))
  })

  it('render › a clean render has no warnings', async () => {
    expect((await renderer.render(simple(), { format: 'png' })).warnings).toEqual([])
  })
})

describe('fonts[]', () => {
  it('render › a font from fonts[] is used for its family', async () => {
    // JetBrains Mono, given as a custom "Brand" face through a data: URI.
    const mono = readFileSync(require.resolve('@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff2'))
    const text = (fontFamily: string): DesignDocumentInput =>
      simple({ components: [{ type: 'text', key: 't', width: 300, height: 40, text: 'iiiiiiii', fontSize: 30, fontFamily }], fonts: [{ family: 'Brand', src: `data:font/woff2;base64,${mono.toString('base64')}` }] })
    const brand = await renderer.render(text('Brand'), { format: 'png' })
    const mono2 = await renderer.render(text('monospace'), { format: 'png' })
    const sans = await renderer.render(text('sans-serif'), { format: 'png' })
    expect(brand.warnings).toEqual([])
    expect(Buffer.compare(Buffer.from(brand.bytes), Buffer.from(mono2.bytes))).toBe(0)
    expect(Buffer.compare(Buffer.from(brand.bytes), Buffer.from(sans.bytes))).not.toBe(0)
  })

  it('render › a font that is not a font is a clear error', async () => {
    const doc = simple({ fonts: [{ family: 'Brand', src: `data:font/ttf;base64,${Buffer.from('not a font at all').toString('base64')}` }], components: [{ type: 'text', key: 't', width: 100, height: 40, text: 'x', fontFamily: 'Brand' }] })
    await expectLithoError(renderer.render(doc), 'ERR_FONT_FETCH', /not a TTF, OTF, WOFF or WOFF2 font/)
  })
})

describe('errors and limits', () => {
  it('render › an invalid document lists every problem', async () => {
    const error = await expectLithoError(renderer.render({ version: 2, width: 5000, height: 0, components: [{ type: 'text', key: 't', width: 1, height: 1, fontSize: 'big' }] }), 'ERR_INVALID_DESIGN')
    expect(error.issues.map((i) => i.path)).toEqual(['width', 'height', 'components[0].fontSize'])
    expect(error.message).toContain('width: expected a whole number of pixels between 1 and 4096, received 5000')
  })

  it('render › 4096x4096 is allowed and 4097 is refused, never clamped', async () => {
    await expectLithoError(renderer.render(simple({ width: 4097 })), 'ERR_INVALID_DESIGN', /width: expected a whole number of pixels between 1 and 4096, received 4097/)
    await expectLithoError(
      renderer.render(simple({ variations: [{ id: 'big', width: 4096, height: 4097 }] }), { variation: 'big' }),
      'ERR_INVALID_DESIGN',
      /variations\[0\]\.height/,
    )
    const max = await renderer.render(simple({ width: 4096, height: 4096 }), { format: 'jpeg' })
    expect([max.width, max.height]).toEqual([4096, 4096])
  })

  it.each([0, 101, 2.5, Number.NaN])('render › quality %s is refused', async (quality) => {
    await expectLithoError(renderer.render(simple(), { quality }), 'ERR_INVALID_RENDER_OPTION', /^quality: expected a whole number between 1 and 100/)
  })

  it('render › an unknown format is refused', async () => {
    await expectLithoError(renderer.render(simple(), { format: 'gif' as never }), 'ERR_INVALID_RENDER_OPTION', /^format: expected one of png, jpeg, webp, pdf, received "gif"/)
  })

  it('render › an unknown variation is refused, naming the ones that exist', async () => {
    await expectLithoError(renderer.render(card, { variation: 'banner' }), 'ERR_UNKNOWN_VARIATION', /banner.*master, story/)
  })

  it('render › an invalid override value is an error naming the key', async () => {
    await expectLithoError(renderer.render(simple(), { overrides: { 'title.color': 'nocolour' } }), 'ERR_INVALID_OVERRIDE', /title\.color: expected a CSS colour/)
  })

  it('render › an image that cannot be fetched names the component and the URL', async () => {
    const doc = simple({ components: [{ type: 'image', key: 'hero', width: 100, height: 100, src: 'https://10.0.0.1/photo.jpg' }] })
    const error = await expectLithoError(renderer.render(doc), 'ERR_IMAGE_FETCH')
    expect(error.message).toMatch(/^hero: /)
    expect(error.message).toContain('https://10.0.0.1/photo.jpg')
    expect(error.details.component).toBe('hero')
  })

  it('render › an image that is not an image names the component', async () => {
    const doc = simple({ components: [{ type: 'image', key: 'hero', width: 100, height: 100, src: `data:image/png;base64,${Buffer.from('<html>nope</html>').toString('base64')}` }] })
    await expectLithoError(renderer.render(doc), 'ERR_IMAGE_INVALID', /^hero: /)
  })

  it('render › an ean13 barcode with value "ABC" is refused as ERR_INVALID_DESIGN naming components[0].value, not a failed render', async () => {
    const doc = simple({ components: [{ type: 'barcode', key: 'ean', width: 200, height: 80, value: 'ABC', symbology: 'ean13' }] })
    const error = await expectLithoError(renderer.render(doc), 'ERR_INVALID_DESIGN', /components\[0\]\.value: expected a value ean13 can encode, received "ABC"/)
    expect(error.issues).toEqual([{ path: 'components[0].value', message: expect.stringContaining('ean13') }])
  })

  it('render › a linear gradient at angle 5e-324 and a rotation of 1e-7 render (satori reads no exponent in CSS numbers)', async () => {
    const doc = simple({ components: [{ type: 'shape', key: 's', width: 50, height: 50, rotation: 1e-7, fill: { type: 'linear', angle: 5e-324, stops: [{ offset: 0, color: '#000' }, { offset: 1, color: '#fff' }] } }] })
    expect((await renderer.render(doc, { format: 'png' })).format).toBe('png')
  })

  it('render › a QR code rotated 30° wholly below a 50x50 canvas renders instead of aborting the process (resvg panic)', async () => {
    const doc = simple({ width: 50, height: 50, components: [{ type: 'qrcode', key: 'qr', y: 100, width: 56, height: 147, rotation: 30, value: 'SS', margin: 15 }] })
    expect((await renderer.render(doc, { format: 'png' })).format).toBe('png')
  })

  it('render › an override ean.value=ABC is refused as ERR_INVALID_OVERRIDE naming ean.value', async () => {
    const doc = simple({ components: [{ type: 'group', key: 'g', width: 300, height: 100, children: [{ type: 'barcode', key: 'ean', width: 200, height: 80, value: '4006381333931', symbology: 'ean13' }] }] })
    const error = await expectLithoError(renderer.render(doc, { overrides: 'ean.value=ABC' }), 'ERR_INVALID_OVERRIDE', /ean\.value: expected a value ean13 can encode/)
    expect(error.issues.map((issue) => issue.path)).toEqual(['ean.value'])
  })

  it.each(['qrcode', 'barcode'] as const)('render › radius rounds a %s: its background fills the rounded box, the corners show the canvas, and the code is inset so no module is cut', async (type) => {
    const code = { key: 'c', x: 20, y: 20, width: 260, height: 260, radius: 60, background: '#ff0000', color: '#000000', value: '4006381333931', ...(type === 'barcode' ? { symbology: 'ean13' } : {}) }
    const doc = simple({ width: 300, height: 300, components: [{ type, ...code }] as DesignDocumentInput['components'] })
    for (const format of ['png', 'webp'] as const) {
      const { data, info } = await sharp((await renderer.render(doc, { format })).bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
      const px = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)]
      const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 24)
      // Each corner of the box is outside the rounding: the white canvas.
      for (const [x, y] of [[22, 22], [277, 22], [22, 277], [277, 277]]) expect(near(px(x!, y!), [255, 255, 255]), `${format} corner ${x},${y}: ${px(x!, y!)}`).toBe(true)
      // The inset band along each edge is the code's background: 60 × (1 − 1/√2) → 18 px.
      for (const [x, y] of [[150, 25], [25, 150], [275, 150]]) expect(near(px(x!, y!), [255, 0, 0]), `${format} edge ${x},${y}: ${px(x!, y!)}`).toBe(true)
    }
    // Without radius nothing changes: the code fills its box to the corner.
    const square = await renderer.render(simple({ width: 300, height: 300, components: [{ type, ...code, radius: undefined }] as DesignDocumentInput['components'] }), { format: 'png' })
    const { data } = await sharp(square.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    expect([...data.subarray((22 * 300 + 22) * 3, (22 * 300 + 22) * 3 + 3)]).not.toEqual([255, 255, 255])
  })

  it('render › a 2900-character QR value at error correction H (over its capacity) is refused as ERR_INVALID_DESIGN naming the value', async () => {
    const doc = simple({ components: [{ type: 'qrcode', key: 'qr', width: 200, height: 200, value: 'x'.repeat(2900), errorCorrection: 'H' }] })
    const error = await expectLithoError(renderer.render(doc), 'ERR_INVALID_DESIGN', /components\[0\]\.value: expected a value a QR code can hold with error correction H/)
    expect(error.issues[0]?.path).toBe('components[0].value')
  })
})

describe('render()', () => {
  it('render › the shortcut renders with the default renderer', async () => {
    const result = await render(simple(), { format: 'png' })
    expect((await sharp(result.bytes).metadata()).format).toBe('png')
  })
})

describe('remote fonts', () => {
  it('render › a font from fonts[] is fetched once and reused across renders', async () => {
    const { createServer } = await import('node:http')
    const mono = readFileSync(require.resolve('@fontsource/jetbrains-mono/files/jetbrains-mono-latin-700-normal.woff2'))
    let requests = 0
    const server = createServer((_req, res) => {
      requests++
      res.writeHead(200, { 'content-type': 'font/woff2' })
      res.end(mono)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve))
    const port = (server.address() as { port: number }).port
    try {
      const local = createRenderer({ network: { allowHttp: true, allowNetworks: ['127.0.0.2/32'] } })
      const doc = simple({
        fonts: [{ family: 'Remote', src: `http://127.0.0.2:${port}/remote.woff2`, weight: 700 }],
        components: [{ type: 'text', key: 't', width: 300, height: 40, text: 'Fetched once', fontFamily: 'Remote', fontWeight: 700 }],
      })
      const first = await local.render(doc, { format: 'png' })
      const second = await local.render(doc, { format: 'png', overrides: { 't.text': 'Still one fetch' } })
      expect(first.warnings).toEqual([])
      expect(second.warnings).toEqual([])
      expect(requests).toBe(1)
    } finally {
      server.close()
    }
  })

  it('render › a font URL the network policy refuses is a clear error', async () => {
    const doc = simple({ fonts: [{ family: 'Remote', src: 'https://169.254.169.254/font.woff2' }], components: [{ type: 'text', key: 't', width: 100, height: 40, text: 'x', fontFamily: 'Remote' }] })
    await expectLithoError(renderer.render(doc), 'ERR_FONT_FETCH', /169\.254\.169\.254/)
  })
})
