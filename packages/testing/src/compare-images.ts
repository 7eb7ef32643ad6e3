/**
 * Pixel comparison of rendered images, for golden-image tests: decode both with sharp,
 * compare with pixelmatch (anti-aliasing aware), and write a diff image on failure.
 *
 * @module compare-images
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import pixelmatch from 'pixelmatch'
import sharp from 'sharp'

/** Options of {@link compareImages}. */
export interface CompareOptions {
  /** Per-pixel colour distance (0..1) below which pixels count as equal. @default 0.1 */
  threshold?: number
}

/** The outcome of a comparison. */
export interface ImageComparison {
  width: number
  height: number
  /** Pixels that differ. */
  diffPixels: number
  /** diffPixels / all pixels. */
  ratio: number
  /** A PNG highlighting the differences in red. */
  diffPng: Buffer
}

async function rgba(image: Uint8Array): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

/**
 * Compares two encoded images (any format sharp reads) pixel by pixel.
 *
 * @throws Error when the sizes differ.
 */
export async function compareImages(actual: Uint8Array, expected: Uint8Array, options: CompareOptions = {}): Promise<ImageComparison> {
  const [a, b] = await Promise.all([rgba(actual), rgba(expected)])
  if (a.width !== b.width || a.height !== b.height) throw new Error(`image sizes differ: ${a.width}x${a.height}, expected ${b.width}x${b.height}`)
  const diff = Buffer.alloc(a.width * a.height * 4)
  const diffPixels = pixelmatch(a.data, b.data, diff, a.width, a.height, { threshold: options.threshold ?? 0.1 })
  const diffPng = await sharp(diff, { raw: { width: a.width, height: a.height, channels: 4 } }).png().toBuffer()
  return { width: a.width, height: a.height, diffPixels, ratio: diffPixels / (a.width * a.height), diffPng }
}

/** Options of {@link expectToMatchGolden}. */
export interface GoldenOptions extends CompareOptions {
  /** Largest share of differing pixels that still passes. @default 0.002 (0.2 %) */
  tolerance?: number
  /** Write the golden instead of comparing. @default process.env.LITHO_UPDATE_GOLDENS === '1' */
  update?: boolean
}

/**
 * Asserts that `actual` matches the golden PNG at `goldenPath` within a tolerance. A
 * missing golden is written (and the call passes) only when updating or outside CI; in CI
 * it fails, so a golden can never be created unseen. On failure the actual image and a
 * diff are written next to the golden under `__output__/`.
 *
 * @example
 * await expectToMatchGolden(result.bytes, new URL('./goldens/text.png', import.meta.url).pathname)
 */
export async function expectToMatchGolden(actual: Uint8Array, goldenPath: string, options: GoldenOptions = {}): Promise<void> {
  const update = options.update ?? process.env.LITHO_UPDATE_GOLDENS === '1'
  const png = await sharp(actual).png().toBuffer()
  if (update || (!existsSync(goldenPath) && !process.env.CI)) {
    mkdirSync(dirname(goldenPath), { recursive: true })
    writeFileSync(goldenPath, png)
    return
  }
  if (!existsSync(goldenPath)) throw new Error(`golden ${goldenPath} is missing; run the tests locally with LITHO_UPDATE_GOLDENS=1, look at it, and commit it`)
  const { readFile } = await import('node:fs/promises')
  const expected = await readFile(goldenPath)
  const result = await compareImages(png, expected, options)
  const tolerance = options.tolerance ?? 0.002
  if (result.ratio > tolerance) {
    const out = join(dirname(goldenPath), '__output__')
    mkdirSync(out, { recursive: true })
    const name = basename(goldenPath, '.png')
    writeFileSync(join(out, `${name}.actual.png`), png)
    writeFileSync(join(out, `${name}.diff.png`), result.diffPng)
    throw new Error(
      `${name}: ${result.diffPixels} pixels (${(result.ratio * 100).toFixed(3)} %) differ from the golden, more than ${(tolerance * 100).toFixed(3)} %; see ${out}`,
    )
  }
}
