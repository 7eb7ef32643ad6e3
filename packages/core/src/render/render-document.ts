/**
 * The render pipeline: resolve (validate → apply overrides → resolve the variation, see
 * render/resolve-document) → prepare fonts, images, codes and fitted text → satori (element
 * tree → SVG) → resvg + sharp (PNG, JPEG, WebP) or pdfkit (PDF). {@link renderDocument} runs
 * every stage; {@link renderResolved} the stages after resolve, which is what a worker thread
 * of the render pool runs.
 *
 * @module render/render-document
 */
import { LithoError } from '../errors.js'
import type { OverrideInput, ParsedOverrides } from '../design/overrides.js'
import { rasterize } from './encode.js'
import { layoutOf, type DetectedBox, type RenderLayout } from './component-layout.js'
import { finishWarnings, isOpaquePaint, layoutPass, prepareDocument, type RenderContextBase } from './layout-pass.js'
import type { LayerCache } from './layers/layer-cache.js'
import { renderLayered } from './layers/render-layered.js'
import { svgToPdf } from './pdf.js'
import { resolveOutputOptions, type OutputOptions } from './defaults.js'
import { validateInput } from '../design/validated-documents.js'
import { resolveDesign, type ResolvedDocument } from './resolve-document.js'
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
  /** Every visible component's box, when the output options asked for it (`layout: true`). */
  layout?: RenderLayout
  /**
   * Whether the static-layer cache (docs/performance.md) served part of it: `hit` when a cached
   * layer was reused, `miss` when the layers were drawn (and kept); absent when the render took
   * the whole path (PDF, no cache, nothing static). For metrics.
   */
  layerCache?: 'hit' | 'miss'
}

/**
 * What the pipeline needs from its host: the image loader, the font fetcher and, optionally,
 * the static-layer cache (docs/performance.md) that raster renders reuse pixels from.
 */
export interface RenderContext extends RenderContextBase {
  layers?: LayerCache | undefined
}

/**
 * Renders a design document to bytes: every stage. `document` is raw JSON (or the output of
 * `validateDesign`); it is validated, once per content: the same object rendered again unchanged
 * reuses its validated form (design/validated-documents).
 *
 * @throws LithoError ERR_INVALID_DESIGN, ERR_INVALID_OVERRIDE, ERR_UNKNOWN_VARIATION,
 * ERR_INVALID_RENDER_OPTION, ERR_IMAGE_FETCH, ERR_IMAGE_INVALID, ERR_FONT_FETCH, ERR_RENDER_FAILED
 * (a QR or barcode value that cannot be encoded is ERR_INVALID_DESIGN or ERR_INVALID_OVERRIDE)
 */
export async function renderDocument(document: unknown, options: RenderOptions, context: RenderContext): Promise<RenderResult> {
  const output = resolveOutputOptions(options)
  return renderResolved(resolveDesign(validateInput(document), options), output, context)
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
  const prepared = await prepareDocument(resolved, context)
  const done = (bytes: Uint8Array, layout: readonly RenderWarning[], boxes?: ReadonlyMap<string, DetectedBox>, layerCache?: 'hit' | 'miss'): RenderResult => ({
    bytes,
    contentType: CONTENT_TYPES[format],
    format,
    width: resolved.width,
    height: resolved.height,
    variation: resolved.variation,
    warnings: finishWarnings(prepared, layout),
    ...(boxes ? { layout: layoutOf(resolved, boxes) } : {}),
    ...(layerCache ? { layerCache } : {}),
  })
  // Raster formats reuse the static layers when they can (their boxes too); PDF stays vector.
  if (format !== 'pdf' && context.layers) {
    const detected = output.layout === true ? new Map<string, DetectedBox>() : undefined
    const layered = await renderLayered(resolved, { format, quality }, prepared, context.layers, undefined, detected)
    if (layered) return done(layered.bytes, layered.warnings, detected, layered.reused ? 'hit' : 'miss')
  }

  const boxes = output.layout === true ? new Map<string, DetectedBox>() : undefined
  const layout = await layoutPass(resolved, doc.components, doc.background, prepared, boxes)
  let bytes: Uint8Array
  try {
    bytes = format === 'pdf' ? await svgToPdf(layout.svg, resolved.width, resolved.height) : await rasterize(layout.svg, format, quality, isOpaquePaint(doc.background))
  } catch (error) {
    // A refusal of the design itself (the rasterizer cannot draw it) stays what it is.
    if (LithoError.isInstance(error) && error.code === 'ERR_INVALID_DESIGN') throw error
    throw new LithoError('ERR_RENDER_FAILED', `${format} encoding failed: ${(error as Error).message}`, { cause: error })
  }
  return done(bytes, layout.warnings, boxes)
}
