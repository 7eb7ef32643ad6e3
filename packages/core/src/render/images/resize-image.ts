/**
 * Decodes untrusted image bytes with sharp and resizes them once to their box, within a pixel
 * budget checked before any pixel is decoded.
 *
 * @module render/images/resize-image
 */
import type { Metadata, SharpOptions } from 'sharp'
import { loadSharp } from '../../_internal/load-sharp.js'
import type { PreparedImage } from './image-loader.js'
import { planResize, type NormalizedBox } from './plan-resize.js'
import type { ImageFormat } from './sniff-format.js'

/** Why an image was refused after it was fetched. */
export type ImageFailureReason = 'unsupported_format' | 'too_many_pixels' | 'too_large' | 'unsafe_svg' | 'invalid_image'

/** Thrown by {@link resizeImage}; the loader turns it into an `ERR_IMAGE_INVALID` LithoError. */
export class ImageRefusal extends Error {
  override readonly name = 'ImageRefusal'
  constructor(
    readonly reason: ImageFailureReason,
    /** Completes "<source> …", e.g. "is 65535×65535 pixels, more than the limit of 50000000". */
    message: string,
    readonly extra: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

// SVG is parsed as a whole in memory by librsvg, and its cost grows with the document rather
// than its pixel size; no design needs a larger vector file (docs/security.md#hostile-input).
const MAX_SVG_BYTES = 1_000_000
// sharp renders SVG at 72 dpi as 1 px per user unit; other densities scale from there.
const SVG_BASE_DENSITY = 72
// sharp's accepted density range.
const MIN_DENSITY = 1
const MAX_DENSITY = 100_000

/**
 * Decodes `bytes` (already sniffed as `format`), orients, crops and resizes them to `box`, and
 * encodes JPEG (opaque) or PNG (with alpha) as a data: URI.
 *
 * @example
 * await resizeImage(pngBytes, 'png', normalizeBox({ width: 300, height: 200, fit: 'cover' }), 50_000_000)
 */
export async function resizeImage(bytes: Buffer, format: ImageFormat, box: NormalizedBox, maxPixels: number): Promise<PreparedImage> {
  // Buffers only: a string given to sharp() is a filesystem path (docs/security.md#hostile-input).
  if (!Buffer.isBuffer(bytes)) throw new TypeError('resizeImage expects a Buffer')

  const options: SharpOptions = {
    // Checked by libvips against the header before decoding; we also check it ourselves below
    // so the refusal carries the real dimensions.
    limitInputPixels: maxPixels,
    // Abort on corrupt or truncated data rather than rendering a half-grey image.
    failOn: 'error',
    // First frame only: animated outputs are not produced, and decoding every frame of a GIF
    // multiplies memory by the frame count.
    pages: 1,
    page: 0,
  }

  if (format === 'svg') options.density = await chooseSvgDensity(bytes, box, options)

  const metadata = await readMetadata(bytes, options, format)
  const pixels = metadata.width * metadata.height
  if (pixels > maxPixels) {
    throw new ImageRefusal('too_many_pixels', `is ${metadata.width}×${metadata.height} pixels, more than the limit of ${maxPixels}`, {
      width: metadata.width,
      height: metadata.height,
      limit: maxPixels,
    })
  }

  // EXIF orientations 5-8 swap the axes; the crop is planned on the image as displayed.
  const oriented = (metadata.orientation ?? 1) >= 5 ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height }
  const plan = planResize(oriented, box)

  const sharp = await loadSharp()
  let pipeline = sharp(bytes, options).rotate()
  if (plan.extract !== undefined) pipeline = pipeline.extract(plan.extract)
  pipeline = pipeline.resize(plan.pixelWidth, plan.pixelHeight, { fit: 'fill' }).toColourspace('srgb')
  const withAlpha = metadata.hasAlpha === true
  // The result is decoded again by resvg straight away, so encoding speed matters more than
  // size: JPEG q90 without mozjpeg or optimised Huffman tables, PNG at zlib level 1.
  pipeline = withAlpha
    ? pipeline.png({ compressionLevel: 1, adaptiveFiltering: false, palette: false })
    : pipeline.jpeg({ quality: 90, mozjpeg: false, optimiseCoding: false })

  let output: Buffer
  try {
    output = await pipeline.toBuffer()
  } catch (error) {
    throw decodeFailure(error, format)
  }
  const mime = withAlpha ? 'image/png' : 'image/jpeg'
  return {
    dataUri: `data:${mime};base64,${output.toString('base64')}`,
    width: plan.width,
    height: plan.height,
    pixelWidth: plan.pixelWidth,
    pixelHeight: plan.pixelHeight,
    mime,
  }
}

/** Checks an SVG's text and picks the density that rasterizes it at the size the box needs. */
async function chooseSvgDensity(bytes: Buffer, box: NormalizedBox, options: SharpOptions): Promise<number> {
  if (bytes.length > MAX_SVG_BYTES) {
    throw new ImageRefusal('too_large', `is an SVG of ${bytes.length} bytes, more than the limit of ${MAX_SVG_BYTES}`, { limit: MAX_SVG_BYTES })
  }
  // A DTD is where entity expansion (billion laughs) and external entities
  // (SYSTEM "file:///etc/passwd") live; SVG never needs one. librsvg, given a buffer with no
  // base URL, does not load external files or URLs, so <image href> cannot reach the network.
  if (/<!DOCTYPE|<!ENTITY/i.test(bytes.toString('utf8'))) {
    throw new ImageRefusal('unsafe_svg', 'is an SVG with a DOCTYPE or ENTITY declaration, which is not allowed')
  }
  const natural = await readMetadata(bytes, { ...options, density: SVG_BASE_DENSITY }, 'svg')
  const xScale = box.pixelWidth / natural.width
  const yScale = box.pixelHeight / natural.height
  // cover and fill need both axes at least at box size; contain needs the tighter one.
  const factor = box.fit === 'contain' ? Math.min(xScale, yScale) : Math.max(xScale, yScale)
  return Math.min(MAX_DENSITY, Math.max(MIN_DENSITY, SVG_BASE_DENSITY * factor))
}

async function readMetadata(bytes: Buffer, options: SharpOptions, format: ImageFormat): Promise<Metadata & { width: number; height: number }> {
  let metadata: Metadata
  try {
    // metadata() reads headers only, no pixels. sharp would apply limitInputPixels here too and
    // refuse with a generic message; lifting it lets our own check report the real dimensions.
    const sharp = await loadSharp()
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata()
  } catch (error) {
    throw decodeFailure(error, format)
  }
  const { width, height } = metadata
  if (typeof width !== 'number' || typeof height !== 'number' || width < 1 || height < 1) {
    throw new ImageRefusal('invalid_image', `could not be decoded as ${format.toUpperCase()} (no dimensions)`)
  }
  return { ...metadata, width, height }
}

function decodeFailure(error: unknown, format: ImageFormat): ImageRefusal {
  const message = error instanceof Error ? error.message : ''
  if (/pixel limit/i.test(message)) {
    return new ImageRefusal('too_many_pixels', 'is larger than the pixel limit', {}, { cause: error })
  }
  // libvips' message stays in `cause` for logs; callers get the stable part.
  return new ImageRefusal('invalid_image', `could not be decoded as ${format.toUpperCase()}`, {}, { cause: error })
}
