/**
 * The render pipeline: validate → apply overrides → resolve the variation → prepare
 * fonts, images, codes and fitted text → satori (element tree → SVG) → resvg + sharp
 * (PNG, JPEG, WebP) or pdfkit (PDF). It runs wherever it is called: inline, or inside a
 * worker thread of the render pool.
 *
 * @module render/render-document
 */
import satori from 'satori'
import { LithoError } from '../errors.js'
import { applyOverrides, type OverrideInput, type ParsedOverrides } from '../design/overrides.js'
import type { Component, DesignDocument, TextComponent } from '../design/schema.js'
import { validateDesign } from '../design/validate-design.js'
import { isOpaqueColor } from '../design/color.js'
import type { Paint } from '../design/schema.js'
import { resolveVariation } from '../design/variations.js'
import { buildTree, innerSize, textNodeKey, twinNodeKey, type PreparedAssets } from './build-tree.js'
import { prepareCodes } from './prepare-codes.js'
import { rasterize } from './encode.js'
import { fitTexts } from './fit-text.js'
import { selectFonts, type FontFetcher, type TextRun } from './fonts/font-library.js'
import type { ImageLoader, PreparedImage } from './images/index.js'
import { withPlaceholders } from './image-placeholders.js'
import { optimizeSvg } from './optimize-svg.js'
import { svgToPdf } from './pdf.js'
import { CONTENT_TYPES, OUTPUT_FORMATS, type OutputFormat, type RenderWarning } from './types.js'

/** Options of a render. */
export interface RenderOptions {
  /** Overrides: a query string, URLSearchParams, a nested or dot-path object, or a list of these. */
  overrides?: OverrideInput | readonly OverrideInput[] | ParsedOverrides
  /** A variation id; omitted or `master` is the base size. */
  variation?: string
  /** Output format. @default 'jpeg' */
  format?: OutputFormat
  /** JPEG quality 1-100 (ignored by the other formats). @default 80 */
  quality?: number
}

/** The result of a render. */
export interface RenderResult {
  bytes: Uint8Array
  contentType: string
  format: OutputFormat
  width: number
  height: number
  /** `master` or the variation id rendered. */
  variation: string
  /** Ignored overrides, shrunk or cut text, missing glyphs, unknown font families. */
  warnings: RenderWarning[]
}

/** What the pipeline needs from its host: the image loader and the font fetcher. */
export interface RenderContext {
  images: ImageLoader
  fetchFont: FontFetcher
}

/** Checks and defaults the format and quality. */
export function resolveOutputOptions(options: Pick<RenderOptions, 'format' | 'quality'>): { format: OutputFormat; quality: number } {
  const format = options.format ?? 'jpeg'
  if (!OUTPUT_FORMATS.includes(format))
    throw new LithoError('ERR_INVALID_RENDER_OPTION', `format: expected one of ${OUTPUT_FORMATS.join(', ')}, received ${JSON.stringify(format)}`, {
      issues: [{ path: 'format', message: `expected one of ${OUTPUT_FORMATS.join(', ')}` }],
    })
  const quality = options.quality ?? 80
  if (typeof quality !== 'number' || !Number.isInteger(quality) || quality < 1 || quality > 100)
    throw new LithoError('ERR_INVALID_RENDER_OPTION', `quality: expected a whole number between 1 and 100, received ${JSON.stringify(quality)}`, {
      issues: [{ path: 'quality', message: 'expected a whole number between 1 and 100' }],
    })
  return { format, quality }
}

/** True when the paint covers the canvas with no transparency. */
function isOpaquePaint(paint: Paint | undefined): boolean {
  if (paint === undefined) return false
  if (typeof paint === 'string') return isOpaqueColor(paint)
  return paint.stops.every((stop) => isOpaqueColor(stop.color))
}

function visibleComponents(components: readonly Component[]): Component[] {
  const out: Component[] = []
  const visit = (list: readonly Component[]): void => {
    for (const c of list) {
      if (!c.visible) continue
      out.push(c)
      if (c.type === 'group') visit(c.children)
    }
  }
  visit(components)
  return out
}

async function prepareImages(components: readonly Component[], scale: number, images: ImageLoader): Promise<Map<string, PreparedImage>> {
  const prepared = new Map<string, PreparedImage>()
  await Promise.all(
    components.map(async (c) => {
      if (c.type !== 'image' || !c.src) return
      const inner = innerSize(c)
      if (inner.width < 1 || inner.height < 1) return
      try {
        prepared.set(c.key, await images.prepare(c.src, { width: inner.width, height: inner.height, fit: c.fit, focus: c.focus, scale }))
      } catch (error) {
        if (LithoError.isInstance(error))
          throw new LithoError(error.code, `${c.key}: ${error.message}`, { cause: error, details: { ...error.details, component: c.key } })
        throw error
      }
    }),
  )
  return prepared
}

