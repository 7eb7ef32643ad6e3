/**
 * What an uploaded asset must be before it is stored (docs/assets.md, "Limits"): at most 10 MB,
 * a PNG, JPEG, WebP, GIF or SVG by its bytes (never by the declared type), within 40 million
 * pixels (checked against the header before any pixel is decoded: a small file that claims
 * 100 000 × 100 000 pixels is refused without decoding), decodable to its end, and for SVG
 * free of anything that runs or reaches out (scripts, event handlers, external references,
 * foreignObject, DTDs). Refusing such SVGs, rather than rewriting them, keeps what is stored
 * exactly what was uploaded.
 *
 * @module assets/validate-asset
 */
import type { Metadata } from 'sharp'
import { loadSharp } from '../_internal/load-sharp.js'
import { LithoError } from '../errors.js'
import { describeContent, sniffImageFormat } from '../render/images/sniff-format.js'

/** Largest asset accepted, in bytes: 10 MB (10 × 1024 × 1024). */
export const MAX_ASSET_BYTES = 10 * 1024 * 1024
/** Most pixels (width × height) of an asset: 40 MP, below the renderer's 50 MP decode budget. */
export const MAX_ASSET_PIXELS = 40_000_000
/** Largest SVG asset: the renderer parses SVG whole in memory and refuses larger ones (render/images/resize-image). */
export const MAX_SVG_ASSET_BYTES = 1_000_000

