/**
 * The render pipeline: resolve (validate → apply overrides → resolve the variation, see
 * render/resolve-document) → prepare fonts, images, codes and fitted text → satori (element
 * tree → SVG) → resvg + sharp (PNG, JPEG, WebP) or pdfkit (PDF). {@link renderDocument} runs
 * every stage; {@link renderResolved} the stages after resolve, which is what a worker thread
 * of the render pool runs.
 *
 * @module render/render-document
 */
import satori from 'satori'
import { LithoError } from '../errors.js'
import type { OverrideInput, ParsedOverrides } from '../design/overrides.js'
import type { Component, TextComponent } from '../design/schema.js'
import { isOpaqueColor } from '../design/color.js'
import type { Paint } from '../design/schema.js'
import { buildTree, innerSize, textNodeKey, twinNodeKey, type PreparedAssets } from './build-tree.js'
import { prepareCodes } from './prepare-codes.js'
import { rasterize } from './encode.js'
import { fitTexts } from './fit-text.js'
import { selectFonts, type FontFetcher, type TextRun } from './fonts/font-library.js'
import type { ImageLoader, PreparedImage } from './images/index.js'
import { withPlaceholders } from './image-placeholders.js'
import { optimizeSvg } from './optimize-svg.js'
import { svgToPdf } from './pdf.js'
import { resolveOutputOptions, type OutputOptions } from './defaults.js'
import { resolveDocument, type ResolvedDocument } from './resolve-document.js'
import { CONTENT_TYPES, type OutputFormat, type RenderWarning } from './types.js'

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
 * Renders a design document to bytes: every stage. `document` is raw JSON (or the output of
 * `validateDesign`); it is validated.
 *
 * @throws LithoError ERR_INVALID_DESIGN, ERR_INVALID_OVERRIDE, ERR_UNKNOWN_VARIATION,
 * ERR_INVALID_RENDER_OPTION, ERR_IMAGE_FETCH, ERR_IMAGE_INVALID, ERR_FONT_FETCH, ERR_RENDER_FAILED
 * (a QR or barcode value that cannot be encoded is ERR_INVALID_DESIGN or ERR_INVALID_OVERRIDE)
 */
export async function renderDocument(document: unknown, options: RenderOptions, context: RenderContext): Promise<RenderResult> {
  const output = resolveOutputOptions(options)
  return renderResolved(resolveDocument(document, options), output, context)
}

/**
 * Renders a resolved document (see render/resolve-document): lays it out, rasterizes and
 * encodes it. Nothing is validated again; `output` must come from `resolveOutputOptions`.
 *
 * @throws LithoError ERR_IMAGE_FETCH, ERR_IMAGE_INVALID, ERR_FONT_FETCH, ERR_RENDER_FAILED, and
 * ERR_INVALID_DESIGN or ERR_INVALID_OVERRIDE for a QR or barcode value that cannot be encoded.
 */
export async function renderResolved(resolved: ResolvedDocument, output: OutputOptions, context: RenderContext): Promise<RenderResult> {
  const { format, quality } = output
  const doc = resolved.document
  const warnings: RenderWarning[] = [...resolved.warnings]

  const visible = visibleComponents(doc.components)
  const texts = visible.filter((c): c is TextComponent => c.type === 'text')
  const runs: TextRun[] = texts.map((t) => ({ key: t.key, fontFamily: t.fontFamily, weight: t.fontWeight, style: t.fontStyle, text: t.text }))
  const [fonts, images] = await Promise.all([
    selectFonts(runs, doc.fonts, context.fetchFont),
    prepareImages(visible, resolved.scale, context.images),
  ])
  const codes = prepareCodes(doc, visible, resolved.overridden)
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

