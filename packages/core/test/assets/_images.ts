// Images for the asset tests, made with sharp or written byte by byte where sharp cannot make
// them (a PNG whose header lies about its size, a JPEG padded to an exact length).
import { randomBytes } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import sharp from 'sharp'

/** A solid PNG of `width` × `height`. */
export function solidPng(width: number, height: number, colour = '#e11d48'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png({ compressionLevel: 1 }).toBuffer()
}

/** A noisy PNG (so that resizing shows), `width` × `height`. */
export function noisyPng(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919 + (i >> 5) * 31) & 0xff
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer()
}

/** A PNG of random pixels: it barely compresses, so its size is about width × height × 3 bytes. */
export function randomPng(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png().toBuffer()
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(bytes: Buffer): number {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])))
  return Buffer.concat([head, data, crc])
}

/**
 * A decompression bomb: a few hundred bytes of PNG whose header says `width` × `height`
 * (1-bit grey), with rows of zeros that deflate to almost nothing.
 */
export function pngBomb(width = 100_000, height = 100_000): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([1, 0, 0, 0, 0], 8)
  // Only the first rows are written: enough for a decoder to start, and to be refused before.
  const rows = Buffer.alloc((Math.ceil(width / 8) + 1) * 16)
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}

/** A valid JPEG of exactly `total` bytes: a small image with COM segments after SOI to make up the size. */
export async function jpegOfSize(total: number): Promise<Buffer> {
  const image = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#2563eb' } }).jpeg().toBuffer()
  let missing = total - image.length
  if (missing < 0) throw new Error('too small')
  const segments: Buffer[] = []
  while (missing > 0) {
    // A segment is FF FE, a 2-byte length (counting itself) and up to 65533 bytes; at least 4 bytes in all.
    let size = Math.min(missing, 65_537)
    if (missing - size > 0 && missing - size < 4) size -= 4
    const body = size - 4
    const segment = Buffer.alloc(size, 0x20)
    segment[0] = 0xff
    segment[1] = 0xfe
    segment.writeUInt16BE(body + 2, 2)
    segments.push(segment)
    missing -= size
  }
  const out = Buffer.concat([image.subarray(0, 2), ...segments, image.subarray(2)])
  if (out.length !== total) throw new Error(`made ${out.length} bytes, wanted ${total}`)
  return out
}

/** A small SVG, with `extra` inside the root element. */
export function svg(extra = ''): Buffer {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><rect width="40" height="20" fill="#16a34a"/>${extra}</svg>`)
}
