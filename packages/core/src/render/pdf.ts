/**
 * SVG → vector PDF with pdfkit (through svg-to-pdfkit): shapes and glyph outlines stay
 * vectors, raster images are embedded once, one page whose size in points equals the
 * design's size in pixels. Glyph outlines and QR codes take a faster lane that writes the
 * same bytes (render/pdf-paths); the page's operators are deflated at a faster zlib level
 * (docs/performance.md, "PDF").
 *
 * @module render/pdf
 */

import { deflateSync } from 'node:zlib'
import { fastGlyphPaths, interceptPlaceholders } from './pdf-paths.js'

// A fixed date makes the file ID and metadata, and so the bytes, deterministic.
const EPOCH = new Date(0)

/**
 * Rewrites satori's SVG where svg-to-pdfkit reads it differently from resvg
 * (docs/benchmarks.md). Masks are already gone (optimizeSvg), which also keeps an
 * image's clip-path working in svg-to-pdfkit. It cannot open `data:image/svg+xml` images
 * (QR codes, barcodes, emoji), so they are inlined as nested `<svg>` elements.
 */
export function adaptSvgForPdf(svg: string): string {
  // Each self-closing <image> tag, then its data href: classes that stop at "<", ">" and '"'
  // keep every scan inside one tag, so the work stays linear (packages/core/test/security/redos.test.ts).
  return inlineSvgImages(svg).replace(/\sstroke-dasharray="([^"]*)"/g, (attribute, list: string) => ` stroke-dasharray="${positiveDashes(list)}"`)
}

/**
 * A dash list whose zero entries are a hair above zero. SVG draws a zero-length dash as a
 * dot under a round cap (satori's dotted borders), but pdfkit refuses any entry that is not
 * greater than zero and the whole render failed; an all-zero list means a solid line in both.
 */
function positiveDashes(list: string): string {
  const entries = list.trim().split(/[\s,]+/)
  if (entries.every((entry) => Number(entry) === 0)) return list
  return entries.map((entry) => (Number(entry) === 0 ? '0.001' : entry)).join(' ')
}

// satori's clip of a box: one plain rect (which the nested <svg> of an inlined image repeats).
const RECT_CLIP = /<clipPath id="([^"<>]+)"><rect x="([^"<>]*)" y="([^"<>]*)" width="([^"<>]*)" height="([^"<>]*)"\/><\/clipPath>/g

/**
 * Nested `<svg>` elements for the `data:image/svg+xml` images svg-to-pdfkit cannot open. A
 * nested `<svg>` clips to its own box, so the image's clip-path is left out when it is a plain
 * rect that holds that box: svg-to-pdfkit draws a clip-path as a soft mask in a transparency
 * group, after measuring every shape inside (a QR code's hundreds of modules, about 8 ms on
 * the reference card), for the same pixels.
 */
