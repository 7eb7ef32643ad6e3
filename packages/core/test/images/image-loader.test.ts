import zlib from 'node:zlib'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LithoError } from '../../src/errors.js'
import { DEFAULT_IMAGE_LIMITS, createImageLoader, type ImageBox, type PreparedImage } from '../../src/render/images/index.js'
import { INTERNAL_HOST, PUBLIC_HOST, pixelAt, redBluePng, solidPng, spyOnConnects, startServer, testPolicy, type FixtureServer } from './fixtures.js'

async function rejection(promise: Promise<unknown>): Promise<LithoError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!LithoError.isInstance(error)) throw new Error(`expected a LithoError, got ${String(error)}`)
  return error
}

/** The encoded bytes behind a prepared image's data: URI. */
function decoded(image: PreparedImage): Buffer {
  const [header, payload] = image.dataUri.split(',')
  expect(header).toBe(`data:${image.mime};base64`)
  return Buffer.from(payload!, 'base64')
}

/** A PNG chunk with a correct CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(body) >>> 0)
  return Buffer.concat([length, body, crc])
}

/** A valid PNG header claiming 65535×65535 RGB, followed by 200 bytes of IDAT and no end. */
function headerLiePng(): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(65535, 0)
  ihdr.writeUInt32BE(65535, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // truecolour
  const idat = zlib.deflateSync(Buffer.alloc(1_000_000)).subarray(0, 200)
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', idat)])
}

const routes = new Map<string, { body: Buffer; type: string }>()
let server: FixtureServer
let internal: FixtureServer

beforeAll(async () => {
  server = await startServer(PUBLIC_HOST, (request, response) => {
    const route = routes.get(request.url ?? '')
    if (route === undefined) return void response.writeHead(404).end()
    response.writeHead(200, { 'content-type': route.type }).end(route.body)
  })
  internal = await startServer(INTERNAL_HOST, (_request, response) => void response.end())
})

afterAll(async () => {
  await server.close()
  await internal.close()
})

// Every test runs under the fail-safe connect spy: nothing but loopback can be dialled.
let connects: ReturnType<typeof spyOnConnects>
beforeEach(() => {
  connects = spyOnConnects()
})
afterEach(() => {
  connects.restore()
})

function serve(path: string, body: Buffer, type = 'image/png'): string {
  routes.set(path, { body, type })
  return `${server.origin}${path}`
}

function requestsFor(path: string): number {
  return server.requests.filter((request) => request === path).length
}

describe('image loader › sizing', () => {
  const loader = createImageLoader({ policy: testPolicy() })

  it('cover fills the box exactly', async () => {
    const url = serve('/square.png', await solidPng(1000, 1000, '#336699'))
    const image = await loader.prepare(url, { width: 300, height: 200, fit: 'cover' })
    expect(image).toMatchObject({ width: 300, height: 200, pixelWidth: 300, pixelHeight: 200, mime: 'image/jpeg' })
    const meta = await sharp(decoded(image)).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 300, 200])
  })

  it('contain keeps the aspect ratio and reports the fitted size', async () => {
    const url = serve('/wide.png', await solidPng(1000, 500, '#336699'))
    const image = await loader.prepare(url, { width: 300, height: 200, fit: 'contain' })
    expect(image).toMatchObject({ width: 300, height: 150, pixelWidth: 300, pixelHeight: 150 })
    const meta = await sharp(decoded(image)).metadata()
    expect([meta.width, meta.height]).toEqual([300, 150])
  })

  it('contain at scale 2 doubles pixels but not CSS size', async () => {
    const url = serve('/tall.png', await solidPng(400, 800, '#336699'))
    const image = await loader.prepare(url, { width: 300, height: 200, fit: 'contain', scale: 2 })
    expect(image).toMatchObject({ width: 100, height: 200, pixelWidth: 200, pixelHeight: 400 })
    const meta = await sharp(decoded(image)).metadata()
    expect([meta.width, meta.height]).toEqual([200, 400])
  })

  it('fill stretches to the box', async () => {
    const url = serve('/wide-fill.png', await solidPng(1000, 500, '#336699'))
    const image = await loader.prepare(url, { width: 120, height: 240, fit: 'fill', scale: 1.5 })
    expect(image).toMatchObject({ width: 120, height: 240, pixelWidth: 180, pixelHeight: 360 })
    const meta = await sharp(decoded(image)).metadata()
    expect([meta.width, meta.height]).toEqual([180, 360])
  })

  it('upscales a small source to the box', async () => {
    const url = serve('/tiny.png', await solidPng(10, 10, '#336699'))
    const image = await loader.prepare(url, { width: 200, height: 100, fit: 'cover' })
    const meta = await sharp(decoded(image)).metadata()
    expect([meta.width, meta.height]).toEqual([200, 100])
  })

  it('encodes images with alpha as PNG', async () => {
    const url = serve('/alpha.png', await solidPng(100, 100, '#33669980', true))
    const image = await loader.prepare(url, { width: 50, height: 50, fit: 'cover' })
    expect(image.mime).toBe('image/png')
    const meta = await sharp(decoded(image)).metadata()
    expect([meta.format, meta.hasAlpha]).toEqual(['png', true])
  })
})

