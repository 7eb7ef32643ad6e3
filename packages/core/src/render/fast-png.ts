/**
 * PNG for opaque canvases through `@napi-rs/image` (the Rust `png` crate with its fast deflate):
 * on the 1080x1080 reference card 9-12 ms against 35 ms for sharp at zlib level 2, for a file
 * about 10 % larger (docs/performance.md, "Encoders"). Its raw-pixel entry takes RGBA only; RGB
 * rows reach it as a binary PPM (P6), whose whole header is `P6\n<width> <height>\n255\n`, so
 * canvases are allocated with that header in front of their pixels (layers/composite.ts) and
 * nothing is copied. Loaded on the first PNG; where the native package cannot load (a platform without
 * its prebuilt binary), sharp encodes instead.
 *
 * @module render/fast-png
 */

type NapiImage = typeof import('@napi-rs/image')

let loading: Promise<NapiImage | null> | undefined

/**
 * The PPM header for an RGB canvas of `width × height`.
 *
 * @example ppmHeader(1080, 1080) // 'P6\n1080 1080\n255\n'
 */
export function ppmHeader(width: number, height: number): string {
  return `P6\n${width} ${height}\n255\n`
}

/**
 * Copies the colour channels of opaque RGBA pixels into `out` (3 bytes a pixel): every pixel
 * is opaque, so premultiplied or not they are the same colours.
 *
 * @example rgbaToRgb(rendered.pixels, Buffer.allocUnsafe(1080 * 1080 * 3))
 */
export function rgbaToRgb(rgba: Uint8Array, out: Buffer): Buffer {
  for (let s = 0, d = 0; s < rgba.length; s += 4, d += 3) {
    out[d] = rgba[s]!
    out[d + 1] = rgba[s + 1]!
    out[d + 2] = rgba[s + 2]!
  }
  return out
}

/**
 * PNG bytes of an opaque RGBA image (resvg's pixels of an opaque canvas), as RGB through the
 * fast encoder, or `undefined` when it is not available here.
 *
 * @example await opaquePngFast(rendered.pixels, 1080, 1080)
 */
export async function opaquePngFast(rgba: Uint8Array, width: number, height: number): Promise<Buffer | undefined> {
  const header = ppmHeader(width, height)
  const framed = Buffer.allocUnsafe(header.length + width * height * 3)
  framed.write(header, 'latin1')
  rgbaToRgb(rgba, framed.subarray(header.length))
  return encodePngFast(framed)
}

/**
 * Encodes `framed` (a PPM header, then RGB rows) as an 8-bit RGB PNG, or resolves `undefined`
 * when the fast encoder is not available here (the caller then uses sharp).
 *
 * @example await encodePngFast(canvas.framed) // PNG bytes
 */
export async function encodePngFast(framed: Buffer): Promise<Buffer | undefined> {
  loading ??= import('@napi-rs/image').then(
    (module) => (module as NapiImage & { default?: NapiImage }).default ?? module,
    () => null,
  )
  const napi = await loading
  if (!napi) return undefined
  // Paeth on every row: 9 ms and 1320 KB on the reference card, against 8.5 ms / 1362 KB (Up)
  // and 12.5 ms / 1265 KB (adaptive); the crate's default compression takes 150 ms.
  return new napi.Transformer(framed).png({ compressionType: napi.CompressionType.Fast, filterType: napi.FilterType.Paeth })
}
