/**
 * SVG → pixels (resvg) → PNG, JPEG or WebP. As measured in docs/benchmarks.md: resvg never scans
 * system fonts (satori already turned text into paths); an opaque PNG is RGB through the fast
 * encoder of fast-png.ts, a transparent one comes from resvg's own encoder; JPEG/WebP are
 * encoded by sharp straight from resvg's pixels, never through an intermediate PNG.
 *
 * @module render/encode
 */
import { Resvg } from '@resvg/resvg-js'
import sharp, { type Sharp } from 'sharp'
import { anchorLayers, needsAnchors } from './anchor-layers.js'
import { renderIsolated } from './isolated-resvg.js'
import { opaquePngFast } from './fast-png.js'

const RESVG_OPTIONS = { font: { loadSystemFonts: false }, fitTo: { mode: 'original' as const } }

/** Raster output formats. */
export type RasterFormat = 'png' | 'jpeg' | 'webp'

// WebP effort 0 (libwebp's method 0): 37 ms on the reference card, against 50 ms at effort 1,
// 57 ms at effort 2 and ~86 ms at the default 4, for files about 11 % larger than effort 1
// (100 KB against 90 KB, still 40 % smaller than the JPEG at q80).
const WEBP_EFFORT = 0
// JPEG without Huffman-table optimisation (libjpeg-turbo's and libvips' own default):
// encoding the reference card takes 7 ms instead of 15 ms, for files ~8 % larger.
const JPEG_OPTIMISE_CODING = false
// `quality` applies to JPEG only (docs/http-reference.md); WebP uses a fixed quality that matches q80 JPEG.
const WEBP_QUALITY = 80

/**
 * Rasterises `svg` at its own size and encodes it. `opaque` says the canvas is fully
 * painted with opaque paint, so JPEG can drop the alpha channel instead of compositing.
 */
export async function rasterize(svg: string, format: RasterFormat, quality: number, opaque = false): Promise<Uint8Array> {
  const resvg = new Resvg(svg, RESVG_OPTIONS)
  // resvg aborts the whole process on a layer far off the canvas (anchor-layers.ts). An SVG
  // that could meet that is anchored and rendered in a child process, so that even an abort
  // the anchors do not prevent ends a child, not the server. Ordinary designs never do.
  if (needsAnchors(svg, resvg.getBBox(), resvg.width, resvg.height)) {
    const { pixels, width, height } = await renderIsolated(anchorLayers(svg), RESVG_OPTIONS)
    return encodePixels(sharp(pixels, rawPixels(width, height, opaque)), format, quality, opaque)
  }
  const rendered = resvg.render()
  if (format === 'png') return (opaque ? await opaquePngFast(rendered.pixels, rendered.width, rendered.height) : undefined) ?? rendered.asPng()
  const { width, height } = rendered
  return encodePixels(sharp(rendered.pixels, rawPixels(width, height, opaque)), format, quality, opaque)
}

/**
 * sharp's input options for resvg's pixels: RGBA, premultiplied by alpha as tiny-skia keeps
 * them. Read as straight alpha, a half-transparent red (128, 0, 0, 128) would come out dark red
 * in WebP and on JPEG's white. `opaque`: every pixel is opaque, where both readings agree, so
 * sharp is spared the pass that divides by alpha.
 *
 * @example sharp(rendered.pixels, rawPixels(1080, 1080, false)).webp()
 */
export function rawPixels(width: number, height: number, opaque: boolean): { raw: { width: number; height: number; channels: 4; premultiplied: boolean } } {
  return { raw: { width, height, channels: 4, premultiplied: !opaque } }
}

/**
 * Encodes pixels already in sharp: resvg's premultiplied RGBA, as the full path gives them, or
 * RGB (`hasAlpha` false) from an opaque layered canvas.
 */
export function encodePixels(image: Sharp, format: RasterFormat, quality: number, opaque: boolean, hasAlpha = true): Promise<Uint8Array> {
  if (format === 'png') return image.png().toBuffer()
  if (format === 'jpeg') {
    // JPEG has no alpha: transparent areas become white, as in every image editor's export.
    const flat = !hasAlpha ? image : opaque ? image.removeAlpha() : image.flatten({ background: '#ffffff' })
    return flat.jpeg({ quality, mozjpeg: false, optimiseCoding: JPEG_OPTIMISE_CODING }).toBuffer()
  }
  return image.webp({ quality: WEBP_QUALITY, effort: WEBP_EFFORT }).toBuffer()
}

/** A rectangle of rasterized pixels on the canvas: premultiplied RGBA, `width × height × 4` bytes. */
export interface RasterRegion {
  x: number
  y: number
  width: number
  height: number
  pixels: Buffer
}

/**
 * Rasterises `svg` to premultiplied RGBA without encoding. `crop` undefined: the whole canvas.
 * `crop` a margin in px: only the painted area (resvg's bounding box grown by the margin, whole
 * pixels on the canvas grid, so each pixel is the one a whole render draws there); `null` when
 * nothing is painted. `undefined` when the SVG needs the anchored, isolated path (see
 * anchor-layers.ts): the caller then renders the whole document as usual.
 *
 * @example rasterizeRegion(titleSvg, 2) // { x: 58, y: 638, width: 964, height: 164, pixels }
 */
export function rasterizeRegion(svg: string, crop?: number): RasterRegion | null | undefined {
  const resvg = new Resvg(svg, RESVG_OPTIONS)
  const box = resvg.getBBox()
  const { width, height } = resvg
  if (needsAnchors(svg, box, width, height)) return undefined
  let region = { x: 0, y: 0, width, height }
  if (crop !== undefined) {
    if (!box) return null
    const x0 = Math.max(0, Math.floor(box.x - crop))
    const y0 = Math.max(0, Math.floor(box.y - crop))
    const x1 = Math.min(width, Math.ceil(box.x + box.width + crop))
    const y1 = Math.min(height, Math.ceil(box.y + box.height + crop))
    if (x1 <= x0 || y1 <= y0) return null
    region = grow({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, width, height)
    // The crop is the canvas resvg sees now: the same check, in its coordinates.
    const within = { x: box.x - region.x, y: box.y - region.y, width: box.width, height: box.height }
    if (needsAnchors(svg, within, region.width, region.height)) return undefined
    Object.assign(box, region)
    resvg.cropByBBox(box)
  }
  return { ...region, pixels: resvg.render().pixels }
}

// needsAnchors always anchors canvases under 64 px a side: crops are grown to that when they can be.
const MIN_CROP_SIDE = 64

function grow(region: { x: number; y: number; width: number; height: number }, width: number, height: number): typeof region {
  const out = { ...region }
  if (out.width < MIN_CROP_SIDE && width >= MIN_CROP_SIDE) {
    out.x = Math.max(0, Math.min(out.x, width - MIN_CROP_SIDE))
    out.width = MIN_CROP_SIDE
  }
  if (out.height < MIN_CROP_SIDE && height >= MIN_CROP_SIDE) {
    out.y = Math.max(0, Math.min(out.y, height - MIN_CROP_SIDE))
    out.height = MIN_CROP_SIDE
  }
  return out
}