describe('image loader › focus', () => {
  const loader = createImageLoader({ policy: testPolicy() })
  // Left half red, right half blue; a tall narrow box can show only one of them.
  const box = (x: number): ImageBox => ({ width: 20, height: 100, fit: 'cover', focus: { x, y: 0.5 } })
  const RED: [number, number, number] = [255, 0, 0]
  const BLUE: [number, number, number] = [0, 0, 255]

  function near(actual: [number, number, number], expected: [number, number, number]): boolean {
    return actual.every((value, index) => Math.abs(value - expected[index]!) <= 24)
  }

  it('focus x=0 shows the left (red) edge, x=1 the right (blue) edge', async () => {
    const url = serve('/red-blue.png', await redBluePng(400, 100))
    const left = decoded(await loader.prepare(url, box(0)))
    const right = decoded(await loader.prepare(url, box(1)))
    for (const [x, y] of [[0, 0], [19, 50], [10, 99]] as const) {
      expect(near(await pixelAt(left, x, y), RED)).toBe(true)
      expect(near(await pixelAt(right, x, y), BLUE)).toBe(true)
    }
  })

  it('the default focus (centre) straddles the boundary', async () => {
    const url = serve('/red-blue-centre.png', await redBluePng(400, 100))
    const centre = decoded(await loader.prepare(url, { width: 20, height: 100, fit: 'cover' }))
    expect(near(await pixelAt(centre, 2, 50), RED)).toBe(true)
    expect(near(await pixelAt(centre, 17, 50), BLUE)).toBe(true)
  })

  it('focus {0,0} keeps the top-left corner', async () => {
    // 200×200: top-left quadrant green, the rest grey.
    const corner = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#00ff00' } }).png().toBuffer()
    const source = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#808080' } })
      .composite([{ input: corner, left: 0, top: 0 }])
      .png()
      .toBuffer()
    const url = serve('/corner.png', source)
    // A 2:1 box over a square source crops rows; focus y=0 keeps the top rows.
    const image = decoded(await loader.prepare(url, { width: 40, height: 20, fit: 'cover', focus: { x: 0, y: 0 } }))
    expect(near(await pixelAt(image, 2, 2), [0, 255, 0])).toBe(true)
    expect(near(await pixelAt(image, 2, 17), [0, 255, 0])).toBe(true)
    expect(near(await pixelAt(image, 37, 2), [128, 128, 128])).toBe(true)
  })

  it('honours EXIF orientation before cropping', async () => {
    // Stored 200×100 red|blue, tagged "rotate 90° clockwise": displayed 100×200, red on top.
    const stored = await sharp(await redBluePng(200, 100)).jpeg().withMetadata({ orientation: 6 }).toBuffer()
    const url = serve('/rotated.jpg', stored, 'image/jpeg')
    const image = await loader.prepare(url, { width: 10, height: 20, fit: 'fill' })
    const bytes = decoded(image)
    expect(near(await pixelAt(bytes, 5, 2), RED)).toBe(true)
    expect(near(await pixelAt(bytes, 5, 17), BLUE)).toBe(true)
  })
})

