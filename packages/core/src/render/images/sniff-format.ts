/**
 * Decides an image's format from its leading bytes, against an allowlist. The Content-Type
 * header and the URL's extension are never trusted: libvips picks its loader from the bytes, so
 * the bytes are what must be checked, and formats outside the list (TIFF, PSD, PDF, FITS,
 * MATLAB…) go through loaders that were not hardened against hostile input (docs/security.md#hostile-input).
 *
 * @module render/images/sniff-format
 */

/** The formats the image loader accepts. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'svg'

// imgproxy's IMGPROXY_MAX_SVG_CHECK_BYTES: an SVG root element appears well before this, after at
// most an XML declaration, comments and whitespace.
const SVG_SNIFF_BYTES = 32 * 1024

/**
 * The allowlisted format of `bytes`, or undefined.
 *
 * @example
 * sniffImageFormat(pngBytes) // 'png'
 * sniffImageFormat(Buffer.from('<html>')) // undefined
 */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (startsWith(buffer, [0xff, 0xd8, 0xff])) return 'jpeg'
  if (startsWith(buffer, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
  const ascii = buffer.toString('latin1', 0, 16)
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'gif'
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'webp'
  if (isAvif(buffer)) return 'avif'
  if (isSvg(buffer)) return 'svg'
  return undefined
}

/** A short human label for what `bytes` look like, for "not a supported image (found …)". */
export function describeContent(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buffer.length === 0) return 'an empty body'
  const ascii = buffer.toString('latin1', 0, 16)
  if (ascii.startsWith('II*\0') || ascii.startsWith('MM\0*')) return 'TIFF'
  if (ascii.startsWith('8BPS')) return 'PSD'
  if (ascii.startsWith('%PDF')) return 'PDF'
  if (ascii.startsWith('BM')) return 'BMP'
  if (ascii.startsWith('SIMPLE  =')) return 'FITS'
  if (ascii.startsWith('MATLAB')) return 'MATLAB data'
  if (startsWith(buffer, [0x1f, 0x8b])) return 'gzip data'
  if (ascii.slice(4, 8) === 'ftyp') return 'HEIF/ISO media'
  const head = buffer.toString('utf8', 0, 1024).replace(/^\uFEFF/, '').trimStart().toLowerCase()
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || /^<(head|body|script|div|p|h1)\b/.test(head)) return 'HTML'
  if (head.startsWith('<')) return 'XML or markup'
  if (head.startsWith('{') || head.startsWith('[')) return 'JSON'
  // Mostly printable bytes: text of some kind.
  const sample = buffer.subarray(0, 512)
  const printable = sample.filter((byte) => byte === 9 || byte === 10 || byte === 13 || (byte >= 32 && byte < 127)).length
  return printable / sample.length > 0.95 ? 'text' : 'unrecognised binary data'
}

function startsWith(buffer: Buffer, signature: number[]): boolean {
  return buffer.length >= signature.length && signature.every((byte, index) => buffer[index] === byte)
}

/** An ISO-BMFF `ftyp` box whose major or compatible brands include AVIF (not HEIC or other HEIF). */
function isAvif(buffer: Buffer): boolean {
  if (buffer.length < 16 || buffer.toString('latin1', 4, 8) !== 'ftyp') return false
  const boxSize = buffer.readUInt32BE(0)
  const end = Math.min(boxSize, buffer.length, 256)
  if (boxSize < 16) return false
  const brands = [buffer.toString('latin1', 8, 12)]
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(buffer.toString('latin1', offset, offset + 4))
  return brands.includes('avif') || brands.includes('avis')
}

/**
 * An XML document whose root element is `<svg`, after an optional prolog, comments and DOCTYPE.
 * A linear scan rather than one regular expression: nested lazy groups over 32 KB of attacker
 * text backtrack exponentially.
 */
function isSvg(buffer: Buffer): boolean {
  const head = buffer.toString('utf8', 0, SVG_SNIFF_BYTES).replace(/^\uFEFF/, '')
  let index = 0
  for (;;) {
    while (index < head.length && /\s/.test(head[index]!)) index++
    if (head.startsWith('<?', index)) index = endOf(head, '?>', index)
    else if (head.startsWith('<!--', index)) index = endOf(head, '-->', index)
    // The DOCTYPE is skipped only so that such files are recognised as SVG and then refused with
    // a precise reason (no DTDs), not as an unknown format.
    else if (head.slice(index, index + 9).toUpperCase() === '<!DOCTYPE') index = endOfDoctype(head, index)
    else break
    if (index === -1) return false
  }
  return /^<svg[\s>/]/i.test(head.slice(index, index + 5))
}

function endOf(text: string, terminator: string, from: number): number {
  const found = text.indexOf(terminator, from)
  return found === -1 ? -1 : found + terminator.length
}

function endOfDoctype(text: string, from: number): number {
  const close = text.indexOf('>', from)
  const subset = text.indexOf('[', from)
  // An internal subset ([ … ]) may contain '>' of its own declarations.
  if (subset !== -1 && (close === -1 || subset < close)) {
    const subsetEnd = text.indexOf(']', subset)
    return subsetEnd === -1 ? -1 : endOf(text, '>', subsetEnd)
  }
  return close === -1 ? -1 : close + 1
}
