// The checks of an uploaded asset (assets/validate-asset): every limit from both sides, the type
// read from the bytes, decompression bombs, and SVGs that could run or fetch something.
import { describe, expect, it } from 'vitest'
import { LithoError } from '../../src/errors.js'
import { MAX_ASSET_BYTES, MAX_ASSET_PIXELS, MAX_SVG_ASSET_BYTES, checkAsset, findUnsafeSvg } from '../../src/assets/validate-asset.js'
import { jpegOfSize, pngBomb, solidPng, svg } from './_images.js'

async function refusal(bytes: Uint8Array): Promise<LithoError> {
  const error = await checkAsset(bytes).then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!LithoError.isInstance(error)) throw new Error(`expected a LithoError, got ${String(error)}`)
  return error
}

describe('checkAsset', () => {
  it('accepts PNG, JPEG, WebP, GIF and SVG, with the type and size read from the bytes', async () => {
    const png = await solidPng(30, 20)
    expect(await checkAsset(png)).toEqual({ contentType: 'image/png', width: 30, height: 20 })
    const sharp = (await import('sharp')).default
    const base = sharp({ create: { width: 8, height: 6, channels: 3, background: '#000' } })
    expect((await checkAsset(await base.clone().jpeg().toBuffer())).contentType).toBe('image/jpeg')
    expect((await checkAsset(await base.clone().webp().toBuffer())).contentType).toBe('image/webp')
    expect((await checkAsset(await base.clone().gif().toBuffer())).contentType).toBe('image/gif')
    expect(await checkAsset(svg())).toEqual({ contentType: 'image/svg+xml', width: 40, height: 20 })
  })

  it('accepts exactly 10 MB and refuses 10 MB + 1 byte (ERR_ASSET_TOO_LARGE)', async () => {
    expect((await checkAsset(await jpegOfSize(MAX_ASSET_BYTES))).contentType).toBe('image/jpeg')
    const error = await refusal(await jpegOfSize(MAX_ASSET_BYTES + 1))
    expect(error.code).toBe('ERR_ASSET_TOO_LARGE')
    expect(error.details).toMatchObject({ field: 'file', bytes: MAX_ASSET_BYTES + 1, limit: MAX_ASSET_BYTES })
  })

  it('accepts exactly 40 MP and refuses one column more (too_many_pixels)', async () => {
    expect(await checkAsset(await solidPng(8000, 5000))).toMatchObject({ width: 8000, height: 5000 })
    expect(8000 * 5000).toBe(MAX_ASSET_PIXELS)
    const error = await refusal(await solidPng(8001, 5000))
    expect(error.code).toBe('ERR_ASSET_INVALID')
    expect(error.details).toMatchObject({ reason: 'too_many_pixels', width: 8001, height: 5000 })
  }, 30_000)

  it('refuses a decompression bomb (a tiny PNG claiming 100000×100000) from its header, without decoding it', async () => {
    const bomb = pngBomb()
    expect(bomb.length).toBeLessThan(20_000)
    const started = performance.now()
    const error = await refusal(bomb)
    expect(error.details).toMatchObject({ reason: 'too_many_pixels', width: 100_000, height: 100_000 })
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it('refuses what is not an image whatever it claims to be, naming what it found', async () => {
    const html = await refusal(Buffer.from('<html><body>hi</body></html>'))
    expect(html.details).toMatchObject({ field: 'file', reason: 'unsupported_format', found: 'HTML' })
    expect((await refusal(Buffer.from('%PDF-1.7 …'))).details).toMatchObject({ reason: 'unsupported_format', found: 'PDF' })
    expect((await refusal(new Uint8Array())).details).toMatchObject({ reason: 'empty' })
    // A PNG signature and nothing decodable after it.
    const truncated = (await solidPng(64, 64)).subarray(0, 60)
    expect((await refusal(truncated)).details).toMatchObject({ reason: 'invalid_image' })
  })

  it('refuses SVGs with scripts, event handlers, external references, foreignObject or a DTD (unsafe_svg)', async () => {
    const cases: Array<[string, string]> = [
      ['<script>alert(1)</script>', 'a <script> element'],
      ['<SCRIPT xlink:href="x.js"/>', 'a <script> element'],
      ['<rect onload="alert(1)" width="1" height="1"/>', 'an event handler attribute (on…=)'],
      ['<foreignObject width="10" height="10"><div/></foreignObject>', 'a <foreignObject> element'],
      ['<image href="https://evil.example/track.png" width="1" height="1"/>', 'an external reference (href="https://evil.example/track.png")'],
      ['<use xlink:href="file:///etc/passwd#x"/>', 'an external reference (href="file:///etc/passwd#x")'],
      ['<rect style="fill:url(https://evil.example/x)" width="1" height="1"/>', 'an external reference (url(https://evil.example/x))'],
      ['<style>@import "https://evil.example/a.css";</style>', 'a CSS @import'],
      ['<a href="javascript:alert(1)"><rect width="1" height="1"/></a>', 'a javascript: URL'],
    ]
    for (const [extra, found] of cases) {
      const error = await refusal(svg(extra))
      expect(error.details, extra).toMatchObject({ reason: 'unsafe_svg', found })
    }
    const doctype = await refusal(Buffer.concat([Buffer.from('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'), svg('<text>&x;</text>')]))
    expect(doctype.details).toMatchObject({ reason: 'unsafe_svg', found: 'a DOCTYPE or ENTITY declaration' })
    // Local references and embedded rasters are fine.
    expect(findUnsafeSvg('<svg><defs><linearGradient id="g"/></defs><rect fill="url(#g)"/><use href="#g"/><image href="data:image/png;base64,AAAA"/></svg>')).toBeUndefined()
  })

  it('refuses an SVG over 1 MB and accepts one of exactly 1 MB', async () => {
    const head = svg().toString('utf8').replace('</svg>', '<!--')
    const exact = Buffer.from(`${head}${' '.repeat(MAX_SVG_ASSET_BYTES - head.length - 9)}--></svg>`)
    expect(exact.length).toBe(MAX_SVG_ASSET_BYTES)
    expect((await checkAsset(exact)).contentType).toBe('image/svg+xml')
    const over = Buffer.concat([exact.subarray(0, exact.length - 6), Buffer.from(' </svg>')])
    expect(over.length).toBe(MAX_SVG_ASSET_BYTES + 1)
    expect((await refusal(over)).code).toBe('ERR_ASSET_TOO_LARGE')
  })
})