/**
 * Renders a design document to bytes. `document` may be raw JSON (it is validated) or
 * the output of `validateDesign`.
 *
 * @throws LithoError ERR_INVALID_DESIGN, ERR_INVALID_OVERRIDE, ERR_UNKNOWN_VARIATION,
 * ERR_INVALID_RENDER_OPTION, ERR_IMAGE_FETCH, ERR_IMAGE_INVALID, ERR_FONT_FETCH, ERR_RENDER_FAILED
 * (a QR or barcode value that cannot be encoded is ERR_INVALID_DESIGN or ERR_INVALID_OVERRIDE)
 */
export async function renderDocument(document: unknown, options: RenderOptions, context: RenderContext): Promise<RenderResult> {
  const { format, quality } = resolveOutputOptions(options)
  const base: DesignDocument = validateDesign(document)
  const applied = options.overrides === undefined ? { document: base, ignored: [] } : applyOverrides(base, options.overrides)
  const resolved = resolveVariation(applied.document, options.variation)
  const doc = resolved.document
  const warnings: RenderWarning[] = applied.ignored.map((i) => ({ code: 'override_ignored', key: i.key, reason: i.reason, message: i.message }))

  const visible = visibleComponents(doc.components)
  const texts = visible.filter((c): c is TextComponent => c.type === 'text')
  const runs: TextRun[] = texts.map((t) => ({ key: t.key, fontFamily: t.fontFamily, weight: t.fontWeight, style: t.fontStyle, text: t.text }))
  const [fonts, images] = await Promise.all([
    selectFonts(runs, doc.fonts, context.fetchFont),
    prepareImages(visible, resolved.scale, context.images),
  ])
  const codes = prepareCodes(doc, visible, 'applied' in applied ? applied.applied : [])
  const fitted = await fitTexts(texts, fonts)
  warnings.push(...fitted.warnings)

  const stand = await withPlaceholders(images)
  const assets: PreparedAssets = { familyFor: fonts.familyFor, images: stand.images, codes, fittedSizes: fitted.sizes }
  const tree = buildTree(
    doc.components,
    {
      width: resolved.width,
      height: resolved.height,
      layoutWidth: doc.width,
      layoutHeight: doc.height,
      scale: resolved.scale,
      offsetX: resolved.offsetX,
      offsetY: resolved.offsetY,
      background: doc.background,
    },
    assets,
  )

  // Text taller than its box, and text cut by maxLines, seen in the pass that draws it.
  const boxes = new Map(texts.filter((t) => !t.autoFit).map((t) => [textNodeKey(t.key), t]))
  const twins = new Map(texts.filter((t) => t.maxLines && !t.autoFit).map((t) => [twinNodeKey(t.key), t]))
  let svg: string
  try {
    svg = await satori(tree as never, {
      width: resolved.width,
      height: resolved.height,
      fonts: fonts.fonts,
      loadAdditionalAsset: fonts.loadAdditionalAsset,
      onNodeDetected: (node) => {
        if (typeof node.key !== 'string') return
        const text = boxes.get(node.key)
        if (text && node.height > innerSize(text).height + 0.5)
          warnings.push({ code: 'text_overflow', key: text.key, message: `${text.key}: text is ${Math.ceil(node.height - innerSize(text).height)}px taller than its box` })
        const twin = twins.get(node.key)
        const lines = twin ? Math.round(node.height / Math.max(1, Math.round(twin.fontSize * twin.lineHeight))) : 0
        if (twin?.maxLines && lines > twin.maxLines)
          warnings.push({ code: 'text_cut', key: twin.key, message: `${twin.key}: text cut to ${twin.maxLines} of ${lines} lines` })
      },
    })
  } catch (error) {
    throw new LithoError('ERR_RENDER_FAILED', `layout failed: ${(error as Error).message}`, { cause: error })
  }

  let bytes: Uint8Array
  try {
    // Optimise before the image data goes back in: the regexes then scan ~10 KB, not ~260 KB.
    const optimized = optimizeSvg(svg)
    bytes =
      format === 'pdf'
        ? await svgToPdf(stand.restore(optimized), resolved.width, resolved.height)
        : await rasterize(stand.restore(optimized), format, quality, isOpaquePaint(doc.background))
  } catch (error) {
    // A refusal of the design itself (the rasterizer cannot draw it) stays what it is.
    if (LithoError.isInstance(error) && error.code === 'ERR_INVALID_DESIGN') throw error
    throw new LithoError('ERR_RENDER_FAILED', `${format} encoding failed: ${(error as Error).message}`, { cause: error })
  }
  // Font warnings include those from satori's asset requests during layout; keep each once.
  warnings.push(...fonts.warnings)
  const seen = new Set<string>()
  const unique = warnings.filter((w) => (seen.has(w.message) ? false : (seen.add(w.message), true)))
  return { bytes, contentType: CONTENT_TYPES[format], format, width: resolved.width, height: resolved.height, variation: resolved.variation, warnings: unique }
}

