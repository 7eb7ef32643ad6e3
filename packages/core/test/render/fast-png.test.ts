import { describe, expect, it } from 'vitest'
import { framedRgb, ppmHeader, rgbaToRgb } from '../../src/render/fast-png.js'

/** The plain byte loop: what rgbaToRgb must give. */
function reference(rgba: Uint8Array): Buffer {
  const out = Buffer.alloc((rgba.length / 4) * 3)
  for (let s = 0, d = 0; s < rgba.length; s += 4, d += 3) out.set(rgba.subarray(s, s + 3), d)
  return out
}

function randomPixels(count: number, seed: number): Buffer {
  const bytes = Buffer.alloc(count * 4)
  let x = seed
  for (let i = 0; i < bytes.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    bytes[i] = x >>> 24
  }
  return bytes
}

describe('rgbaToRgb', () => {
  it('drops alpha exactly for every pixel count around the four-pixel step', () => {
    for (let count = 0; count <= 13; count++) {
      const rgba = randomPixels(count, count + 1)
      expect(rgbaToRgb(rgba, Buffer.alloc(count * 3))).toEqual(reference(rgba))
    }
  })

  it('gives the same bytes when either buffer is off a 4-byte boundary (the byte loop)', () => {
    const rgba = randomPixels(1001, 7)
    const source = Buffer.alloc(rgba.length + 1)
    rgba.copy(source, 1)
    const out = Buffer.alloc(1001 * 3 + 3)
    expect(rgbaToRgb(source.subarray(1), Buffer.alloc(1001 * 3))).toEqual(reference(rgba))
    expect(Buffer.from(rgbaToRgb(rgba, out.subarray(3)))).toEqual(reference(rgba))
  })

  it('keeps 255 and 0 channels apart (no sign or shift spill between bytes)', () => {
    const rgba = Buffer.from([255, 0, 255, 255, 0, 255, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255])
    expect([...rgbaToRgb(rgba, Buffer.alloc(12))]).toEqual([255, 0, 255, 0, 255, 0, 255, 255, 255, 0, 0, 0])
  })
})

describe('framedRgb', () => {
  it('puts the PPM header in front of the RGB rows, the rows on a 4-byte boundary', () => {
    const rgba = randomPixels(6 * 5, 3)
    const framed = framedRgb(rgba, 6, 5)
    const header = ppmHeader(6, 5)
    expect(framed.subarray(0, header.length).toString('latin1')).toBe(header)
    expect((framed.byteOffset + header.length) % 4).toBe(0)
    expect(framed.subarray(header.length)).toEqual(reference(rgba))
  })
})
