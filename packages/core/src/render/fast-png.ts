/**
 * PNG for opaque canvases through `@napi-rs/image` (the Rust `png` crate with its fast deflate):
 * on the 1080x1080 reference card 9-12 ms against 35 ms for sharp at zlib level 2, for a file
 * about 10 % larger (docs/performance.md, "Encoders"). Its raw-pixel entry takes RGBA only; RGB
 * rows reach it as a binary PPM (P6), whose whole header is `P6\n<width> <height>\n255\n`, so
 * canvases are allocated with that header in front of their pixels ({@link allocFramedRgb}) and
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
 * Whether this host is little-endian: pixels are then read as 32-bit words with R in the low byte
 * (every platform sharp and resvg ship for); elsewhere, the byte loops run.
 */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

/**
 * Copies the colour channels of opaque RGBA pixels into `out` (3 bytes a pixel): every pixel
 * is opaque, so premultiplied or not they are the same colours. Four pixels at a time as
 * 32-bit words (four words in, three out) when both buffers are 4-byte aligned: a quarter of
 * the loop's turns, which matters most on cold code (the first render of a process converts a
 * whole bottom layer before the loop is optimised: ~20 ms byte by byte on the reference card).
 *
 * @example rgbaToRgb(rendered.pixels, Buffer.allocUnsafe(1080 * 1080 * 3))
 */
export function rgbaToRgb<T extends Uint8Array>(rgba: Uint8Array, out: T): T {
  const pixels = rgba.length >> 2
  let done = 0
  if (LITTLE_ENDIAN && rgba.byteOffset % 4 === 0 && out.byteOffset % 4 === 0) {
    const quads = pixels >> 2
    const src = new Uint32Array(rgba.buffer, rgba.byteOffset, quads * 4)
    const dst = new Uint32Array(out.buffer, out.byteOffset, quads * 3)
    for (let s = 0, d = 0; d < dst.length; s += 4, d += 3) {
      const b = src[s + 1]!
      const c = src[s + 2]!
      // Bytes out: R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3 (each word's alpha byte dropped).
      dst[d] = (src[s]! & 0xffffff) | (b << 24)
      dst[d + 1] = ((b >>> 8) & 0xffff) | (c << 16)
      dst[d + 2] = ((c >>> 16) & 0xff) | (src[s + 3]! << 8)
    }
    done = quads * 4
  }
  for (let s = done * 4, d = done * 3; s < rgba.length; s += 4, d += 3) {
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
  return encodePngFast(framedRgb(rgba, width, height))
}

/**
 * `rgba` (opaque) as RGB behind a PPM header, the header placed so that the pixels start on a
 * 4-byte boundary (the word-wise path of {@link rgbaToRgb}).
 *
 * @example framedRgb(rendered.pixels, 1080, 1080).subarray(0, 2).toString() // 'P6'
 */
export function framedRgb(rgba: Uint8Array, width: number, height: number): Buffer {
  const { framed, pixels } = allocFramedRgb(width, height)
  rgbaToRgb(rgba, pixels)
  return framed
}

/**
 * A new RGB buffer of `width × height` pixels behind its PPM header: `framed` is the whole (what
 * {@link encodePngFast} takes), `pixels` the rows, starting on a 4-byte boundary. The rows are not
 * initialised.
 *
 * @example allocFramedRgb(1080, 1080).pixels.length // 3499200
 */
export function allocFramedRgb(width: number, height: number): { framed: Buffer; pixels: Buffer } {
  const header = ppmHeader(width, height)
  const lead = (4 - (header.length % 4)) % 4
  const framed = Buffer.allocUnsafe(lead + header.length + width * height * 3).subarray(lead)
  framed.write(header, 'latin1')
  return { framed, pixels: framed.subarray(header.length) }
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
