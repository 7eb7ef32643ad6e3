/**
 * The fast lane for glyph outlines in PDFs (render/pdf-paths): every golden scene and reference
 * design gives the same PDF bytes through it as through svg-to-pdfkit alone, and so do
 * generated outlines; paths whose styles could depend on their outline keep svg-to-pdfkit's way.
 */
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DesignDocumentInput } from '../../src/index.js'
import { layoutPass, prepareDocument } from '../../src/render/layout-pass.js'
import { adaptSvgForPdf, svgToPdf } from '../../src/render/pdf.js'
import { fastGlyphPaths, pathOperators } from '../../src/render/pdf-paths.js'
import { createRenderContext } from '../../src/render/renderer.js'
import { resolveDocument } from '../../src/render/resolve-document.js'
import { referenceDesigns } from '../../../testing/src/index.js'
import { fuzzedDocument, overrideInput } from '../fuzz/_arbitraries.js'
import { budget } from '../fuzz/_budget.js'
import { scenes } from './scenes.js'

const cases: Array<[string, DesignDocumentInput, { variation?: string; overrides?: Record<string, unknown> }]> = []
beforeAll(async () => {
  for (const [name, scene] of Object.entries(await scenes())) cases.push([`golden ${name}`, scene.design, scene.options ?? {}])
  const reference = await referenceDesigns()
  cases.push(['reference card1080', reference.card1080, {}], ['reference card1080 story', reference.card1080, { variation: 'story' }], ['reference preview1200', reference.preview1200, {}])
})

/** The SVG satori lays out for a design, as the PDF path gets it. */
async function layoutSvg(design: DesignDocumentInput, options: { variation?: string; overrides?: Record<string, unknown> }): Promise<{ svg: string; width: number; height: number }> {
  const resolved = resolveDocument(design, options)
  const prepared = await prepareDocument(resolved, createRenderContext({ layerCacheBytes: 0 }))
  const layout = await layoutPass(resolved, resolved.document.components, resolved.document.background, prepared)
  return { svg: layout.svg, width: resolved.width, height: resolved.height }
}

const pdfOf = async (svg: string, fastGlyphs: boolean, size = 200): Promise<Buffer> => Buffer.from(await svgToPdf(svg, size, size, { fastGlyphs }))

describe('pdf glyph fast lane › same bytes as svg-to-pdfkit alone', () => {
  it('pdf › every golden scene and reference design gives identical PDF bytes with and without the fast lane', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(13)
    let taken = 0
    for (const [name, design, options] of cases) {
      const { svg, width, height } = await layoutSvg(design, options)
      taken += fastGlyphPaths(adaptSvgForPdf(svg))?.ops.length ?? 0
      const [fast, alone] = [Buffer.from(await svgToPdf(svg, width, height)), Buffer.from(await svgToPdf(svg, width, height, { fastGlyphs: false }))]
      expect(fast.equals(alone), name).toBe(true)
    }
    // Not vacuous: the scenes' texts went through the fast lane.
    expect(taken).toBeGreaterThan(20)
  })

  it('pdf › the fast lane keeps its bytes when its cache answers (a second render of the same card)', async () => {
    const { svg } = await layoutSvg(cases.find(([name]) => name === 'reference card1080')![1], {})
    const [first, second, alone] = [await svgToPdf(svg, 1080, 1080), await svgToPdf(svg, 1080, 1080), await svgToPdf(svg, 1080, 1080, { fastGlyphs: false })]
    expect(Buffer.from(first).equals(Buffer.from(alone))).toBe(true)
    expect(Buffer.from(second).equals(Buffer.from(alone))).toBe(true)
  })

  it('pdf › generated outlines (M, L, H, V, Q, C, Z, absolute and relative, with commas, exponents, implicit repeats, zero-length sub-paths) give identical bytes', async () => {
    const num = fc.oneof(fc.integer({ min: -50, max: 250 }).map(String), fc.double({ min: -50, max: 250, noNaN: true }).map((n) => n.toFixed(3)), fc.constantFrom('1e2', '.5', '5.', '-0', '+3', '1.5E-1'))
    const sep = fc.constantFrom(' ', ',', ' , ', '', '\n')
    const pair = fc.tuple(num, sep, num).map(([a, s, b]) => `${a}${s === '' ? ' ' : s}${b}`)
    const command = fc.oneof(
      fc.array(pair, { minLength: 1, maxLength: 3 }).map((ps) => `M${ps.join(' ')}`),
      fc.array(pair, { minLength: 1, maxLength: 2 }).map((ps) => `L${ps.join(' ')}`),
      fc.tuple(pair, pair).map(([a, b]) => `Q${a} ${b}`),
      fc.tuple(pair, pair, pair).map(([a, b, c]) => `C${a} ${b} ${c}`),
      fc.constant('Z'),
      fc.constant('M10 10Z'),
      fc.tuple(fc.constantFrom('m', 'l', 'q', 'c'), fc.array(pair, { minLength: 3, maxLength: 3 }), fc.integer({ min: 1, max: 3 })).map(([c, ps, k]) => `${c}${ps.slice(0, c === 'c' ? 3 : c === 'q' ? 2 : k).join(' ')}`),
      fc.tuple(fc.constantFrom('H', 'V', 'h', 'v'), num).map(([c, n]) => `${c}${n}`),
      fc.constant('z'),
    )
    let taken = 0
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
        const svg = `<svg width="200" height="200" viewBox="0 0 200 200" xmlns="http://www.w3.org/2000/svg"><g><path fill="#336699" d="${commands.join(' ')}"/></g></svg>`
        if (fastGlyphPaths(svg)) taken++
        expect((await pdfOf(svg, true)).equals(await pdfOf(svg, false))).toBe(true)
      }),
      { numRuns: 150 },
    )
    expect(taken).toBeGreaterThan(75)
  })
})

