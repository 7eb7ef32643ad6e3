import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, describe, expect, it } from 'vitest'
import { compareImages, expectToMatchGolden, syntheticPhoto } from '../src/index.js'

const square = (color: string, size = 40, dot?: { x: number; y: number; color: string }): Promise<Buffer> => {
  const composite = dot ? [{ input: { create: { width: 4, height: 4, channels: 4 as const, background: dot.color } }, left: dot.x, top: dot.y }] : []
  return sharp({ create: { width: size, height: size, channels: 4, background: color } }).composite(composite).png().toBuffer()
}

const ci = process.env.CI
afterEach(() => {
  if (ci === undefined) delete process.env.CI
  else process.env.CI = ci
})

describe('compareImages', () => {
  it('compare › identical images have no differing pixels', async () => {
    const a = await square('#336699')
    expect((await compareImages(a, a)).diffPixels).toBe(0)
  })

  it('compare › counts the pixels that differ', async () => {
    const result = await compareImages(await square('#336699', 40, { x: 10, y: 10, color: '#ff0000' }), await square('#336699'))
    expect(result.diffPixels).toBe(16)
    expect(result.ratio).toBeCloseTo(16 / 1600)
  })

  it('compare › different sizes are an error', async () => {
    await expect(compareImages(await square('#000', 10), await square('#000', 12))).rejects.toThrow(/sizes differ: 10x10, expected 12x12/)
  })
})

describe('expectToMatchGolden', () => {
  const dir = mkdtempSync(join(tmpdir(), 'litho-golden-'))

  it('golden › passes within the tolerance and fails beyond it, writing a diff', async () => {
    const golden = join(dir, 'a.png')
    writeFileSync(golden, await square('#336699', 40))
    await expectToMatchGolden(await square('#336699', 40, { x: 0, y: 0, color: '#ff0000' }), golden, { tolerance: 0.02 })
    await expect(expectToMatchGolden(await square('#336699', 40, { x: 0, y: 0, color: '#ff0000' }), golden, { tolerance: 0.001 })).rejects.toThrow(/a: 16 pixels \(1\.000 %\) differ/)
    expect(existsSync(join(dir, '__output__', 'a.diff.png'))).toBe(true)
  })

  it('golden › a missing golden fails in CI instead of being written unseen', async () => {
    process.env.CI = 'true'
    await expect(expectToMatchGolden(await square('#000'), join(dir, 'missing.png'))).rejects.toThrow(/golden .*missing\.png is missing/)
    expect(existsSync(join(dir, 'missing.png'))).toBe(false)
  })
})

describe('syntheticPhoto', () => {
  it('fixtures › the synthetic photo is a deterministic JPEG of the asked size', async () => {
    const a = await syntheticPhoto(320, 240, 3)
    const meta = await sharp(a).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 240])
  })
})
