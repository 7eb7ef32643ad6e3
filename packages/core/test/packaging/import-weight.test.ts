// `import '@litho/core'` must stay light: the render stack (satori, resvg, sharp, pdfkit, the code
// generators), the pool (piscina) and the HTTP client (undici, ofetch) load on first use
// (docs/performance.md, "Cold start"). A fresh process records every module the import resolves
// (fixtures/first-render.mjs), then renders once, which must load the stack and produce a JPEG.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url))
const script = fileURLToPath(new URL('fixtures/first-render.mjs', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'litho-core-import-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The packages that make up the render stack, the pool and the HTTP client. */
const HEAVY = ['sharp', 'satori', '@resvg/resvg-js', 'pdfkit', 'svg-to-pdfkit', 'bwip-js', 'qrcode', 'piscina', 'undici', 'ofetch', 'fontkit']
/** The packages under node_modules that `urls` come from, e.g. `zod`, `@resvg/resvg-js`. */
const packagesOf = (urls: string[]): string[] =>
  [...new Set(urls.flatMap((url) => /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []))].sort()

let run: { importUrls: string[]; renderUrls: string[]; contentType: string; head: number[]; length: number }
beforeAll(async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, join(dir, 'urls.txt')], { cwd: repoRoot, timeout: 120_000 })
  run = JSON.parse(stdout) as typeof run
}, 130_000)

describe("@litho/core's root entry", () => {
  it('loads none of the render stack, the pool or the HTTP client when imported', () => {
    const loaded = packagesOf(run.importUrls)
    expect(loaded.filter((name) => HEAVY.includes(name))).toEqual([])
    // Nor what only a fetch or a webhook needs: each cost the import ~10-20 ms (docs/performance.md, "Cold start").
    expect(loaded.filter((name) => ['ipaddr.js', 'standardwebhooks'].includes(name))).toEqual([])
    // Nor the pipeline's own modules, nor the built-in fonts.
    expect(run.importUrls.filter((url) => /\/src\/render\/(render-document|stack|encode|layout-pass|fonts\/)/.test(url))).toEqual([])
    expect(loaded.filter((name) => name.startsWith('@fontsource/'))).toEqual([])
  })

  it('still renders: the first render loads the stack and returns a JPEG', () => {
    expect(packagesOf(run.renderUrls)).toEqual(expect.arrayContaining(['sharp', 'satori', '@resvg/resvg-js', 'qrcode']))
    // pdfkit waits for the first PDF: a raster render does not load it.
    expect(packagesOf(run.renderUrls)).not.toContain('pdfkit')
    // Nor bwip-js (2 MB of code): it waits for the first barcode, and this card has none.
    expect(packagesOf(run.renderUrls)).not.toContain('bwip-js')
    expect(run.contentType).toBe('image/jpeg')
    expect(run.head).toEqual([0xff, 0xd8, 0xff])
    expect(run.length).toBeGreaterThan(1000)
  })
})