describe('pdf glyph fast lane › fuzzed documents', () => {
  it('pdf › generated documents and overrides give identical PDF bytes with and without the fast lane', async () => {
    const params = budget('sample', 30, 300)
    let compared = 0
    await fc.assert(
      fc.asyncProperty(fuzzedDocument({ maxSize: 160, maxComponents: 5, offline: true }), overrideInput, async (raw, overrides) => {
        let laid: { svg: string; width: number; height: number }
        try {
          laid = await layoutSvg(raw as DesignDocumentInput, { overrides: overrides as Record<string, unknown> })
        } catch {
          return // refused before drawing: nothing to compare
        }
        const { svg, width, height } = laid
        const alone = await svgToPdf(svg, width, height, { fastGlyphs: false }).then((b) => Buffer.from(b), (error: unknown) => error)
        if (!Buffer.isBuffer(alone)) return void (await expect(svgToPdf(svg, width, height)).rejects.toThrow())
        expect(Buffer.from(await svgToPdf(svg, width, height)).equals(alone)).toBe(true)
        compared++
      }),
      params,
    )
    expect(compared).toBeGreaterThan(params.numRuns / 5)
  }, 600_000)
})

describe('pdf glyph fast lane › what it takes', () => {
  const wrap = (inner: string, root = ''): string => `<svg width="100" height="100" viewBox="0 0 100 100"${root} xmlns="http://www.w3.org/2000/svg">${inner}</svg>`
  const glyph = '<path fill="#ff0000" d="M1 1L9 1Q9 9 1 9Z"/>'

  it('pdf › a solid-filled outline under bare <g> elements is taken', () => {
    expect(fastGlyphPaths(wrap(`<g><g>${glyph}</g></g>`))?.ops).toEqual(['1 1 m\n9 1 l\n9 6.333333 6.333333 9 1 9 c\nh'])
  })

  it('pdf › a QR code inlined as a nested <svg> (relative commands, fill after d) is taken', () => {
    const qr = '<g><svg x="10" y="10" width="50" height="50" viewBox="0 0 3 3" preserveAspectRatio="none"><rect width="3" height="3" fill="#ffffff"/><path d="M0 0h1v1h-1zM2 0h1v1h-1z" fill="#000000"/></svg></g>'
    expect(fastGlyphPaths(wrap(qr))?.ops).toEqual(['0 0 m\n1 0 l\n1 1 l\n0 1 l\nh\n2 0 m\n3 0 l\n3 1 l\n2 1 l\nh'])
  })

  it.each([
    ['a group with a clip-path (its box is measured)', `<g clip-path="url(#c)">${glyph}</g>`, ''],
    ['a group with a transform, opacity or stroke', `<g stroke="#000">${glyph}</g>`, ''],
    ['a path with more attributes than fill and d', '<g><path fill="#ff0000" stroke="#000" d="M1 1L9 1Z"/></g>', ''],
    ['a path painted with a gradient', '<g><path fill="url(#g)" d="M1 1L9 1Z"/></g>', ''],
    ['a root <svg> with a presentation attribute', `<g>${glyph}</g>`, ' stroke="#000"'],
    ['an SVG with a <style> sheet', `<style>path{stroke:red}</style><g>${glyph}</g>`, ''],
    ['an SVG with a <use> (it could draw a placeholder twice)', `<g>${glyph}</g><use href="#p"/>`, ''],
    ['an outline with commands it does not write (arcs, smooth curves)', '<g><path fill="#ff0000" d="M1 1l8 0h2v3A2 2 0 0 1 3 3z"/></g>', ''],
    ['a path in a nested <svg> with a presentation attribute', '<g><svg x="0" y="0" width="10" height="10" fill="#000"><path d="M1 1h2v2z" fill="#000000"/></svg></g>', ''],
  ])('pdf › leaves %s to svg-to-pdfkit', (_name, inner, root) => {
    expect(fastGlyphPaths(wrap(inner, root))).toBeUndefined()
  })

  it('pdf › path operators: implicit repeats, pdfkit rounding, zero-length sub-paths left out, malformed lists refused', () => {
    expect(pathOperators('M0 0 10 0 10 10Z')).toBe('0 0 m\n10 0 l\n10 10 l\nh')
    expect(pathOperators('M0 0Q1 1 2 0')).toBe('0 0 m\n0.666667 0.666667 1.333333 0.666667 2 0 c')
    expect(pathOperators('M5 5Z M0 0L1e1,0Z')).toBe('0 0 m\n10 0 l\nh')
    expect(pathOperators('M0 0L1')).toBeUndefined()
    expect(pathOperators('M0 0L1 1 x')).toBeUndefined()
  })
})
