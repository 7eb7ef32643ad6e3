// Fuzz: a sample of generated documents and overrides through the whole render (satori, resvg,
// sharp, pdfkit) in every format. A render either returns bytes of the asked format or is
// refused with a client error (bad design, override, variation, image or font); a failed
// render (ERR_RENDER_FAILED, a 500 over HTTP) or any other error is a bug.
import { writeFileSync } from 'node:fs'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { OUTPUT_FORMATS } from '../../src/render/types.js'
import { createRenderer } from '../../src/render/renderer.js'
import { fuzzedDocument, overrideInput, variationId } from './_arbitraries.js'
import { FULL, budget, report } from './_budget.js'
import { assertRefusal } from './_refusal.js'

const renderer = createRenderer()
afterAll(() => renderer.close())

/** The first bytes of each format. */
function sniff(bytes: Uint8Array): string {
  const b = Buffer.from(bytes)
  if (b[0] === 0x89 && b.subarray(1, 4).toString('latin1') === 'PNG') return 'png'
  if (b[0] === 0xff && b[1] === 0xd8) return 'jpeg'
  if (b.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp'
  if (b.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf'
  return 'unknown'
}

describe('fuzz: full render', () => {
  // Only under `pnpm fuzz` for now: resvg 2.6.2 still aborts the process on some rotated, clipped
  // images partly on the canvas (thx/resvg-js#413; the wholly off-canvas case is fixed in
  // build-tree), and an abort would take the whole `pnpm test` run down with it.
  it.skipIf(!FULL)('renders the asked format or refuses with a client error; never fails or hangs', async () => {
    const params = budget('sample', 24, 400)
    const counts = { rendered: 0, refused: 0 }
    const started = performance.now()
    await fc.assert(
      fc.asyncProperty(
        fuzzedDocument({ maxSize: 160, maxComponents: 4, offline: true }),
        overrideInput,
        variationId,
        fc.constantFrom(...OUTPUT_FORMATS),
        fc.integer({ min: 1, max: 100 }),
        async (raw, overrides, variation, format, quality) => {
          // A native abort (a resvg panic) kills the process before fast-check can report: FUZZ_LAST_CASE keeps the case.
          if (process.env.FUZZ_LAST_CASE) writeFileSync(process.env.FUZZ_LAST_CASE, JSON.stringify({ raw, overrides, variation, format, quality }))
          try {
            const result = await renderer.render(raw, { overrides: overrides as never, variation, format, quality })
            if (sniff(result.bytes) !== format) throw new Error(`asked for ${format}, got ${sniff(result.bytes)}`)
            counts.rendered++
          } catch (error) {
            assertRefusal(error, ['ERR_INVALID_DESIGN', 'ERR_INVALID_OVERRIDE', 'ERR_UNKNOWN_VARIATION', 'ERR_IMAGE_INVALID', 'ERR_IMAGE_FETCH'])
            counts.refused++
          }
        },
      ),
      // A hang fails the case rather than the whole run.
      { ...params, timeout: 30_000 },
    )
    report('render', params.numRuns, started, counts)
    expect(counts.rendered).toBeGreaterThan(params.numRuns / 5)
  })
})