/** The content types an asset may have, by the format sniffed from its bytes. */
export const ASSET_CONTENT_TYPES = Object.freeze({ png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif', svg: 'image/svg+xml' } as const)

/** Why an upload was refused (`details.reason` of `ERR_ASSET_INVALID`). */
export type AssetRefusalReason = 'unsupported_format' | 'too_many_pixels' | 'unsafe_svg' | 'invalid_image' | 'empty'

/** What validation learnt of an accepted asset. */
export interface CheckedAsset {
  contentType: (typeof ASSET_CONTENT_TYPES)[keyof typeof ASSET_CONTENT_TYPES]
  width: number
  height: number
}

/**
 * Checks uploaded bytes and returns their real type and size.
 *
 * @throws LithoError `ERR_ASSET_TOO_LARGE` over {@link MAX_ASSET_BYTES} (or an SVG over
 * {@link MAX_SVG_ASSET_BYTES}); `ERR_ASSET_INVALID` with `details.reason` otherwise.
 * @example const { contentType, width, height } = await checkAsset(bytes, 'file')
 */
export async function checkAsset(bytes: Uint8Array, field = 'file'): Promise<CheckedAsset> {
  if (bytes.byteLength > MAX_ASSET_BYTES) throw tooLarge(field, bytes.byteLength, MAX_ASSET_BYTES)
  if (bytes.byteLength === 0) throw refuse(field, 'empty', 'is empty; expected a PNG, JPEG, WebP, GIF or SVG image')
  const format = sniffImageFormat(bytes)
  if (format === undefined || format === 'avif') {
    const found = format === 'avif' ? 'AVIF' : describeContent(bytes)
    throw refuse(field, 'unsupported_format', `is ${found}, not a PNG, JPEG, WebP, GIF or SVG image (the type is read from the bytes, not from the Content-Type)`, { found })
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (format === 'svg') {
    if (bytes.byteLength > MAX_SVG_ASSET_BYTES) throw tooLarge(field, bytes.byteLength, MAX_SVG_ASSET_BYTES, 'an SVG')
    const unsafe = findUnsafeSvg(buffer.toString('utf8'))
    if (unsafe !== undefined) throw refuse(field, 'unsafe_svg', `is an SVG with ${unsafe}, which assets may not contain; remove it and upload again`, { found: unsafe })
  }
  // Header only: no pixel is decoded before the pixel count is known.
  const sharp = await loadSharp()
  let metadata: Metadata
  try {
    metadata = await sharp(buffer, { limitInputPixels: false, pages: 1 }).metadata()
  } catch (error) {
    throw refuse(field, 'invalid_image', `could not be read as ${format.toUpperCase()}`, {}, error)
  }
  const { width, height } = metadata
  if (typeof width !== 'number' || typeof height !== 'number' || width < 1 || height < 1) throw refuse(field, 'invalid_image', `could not be read as ${format.toUpperCase()} (no dimensions)`)
  if (width * height > MAX_ASSET_PIXELS)
    throw refuse(field, 'too_many_pixels', `is ${width}×${height} pixels, more than the limit of ${MAX_ASSET_PIXELS} pixels`, { width, height, limit: MAX_ASSET_PIXELS })
  try {
    // A full decode (first frame) under the same limit, aborting on corrupt or truncated data,
    // so that what is stored is known to render. The output is a tiny thumbnail, thrown away.
    await sharp(buffer, { limitInputPixels: MAX_ASSET_PIXELS, failOn: 'error', pages: 1 }).resize(16, 16, { fit: 'inside' }).raw().toBuffer()
  } catch (error) {
    if (/pixel limit/i.test(String((error as Error)?.message))) throw refuse(field, 'too_many_pixels', `is larger than the limit of ${MAX_ASSET_PIXELS} pixels`, { limit: MAX_ASSET_PIXELS }, error)
    throw refuse(field, 'invalid_image', `could not be decoded as ${format.toUpperCase()} (corrupt or truncated)`, {}, error)
  }
  return { contentType: ASSET_CONTENT_TYPES[format], width, height }
}

// Each pattern is a plain alternation or a bounded class: linear on any input (the recheck test scans them).
const UNSAFE_SVG: ReadonlyArray<[RegExp, string]> = [
  [/<!(doctype|entity)/i, 'a DOCTYPE or ENTITY declaration'],
  [/<script[\s>/]/i, 'a <script> element'],
  [/<foreignobject[\s>/]/i, 'a <foreignObject> element'],
  [/<\?xml-stylesheet/i, 'an xml-stylesheet instruction'],
  [/<(iframe|embed|object|audio|video|handler|listener)[\s>/]/i, 'an element that loads or runs content'],
  [/@import/i, 'a CSS @import'],
  [/javascript:/i, 'a javascript: URL'],
]

/**
 * The first thing in an SVG's text that may run code or fetch something, or undefined. External
 * references: any `href` (or `xlink:href`) and any CSS `url(…)` whose target is not a fragment
 * of the same document (`#id`) or an embedded raster (`data:image/png|jpeg|gif|webp`).
 */
export function findUnsafeSvg(text: string): string | undefined {
  for (const [pattern, label] of UNSAFE_SVG) if (pattern.test(text)) return label
  if (hasEventHandler(text)) return 'an event handler attribute (on…=)'
  for (const match of text.matchAll(/href\s*=\s*["']?([^"'\s>]{0,64})/gi)) {
    if (!isLocalReference(match[1]!)) return `an external reference (href="${match[1]!.slice(0, 40)}")`
  }
  for (const match of text.matchAll(/url\(\s*["']?([^"')\s]{0,64})/gi)) {
    if (!isLocalReference(match[1]!)) return `an external reference (url(${match[1]!.slice(0, 40)}))`
  }
  return undefined
}

/**
 * An attribute named `on<letters>` (onload, onclick, …): `on` after whitespace, a quote or `/`,
 * letters, optional whitespace, then `=`. A scan rather than a regular expression, so its cost
 * is linear in the text whatever it holds.
 */
function hasEventHandler(text: string): boolean {
  const lower = text.toLowerCase()
  for (let at = lower.indexOf('on', 1); at !== -1; at = lower.indexOf('on', at + 2)) {
    if (!/[\s"'/]/.test(lower[at - 1]!)) continue
    let end = at + 2
    while (end < lower.length && lower[end]! >= 'a' && lower[end]! <= 'z') end++
    if (end === at + 2) continue
    while (end < lower.length && /\s/.test(lower[end]!)) end++
    if (lower[end] === '=') return true
  }
  return false
}

function isLocalReference(target: string): boolean {
  return target.startsWith('#') || /^data:image\/(png|jpeg|gif|webp)[;,]/i.test(target)
}

function refuse(field: string, reason: AssetRefusalReason, message: string, extra: Record<string, unknown> = {}, cause?: unknown): LithoError {
  return new LithoError('ERR_ASSET_INVALID', `${field}: ${message}`, { details: { field, reason, ...extra }, ...(cause === undefined ? {} : { cause }) })
}

function tooLarge(field: string, bytes: number, limit: number, what = 'the asset'): LithoError {
  return new LithoError('ERR_ASSET_TOO_LARGE', `${field}: ${what} is ${bytes} bytes, more than the limit of ${limit} bytes`, { details: { field, bytes, limit } })
}