describe('image loader › caching', () => {
  it('serves a second prepare of the same URL from cache', async () => {
    const loader = createImageLoader({ policy: testPolicy() })
    const url = serve('/cached.png', await solidPng(64, 64, '#123456'))
    const first = await loader.prepare(url, { width: 32, height: 32, fit: 'cover' })
    const second = await loader.prepare(url, { width: 32, height: 32, fit: 'cover' })
    expect(second).toBe(first)
    // Another box reuses the cached bytes: still one request.
    const other = await loader.prepare(url, { width: 16, height: 8, fit: 'fill' })
    expect(other.pixelWidth).toBe(16)
    expect(requestsFor('/cached.png')).toBe(1)
    loader.clear()
    await loader.prepare(url, { width: 32, height: 32, fit: 'cover' })
    expect(requestsFor('/cached.png')).toBe(2)
  })

  it('shares one in-flight fetch between concurrent requests', async () => {
    const loader = createImageLoader({ policy: testPolicy() })
    const url = serve('/concurrent.png', await solidPng(64, 64, '#654321'))
    const results = await Promise.all([
      loader.prepare(url, { width: 10, height: 10, fit: 'cover' }),
      loader.prepare(url, { width: 20, height: 10, fit: 'cover' }),
      loader.prepare(url, { width: 30, height: 10, fit: 'contain' }),
    ])
    expect(results.map((image) => image.pixelWidth)).toEqual([10, 20, 10])
    expect(requestsFor('/concurrent.png')).toBe(1)
  })

  it('does not cache when cacheEntries is 0', async () => {
    const loader = createImageLoader({ policy: testPolicy(), cacheEntries: 0 })
    const url = serve('/uncached.png', await solidPng(16, 16, '#abcdef'))
    await loader.prepare(url, { width: 8, height: 8, fit: 'cover' })
    await loader.prepare(url, { width: 8, height: 8, fit: 'cover' })
    expect(requestsFor('/uncached.png')).toBe(2)
  })

  it('fetches a URL again once cacheTtlMs has passed, and shows what it serves now', async () => {
    const loader = createImageLoader({ policy: testPolicy(), cacheTtlMs: 50 })
    const url = serve('/replaced.png', await solidPng(16, 16, '#ff0000'))
    const before = await loader.prepare(url, { width: 8, height: 8, fit: 'cover' })
    await loader.prepare(url, { width: 8, height: 8, fit: 'cover' })
    expect(requestsFor('/replaced.png')).toBe(1)
    serve('/replaced.png', await solidPng(16, 16, '#0000ff'))
    await new Promise((resolve) => setTimeout(resolve, 80))
    const after = await loader.prepare(url, { width: 8, height: 8, fit: 'cover' })
    expect(requestsFor('/replaced.png')).toBe(2)
    expect(after.dataUri).not.toBe(before.dataUri)
  })

  it('evicts by total bytes', async () => {
    const body = await solidPng(200, 200, '#0f0f0f')
    const loader = createImageLoader({ policy: testPolicy(), cacheBytes: body.length + 10 })
    const a = serve('/evict-a.png', body)
    const b = serve('/evict-b.png', await solidPng(200, 200, '#f0f0f0'))
    await loader.prepare(a, { width: 8, height: 8, fit: 'cover' })
    await loader.prepare(b, { width: 8, height: 8, fit: 'cover' }) // pushes a out of the byte cache
    await loader.prepare(a, { width: 9, height: 9, fit: 'cover' })
    expect(requestsFor('/evict-a.png')).toBe(2)
  })
})

