/**
 * The stages of a render shared by the full path (render/render-document) and the layered path
 * (render/layers): preparing fonts, images and fitted text for a whole document, then laying
 * out a list of its components into an SVG ready to rasterize, with the warnings seen on the way.
 *
 * @module render/layout-pass
 */
import satori from 'satori'
import { LithoError } from '../errors.js'
import { isOpaqueColor } from '../design/color.js'
import type { Component, Paint, TextComponent } from '../design/schema.js'
import { buildTree, innerSize, textNodeKey, twinNodeKey, type PreparedAssets } from './build-tree.js'
import { loadBarcodeEncoder } from './codes.js'
import { prepareCodes } from './prepare-codes.js'
import { fitTexts } from './fit-text.js'
import { selectFonts, type FontFetcher, type FontSelection, type TextRun } from './fonts/font-library.js'
import type { ImageLoader, PreparedImage } from './images/index.js'
import { withPlaceholders } from './image-placeholders.js'
import { optimizeSvg } from './optimize-svg.js'
import type { DetectedBox } from './component-layout.js'
import type { ResolvedDocument } from './resolve-document.js'
import type { RenderWarning } from './types.js'

/** What the pipeline needs from its host: the image loader and the font fetcher. */
export interface RenderContextBase {
  images: ImageLoader
  fetchFont: FontFetcher
}

/** True when the paint covers the canvas with no transparency. */
export function isOpaquePaint(paint: Paint | undefined): boolean {
  if (paint === undefined) return false
  if (typeof paint === 'string') return isOpaqueColor(paint)
  return paint.stops.every((stop) => isOpaqueColor(stop.color))
}

/** The visible components of a list, groups' visible children included, in paint order. */
export function visibleComponents(components: readonly Component[]): Component[] {
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

async function prepareImages(components: readonly Component[], scale: number, images: ImageLoader, assets: ResolvedDocument['assets']): Promise<Map<string, PreparedImage>> {
  const prepared = new Map<string, PreparedImage>()
  await Promise.all(
    components.map(async (c) => {
      if (c.type !== 'image' || !c.src) return
      const inner = innerSize(c)
      if (inner.width < 1 || inner.height < 1) return
      try {
        prepared.set(c.key, await images.prepare(c.src, { width: inner.width, height: inner.height, fit: c.fit, focus: c.focus, scale }, assets))
      } catch (error) {
        if (LithoError.isInstance(error))
          throw new LithoError(error.code, `${c.key}: ${error.message}`, { cause: error, details: { ...error.details, component: c.key } })
        throw error
      }
    }),
  )
  return prepared
}

/** Fonts, images and fitted text of a whole document: the same for every part of it. */
export interface Prepared {
  fonts: FontSelection
  /** Prepared images by component key (real data: URIs). */
  images: Map<string, PreparedImage>
  fittedSizes: Map<string, number>
  /** The resolve warnings, then those of autoFit, in that order. */
  warnings: RenderWarning[]
}

/**
 * Prepares fonts (for every visible text), images and autoFit sizes of a resolved document.
 *
 * @example const prepared = await prepareDocument(resolveDocument(design), createRenderContext())
 */
export async function prepareDocument(resolved: ResolvedDocument, context: RenderContextBase): Promise<Prepared> {
  const doc = resolved.document
  const visible = visibleComponents(doc.components)
  const texts = visible.filter((c): c is TextComponent => c.type === 'text')
  const runs: TextRun[] = texts.map((t) => ({ key: t.key, fontFamily: t.fontFamily, weight: t.fontWeight, style: t.fontStyle, text: t.text }))
  const [fonts, images] = await Promise.all([selectFonts(runs, doc.fonts, context.fetchFont), prepareImages(visible, resolved.scale, context.images, resolved.assets)])
  const fitted = await fitTexts(texts, fonts)
  return { fonts, images, fittedSizes: fitted.sizes, warnings: [...resolved.warnings, ...fitted.warnings] }
}

/** A laid-out list of components: the SVG with its images in place, and what layout reported. */
export interface LayoutResult {
  svg: string
  /** text_overflow and text_cut, in paint order. */
  warnings: RenderWarning[]
}

/**
 * Lays out `components` (top-level components of the resolved document, in paint order) on
 * the document's canvas with `background`, and returns the SVG to rasterize. Font warnings that
 * satori's asset requests raise land in `prepared.fonts.warnings`, as they happen.
 *
 * With `detected`, the box the layout engine gave each visible component is put in it, by key
 * (render/component-layout).
 *
 * @throws LithoError ERR_RENDER_FAILED (layout), and the code errors of prepareCodes.
 * @example const { svg, warnings } = await layoutPass(resolved, doc.components, doc.background, prepared)
 */
export async function layoutPass(
  resolved: ResolvedDocument,
  components: readonly Component[],
  background: Paint | undefined,
  prepared: Prepared,
  detected?: Map<string, DetectedBox>,
): Promise<LayoutResult> {
  const doc = resolved.document
  const visible = visibleComponents(components)
  const texts = visible.filter((c): c is TextComponent => c.type === 'text')
  if (visible.some((c) => c.type === 'barcode')) await loadBarcodeEncoder()
  const codes = prepareCodes(doc, visible, resolved.overridden)
  const images = new Map<string, PreparedImage>()
  for (const c of visible) {
    const image = prepared.images.get(c.key)
    if (image) images.set(c.key, image)
  }
  const stand = await withPlaceholders(images)
  const { fonts } = prepared
  const assets: PreparedAssets = { familyFor: fonts.familyFor, images: stand.images, codes, fittedSizes: prepared.fittedSizes }
  const stage = {
    width: resolved.width,
    height: resolved.height,
    layoutWidth: doc.width,
    layoutHeight: doc.height,
    scale: resolved.scale,
    offsetX: resolved.offsetX,
    offsetY: resolved.offsetY,
    background,
  }
  const tree = buildTree(components, stage, assets)

  // Text taller than its box, and text cut by maxLines, seen in the pass that draws it.
  const warnings: RenderWarning[] = []
  const boxes = new Map(texts.filter((t) => !t.autoFit).map((t) => [textNodeKey(t.key), t]))
  const twins = new Map(texts.filter((t) => t.maxLines && !t.autoFit).map((t) => [twinNodeKey(t.key), t]))
  const keys = detected ? new Set(visible.map((c) => c.key)) : undefined
  let svg: string
  try {
    svg = await satori(tree as never, {
      width: resolved.width,
      height: resolved.height,
      fonts: fonts.fonts,
      loadAdditionalAsset: fonts.loadAdditionalAsset,
      onNodeDetected: (node) => {
        if (typeof node.key !== 'string') return
        if (keys?.has(node.key) && !detected!.has(node.key)) detected!.set(node.key, { left: node.left, top: node.top, width: node.width, height: node.height })
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
  // Optimise before the image data goes back in: the regexes then scan ~10 KB, not ~260 KB.
  return { svg: stand.restore(optimizeSvg(svg)), warnings }
}

/** The warnings of a render in their documented order, each message once. */
export function finishWarnings(prepared: Prepared, layout: readonly RenderWarning[]): RenderWarning[] {
  // Font warnings include those from satori's asset requests during layout; keep each once.
  const all = [...prepared.warnings, ...layout, ...prepared.fonts.warnings]
  const seen = new Set<string>()
  return all.filter((w) => (seen.has(w.message) ? false : (seen.add(w.message), true)))
}
