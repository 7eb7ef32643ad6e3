/**
 * SVG → pixels (resvg) → PNG, JPEG or WebP. As measured in docs/benchmarks.md: resvg never scans
 * system fonts (satori already turned text into paths), PNG comes from resvg's own encoder
 * (fastest and smallest measured), and JPEG/WebP are encoded by sharp straight from
 * resvg's pixels, never through an intermediate PNG.
 *
 * @module render/encode
 */
import { Resvg } from '@resvg/resvg-js'
import sharp, { type Sharp } from 'sharp'
import { anchorLayers, needsAnchors } from './anchor-layers.js'
import { renderIsolated } from './isolated-resvg.js'

const RESVG_OPTIONS = { font: { loadSystemFonts: false }, fitTo: { mode: 'original' as const } }

/** Raster output formats. */
export type RasterFormat = 'png' | 'jpeg' | 'webp'

// WebP effort 1: 42 ms on the reference card, against 57 ms at effort 2 and ~86 ms at the
// default 4, for files 1 % larger than effort 2.
const WEBP_EFFORT = 1
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
    return encodePixels(sharp(pixels, { raw: { width, height, channels: 4 } }), format, quality, opaque)
  }
  const rendered = resvg.render()
  if (format === 'png') return rendered.asPng()
  const { width, height } = rendered
  return encodePixels(sharp(rendered.pixels, { raw: { width, height, channels: 4 } }), format, quality, opaque)
}

function encodePixels(image: Sharp, format: RasterFormat, quality: number, opaque: boolean): Promise<Uint8Array> {
  if (format === 'png') return image.png().toBuffer()
  if (format === 'jpeg') {
    // JPEG has no alpha: transparent areas become white, as in every image editor's export.
    return (opaque ? image.removeAlpha() : image.flatten({ background: '#ffffff' })).jpeg({ quality, mozjpeg: false, optimiseCoding: JPEG_OPTIMISE_CODING }).toBuffer()
  }
  return image.webp({ quality: WEBP_QUALITY, effort: WEBP_EFFORT }).toBuffer()
}