describe('image loader › sources', () => {
  const loader = createImageLoader({ policy: testPolicy() })

  it('prepares a data: URI', async () => {
    const png = await solidPng(40, 20, '#ff8800')
    const image = await loader.prepare(`data:image/png;base64,${png.toString('base64')}`, { width: 20, height: 10, fit: 'cover' })
    expect(image).toMatchObject({ mime: 'image/jpeg', pixelWidth: 20, pixelHeight: 10 })
    const [r, g, b] = await pixelAt(decoded(image), 10, 5)
    expect(r).toBeGreaterThan(230)
    expect(g).toBeGreaterThan(110)
    expect(g).toBeLessThan(160)
    expect(b).toBeLessThan(30)
  })

  it('rasterizes SVG at the density the box needs', async () => {
    const svg = Buffer.from('<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="5"><rect width="5" height="5" fill="#f00"/><rect x="5" width="5" height="5" fill="#00f"/></svg>')
    const image = await loader.prepare(`data:image/svg+xml;base64,${svg.toString('base64')}`, { width: 400, height: 200, fit: 'contain' })
    expect(image).toMatchObject({ mime: 'image/png', pixelWidth: 400, pixelHeight: 200, width: 400, height: 200 })
    const bytes = decoded(image)
    // Rendered at 40× rather than blown up from 10×5 pixels: the edge between halves is sharp.
    expect(await pixelAt(bytes, 198, 100)).toEqual([255, 0, 0])
    expect(await pixelAt(bytes, 202, 100)).toEqual([0, 0, 255])
  })

  it('takes the first frame of an animated GIF', async () => {
    const frame = (color: string) => sharp({ create: { width: 30, height: 20, channels: 3, background: color } }).png().toBuffer()
    const gif = await sharp([await frame('#00ff00'), await frame('#ff0000')], { join: { animated: true } }).gif().toBuffer()
    const image = await loader.prepare(serve('/anim.gif', gif, 'image/gif'), { width: 30, height: 20, fit: 'fill' })
    const [r, g] = await pixelAt(decoded(image), 15, 10)
    expect(g).toBeGreaterThan(200)
    expect(r).toBeLessThan(50)
  })

  it('names refused fetches the way callers prefix them', async () => {
    const error = await rejection(loader.prepare('http://10.0.0.1/a.png', { width: 10, height: 10, fit: 'cover' }))
    expect(error.code).toBe('ERR_IMAGE_FETCH')
    expect(error.message).toBe('could not fetch http://10.0.0.1/a.png: the address 10.0.0.1 is not allowed by the network policy')
    expect(connects.attempts).toEqual([])
  })

  it('defaults to a strict policy: no http, no loopback', async () => {
    const strict = createImageLoader()
    const error = await rejection(strict.prepare(serve('/strict.png', await solidPng(4, 4, '#000')), { width: 4, height: 4, fit: 'fill' }))
    expect(error.details.reason).toBe('bad_scheme')
    expect(connects.attempts).toEqual([])
  })

  it('does not fetch external references inside an SVG', async () => {
    const href = `http://${INTERNAL_HOST}:${internal.port}/x.png`
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="20"><image href="${href}" width="20" height="20"/><image xlink:href="file:///etc/hostname" width="20" height="20"/></svg>`
    const image = await loader.prepare(`data:image/svg+xml,${encodeURIComponent(svg)}`, { width: 20, height: 20, fit: 'fill' })
    const { data } = await sharp(decoded(image)).raw().toBuffer({ resolveWithObject: true })
    expect(data.every((value) => value === 0)).toBe(true) // fully transparent
    expect(internal.connections).toBe(0)
  })
})

describe('image loader › refusals', () => {
  const loader = createImageLoader({ policy: testPolicy() })
  const box: ImageBox = { width: 100, height: 100, fit: 'cover' }

  it('HTML served as image/png is unsupported_format', async () => {
    const url = serve('/page.png', Buffer.from('<!doctype html><html><body>login</body></html>'), 'image/png')
    const error = await rejection(loader.prepare(url, box))
    expect(error.code).toBe('ERR_IMAGE_INVALID')
    expect(error.details).toMatchObject({ reason: 'unsupported_format', found: 'HTML served as image/png' })
    expect(error.message).toBe(`${url} is not a supported image (found HTML served as image/png)`)
    expect(error.message).not.toContain('login')
  })

  it('an HTML page names its declared type', async () => {
    const url = serve('/page.html', Buffer.from('<html></html>'), 'text/html; charset=utf-8')
    const error = await rejection(loader.prepare(url, box))
    expect(error.message).toBe(`${url} is not a supported image (found text/html)`)
  })

  it('TIFF and PDF bytes are refused before sharp sees them', async () => {
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).tiff().toBuffer()
    const tiffError = await rejection(loader.prepare(serve('/photo.tif', tiff, 'image/jpeg'), box))
    expect(tiffError.details).toMatchObject({ reason: 'unsupported_format', found: 'TIFF served as image/jpeg' })
    const pdfError = await rejection(loader.prepare(serve('/doc.png', Buffer.from('%PDF-1.7\n...'), 'application/octet-stream'), box))
    expect(pdfError.details.found).toBe('application/octet-stream')
  })

  it('a PNG whose header claims 65535×65535 is refused from metadata, fast', async () => {
    const url = serve('/header-lie.png', headerLiePng())
    const started = Date.now()
    const error = await rejection(loader.prepare(url, box))
    expect(Date.now() - started).toBeLessThan(500)
    expect(error.code).toBe('ERR_IMAGE_INVALID')
    expect(error.details).toMatchObject({ reason: 'too_many_pixels', width: 65535, height: 65535, limit: DEFAULT_IMAGE_LIMITS.maxPixels })
    expect(error.message).toBe(`${url} is 65535×65535 pixels, more than the limit of 50000000`)
  })

  it('a flat image over a (test-sized) pixel limit is refused; one at the limit succeeds', async () => {
    const small = createImageLoader({ policy: testPolicy(), limits: { maxPixels: 1_000_000 } })
    const over = serve('/flat-over.png', await solidPng(1001, 1000, '#777777'))
    const error = await rejection(small.prepare(over, box))
    expect(error.details).toMatchObject({ reason: 'too_many_pixels', width: 1001, height: 1000, limit: 1_000_000 })
    const atLimit = serve('/flat-at.png', await solidPng(1000, 1000, '#777777'))
    await expect(small.prepare(atLimit, box)).resolves.toMatchObject({ pixelWidth: 100 })
  })

  it('a truncated JPEG is invalid_image', async () => {
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#a0b0c0' } })
      .composite([{ input: await redBluePng(300, 300) }])
      .jpeg()
      .toBuffer()
    const url = serve('/truncated.jpg', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg')
    const error = await rejection(loader.prepare(url, box))
    expect(error.details).toMatchObject({ reason: 'invalid_image', format: 'jpeg' })
    expect(error.message).toBe(`${url} could not be decoded as JPEG`)
  })

  it('an SVG with a DOCTYPE is refused', async () => {
    const svg = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&b;</text></svg>'
    const error = await rejection(loader.prepare(`data:image/svg+xml,${encodeURIComponent(svg)}`, box))
    expect(error.details.reason).toBe('unsafe_svg')
    expect(error.message).toMatch(/^data:image\/svg\+xml,… \(\d+ bytes\) is an SVG with a DOCTYPE or ENTITY declaration, which is not allowed$/)
  })

  it('an SVG over 1 MB is refused before parsing', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><!-- ${'x'.repeat(1_000_001)} --></svg>`
    const error = await rejection(loader.prepare(serve('/big.svg', Buffer.from(svg), 'image/svg+xml'), box))
    expect(error.details).toMatchObject({ reason: 'too_large', limit: 1_000_000 })
  })

  it('an SVG whose size needs too many pixels is refused', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100000000" height="100000000"><rect width="1" height="1"/></svg>'
    const error = await rejection(loader.prepare(`data:image/svg+xml,${encodeURIComponent(svg)}`, box))
    expect(error.details.reason).toBe('too_many_pixels')
  })

  it('throws a coded TypeError for a bad box', async () => {
    await expect(loader.prepare('data:,x', { width: 0, height: 10, fit: 'cover' })).rejects.toThrow('Expected box.width to be a positive number but received 0')
    await expect(loader.prepare('data:,x', { width: 10, height: 10, fit: 'stretch' as never })).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' })
    await expect(loader.prepare('data:,x', { width: 10, height: 10, fit: 'cover', focus: { x: 2, y: 0 } })).rejects.toThrow(
      'Expected box.focus.x to be a number from 0 to 1 but received 2',
    )
    expect(() => createImageLoader({ cacheBytes: -1 })).toThrow('Expected cacheBytes to be an integer >= 0 but received -1')
  })
})
