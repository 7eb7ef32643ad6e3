/**
 * Compositing of rasterized layers and encoding of the result. Layers are premultiplied RGBA,
 * as resvg draws them, and are laid one over another with the same source-over rule resvg
 * uses when it paints them in one pass; only the rectangle a layer covers is touched.
 *
 * @module render/layers/composite
 */
import sharp from 'sharp'
import { encodePixels, rawPixels, type RasterFormat, type RasterRegion } from '../encode.js'

// Canvases to composite into, by size in bytes, reused from render to render: a fresh 4.7 MB
// Buffer per render of a 1080x1080 card leaves garbage that the GC reclaims late, which showed
// as peak RSS. One is kept per size: a pool worker renders one document at a time.
const spare = new Map<number, Buffer[]>()
const SPARES_PER_SIZE = 1

/** A canvas of `bytes` bytes holding a copy of `base` (or transparent); give it back with {@link releaseCanvas}. */
export function takeCanvas(bytes: number, base: Buffer | undefined): Buffer {
  const canvas = spare.get(bytes)?.pop() ?? Buffer.allocUnsafe(bytes)
  if (base) base.copy(canvas)
  else canvas.fill(0)
  return canvas
}

/** Returns a canvas from {@link takeCanvas} once nothing reads it any more. */
export function releaseCanvas(canvas: Buffer): void {
  const list = spare.get(canvas.length) ?? []
  if (list.length >= SPARES_PER_SIZE) return
  list.push(canvas)
  spare.set(canvas.length, list)
}

/** `round(v / 255)` for 0 ≤ v ≤ 255², exact. */
const div255 = (v: number): number => {
  const t = v + 128
  return (t + (t >> 8)) >> 8
}

/**
 * Paints `layer` over `canvas` (premultiplied RGBA of `canvasWidth` pixels a row), in place.
 *
 * @example paintOver(canvas, 1080, { x: 60, y: 640, width: 960, height: 160, pixels })
 */
export function paintOver(canvas: Buffer, canvasWidth: number, layer: RasterRegion): void {
  const { pixels, width, height } = layer
  for (let row = 0; row < height; row++) {
    let s = row * width * 4
    let d = ((layer.y + row) * canvasWidth + layer.x) * 4
    for (let col = 0; col < width; col++, s += 4, d += 4) {
      const alpha = pixels[s + 3]!
      if (alpha === 0) continue
      if (alpha === 255) {
        canvas[d] = pixels[s]!
        canvas[d + 1] = pixels[s + 1]!
        canvas[d + 2] = pixels[s + 2]!
        canvas[d + 3] = 255
        continue
      }
      const keep = 255 - alpha
      canvas[d] = pixels[s]! + div255(canvas[d]! * keep)
      canvas[d + 1] = pixels[s + 1]! + div255(canvas[d + 1]! * keep)
      canvas[d + 2] = pixels[s + 2]! + div255(canvas[d + 2]! * keep)
      canvas[d + 3] = alpha + div255(canvas[d + 3]! * keep)
    }
  }
}

// PNG from composited pixels: zlib level 2 without adaptive filtering. Measured on the
// reference card (docs/performance.md): 23 ms and 1185 KB, against 29 ms and 1161 KB with
// adaptive filtering at level 1, 45 ms at libvips' default level 6, and resvg's own encoder
// (25 ms, 937 KB), which only encodes what resvg itself drew.
const PNG_OPTIONS = { compressionLevel: 2, adaptiveFiltering: false, palette: false } as const

/**
 * Encodes a composited canvas. `opaque`: every pixel is opaque (an opaque background), so PNG
 * and JPEG drop the alpha channel.
 *
 * @example await encodeCanvas(canvas, 1080, 1080, 'jpeg', 80, true) // JPEG bytes
 */
export function encodeCanvas(pixels: Buffer, width: number, height: number, format: RasterFormat, quality: number, opaque: boolean): Promise<Uint8Array> {
  const image = sharp(pixels, rawPixels(width, height, opaque))
  if (format === 'png') return (opaque ? image.removeAlpha() : image).png(PNG_OPTIONS).toBuffer()
  return encodePixels(image, format, quality, opaque)
}