function inlineSvgImages(svg: string): string {
  const rectClips = new Map<string, number[]>()
  if (svg.includes('data:image/svg+xml')) for (const m of svg.matchAll(RECT_CLIP)) rectClips.set(m[1]!, m.slice(2, 6).map(Number))
  return svg.replace(/<image\b[^<>]*\/>/g, (tag) => {
    const href = /\shref="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"/.exec(tag)
    if (!href) return tag
    const data = href[1]!
    const attrs = `${tag.slice('<image'.length, href.index)} ${tag.slice(href.index + href[0].length, -2)}`
    const pick = (name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(attrs)?.[1]
    const inner = Buffer.from(data, 'base64').toString('utf8')
    const open = /<svg\b[^<>]*>/.exec(inner)?.[0] ?? '<svg>'
    const body = inner.slice(inner.indexOf(open) + open.length).replace(/<\/svg>\s*$/, '')
    const viewBox = /viewBox="([^"]*)"/.exec(open)?.[1]
    const par = /preserveAspectRatio="([^"]*)"/.exec(open)?.[1] ?? pick('preserveAspectRatio') ?? 'xMidYMid meet'
    const box = { x: pick('x') ?? '0', y: pick('y') ?? '0', width: pick('width') ?? '100%', height: pick('height') ?? '100%' }
    const nested = `<svg x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}"${viewBox ? ` viewBox="${viewBox}"` : ''} preserveAspectRatio="${par}">${body}</svg>`
    const transform = pick('transform')
    let clip = pick('clip-path')
    if (clip && !transform && holdsBox(rectClips.get(/^url\(#([^)]*)\)$/.exec(clip)?.[1] ?? ''), box)) clip = undefined
    return `<g${transform ? ` transform="${transform}"` : ''}${clip ? ` clip-path="${clip}"` : ''}>${nested}</g>`
  })
}

/** Whether the rect `[x, y, width, height]` holds the box (in user units; no percentages). */
function holdsBox(rect: number[] | undefined, box: { x: string; y: string; width: string; height: string }): boolean {
  const [x, y, width, height] = [box.x, box.y, box.width, box.height].map((v) => (/^-?[\d.]+$/.test(v) ? Number(v) : Number.NaN)) as [number, number, number, number]
  if (!rect || rect.some((v) => !Number.isFinite(v)) || ![x, y, width, height].every(Number.isFinite)) return false
  const [rx, ry, rw, rh] = rect as [number, number, number, number]
  return rx <= x && ry <= y && rx + rw >= x + width && ry + rh >= y + height
}

// The zlib level of the page's content stream, which holds every path operator (the bulk of a
// PDF besides its photos). pdfkit deflates at zlib's default, 6: 6.2 ms for the reference card's
// 121 KB of operators; level 4 takes 2.4 ms and writes 1.5 KB more (level 1: 1.5 ms, 6 KB more).
const CONTENT_LEVEL = 4

/** The part of pdfkit's (0.20) stream object that {@link deflateContent} reads and sets. */
interface ContentStream {
  buffer: unknown
  compress: boolean
  data: { Filter?: string }
}

/**
 * Deflates the page's content stream at {@link CONTENT_LEVEL} before pdfkit writes it, in its
 * place: pdfkit then writes the bytes as they are, with their `/FlateDecode` filter. Leaves the
 * stream to pdfkit when its shape is not the one expected (another pdfkit version).
 */
function deflateContent(doc: { page?: { content?: ContentStream } }): void {
  const content = doc.page?.content
  if (!content || content.compress !== true || !Array.isArray(content.buffer) || content.buffer.length === 0) return
  if (!content.buffer.every((chunk) => chunk instanceof Uint8Array)) return
  content.buffer = [deflateSync(Buffer.concat(content.buffer as Uint8Array[]), { level: CONTENT_LEVEL })]
  content.compress = false
  content.data.Filter = 'FlateDecode'
}

interface PdfKit {
  PDFDocument: typeof import('pdfkit')
  SVGtoPDF: (typeof import('svg-to-pdfkit'))['default']
}
let pdfKit: Promise<PdfKit> | undefined

/**
 * pdfkit and svg-to-pdfkit, loaded with the first PDF rather than with the render stack: most
 * renders are raster, and pdfkit is the slowest of the stack's packages to import. Pool workers
 * call it while they warm up, so a pool's first PDF does not wait for it.
 */
export function loadPdfKit(): Promise<PdfKit> {
  pdfKit ??= Promise.all([import('pdfkit'), import('svg-to-pdfkit')]).then(([pdfkit, svgToPdfKit]) => ({ PDFDocument: pdfkit.default, SVGtoPDF: svgToPdfKit.default }))
  return pdfKit
}

/** Options of {@link svgToPdf}. */
export interface SvgToPdfOptions {
  /**
   * Whether glyph outlines take the fast lane of render/pdf-paths (same bytes, less time).
   * `false` is svg-to-pdfkit alone: what the tests compare the fast lane with. @default true
   */
  fastGlyphs?: boolean
}

/**
 * Draws `svg` (width x height px) on a single PDF page of width x height pt.
 *
 * @example const bytes = await svgToPdf(layout.svg, 1080, 1080)
 */
export async function svgToPdf(svg: string, width: number, height: number, options: SvgToPdfOptions = {}): Promise<Uint8Array> {
  const { PDFDocument, SVGtoPDF } = await loadPdfKit()
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: [width, height],
      margin: 0,
      autoFirstPage: true,
      compress: true,
      // No default font: satori's text arrives as outlines, and pdfkit parsed Helvetica's
      // metrics for every document (~0.8 ms) to write nothing.
      font: null as unknown as string,
      info: { Producer: 'Litho', Creator: 'Litho', CreationDate: EPOCH, ModDate: EPOCH },
    })
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
    try {
      const adapted = adaptSvgForPdf(svg)
      // Glyph outlines skip svg-to-pdfkit's path parser; the bytes stay the same (render/pdf-paths).
      const fast = options.fastGlyphs === false ? undefined : fastGlyphPaths(adapted)
      const restore = fast ? interceptPlaceholders(doc, fast.ops) : undefined
      try {
        SVGtoPDF(doc, fast?.svg ?? adapted, 0, 0, { width, height, assumePt: true, preserveAspectRatio: 'none' })
      } finally {
        restore?.()
      }
      deflateContent(doc as unknown as { page?: { content?: ContentStream } })
      doc.end()
    } catch (error) {
      reject(error)
    }
  })
}
