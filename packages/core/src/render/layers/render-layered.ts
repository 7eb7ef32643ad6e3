/**
 * The layered raster path (docs/performance.md, "Static-layer cache"): the static layers of a
 * render come from the layer cache (rasterized once, on the first render that needs them),
 * only the dynamic run is laid out and rasterized, cropped to what it paints, and the three
 * are composited and encoded. The result equals a whole render within rounding; designs it
 * cannot layer honestly (see {@link renderLayered}) take the whole path.
 *
 * @module render/layers/render-layered
 */
import { LithoError } from '../../errors.js'
import type { Component, Paint } from '../../design/schema.js'
import { rasterizeRegion, type RasterFormat, type RasterRegion } from '../encode.js'
import { isOpaquePaint, layoutPass, visibleComponents, type Prepared } from '../layout-pass.js'
import type { DetectedBox } from '../component-layout.js'
import type { ResolvedDocument } from '../resolve-document.js'
import type { RenderWarning } from '../types.js'
import { compositeLayers, releaseCanvas } from './canvas.js'
import { encodeCanvas, toRgb } from './composite.js'
import { layerKey, type CachedLayer, type LayerCache } from './layer-cache.js'
import { planLayers } from './plan-layers.js'

/** Per-stage times of one render in ms, for profiling (bench/profile.ts). */
export interface StageTimes {
  layout: number
  rasterize: number
  composite: number
  encode: number
}

/**
 * How far past resvg's bounding box of painted paths a crop reaches: text shadows and strokes
 * paint beyond the paths (a blur of b spreads about 1.5 b), plus a pixel of antialiasing.
 */
function cropMargin(components: readonly Component[]): number {
  let margin = 2
  for (const c of visibleComponents(components)) {
    let reach = c.border?.width ?? 0
    if (c.type === 'text') reach += (c.stroke?.width ?? 0) + (c.shadow ? Math.abs(c.shadow.x) + Math.abs(c.shadow.y) + 2 * c.shadow.blur : 0)
    if (c.type === 'shape') reach += c.stroke?.width ?? 0
    margin = Math.max(margin, reach + 2)
  }
  return Math.ceil(margin)
}

const now = (): number => performance.now()

/**
 * Renders `resolved` from cached static layers plus its dynamic run, or returns `undefined` when
 * it should take the whole path: nothing static to reuse, a bottom layer larger than the whole
 * cache, or an SVG that needs resvg's anchored, isolated rendering. Font warnings raised on the
 * way are replayed from the cache on a hit, so the warnings equal those of a whole render.
 *
 * @example
 * const layered = await renderLayered(resolved, { format: 'jpeg', quality: 80 }, await prepareDocument(resolved, context), cache)
 * // undefined: render the whole document instead
 */
export async function renderLayered(
  resolved: ResolvedDocument,
  output: { format: RasterFormat; quality: number },
  prepared: Prepared,
  cache: LayerCache,
  times?: StageTimes,
  detected?: Map<string, DetectedBox>,
): Promise<{ bytes: Uint8Array; warnings: RenderWarning[]; reused: boolean } | undefined> {
  const plan = planLayers(resolved)
  const { width, height } = resolved
  if (!plan || !cache.fits(width * height * 4)) return undefined
  const doc = resolved.document
  const keyOf = (name: 'below' | 'dynamic' | 'above', components: readonly Component[], background: Paint | undefined): string | undefined =>
    components.length === 0 && background === undefined ? undefined : layerKey(name, resolved, components, background, prepared)
  const keys = { below: keyOf('below', plan.below, doc.background), dynamic: keyOf('dynamic', plan.dynamic, undefined), above: keyOf('above', plan.above, undefined) }
  if (resolved.source) cache.track(resolved.source.designId, resolved.source.version, [keys.below, keys.dynamic, keys.above].filter((k): k is string => k !== undefined))
  const fontWarnings = prepared.fonts.warnings
  const mark = fontWarnings.length
  const bail = (): undefined => {
    fontWarnings.length = mark
    return undefined
  }
  const clock = { layout: 0, rasterize: 0 }
  // Whether a static layer came from the cache (the render's `layerCache: 'hit'`).
  let reused = false

  async function part(
    components: readonly Component[],
    background: Paint | undefined,
    crop: number | undefined,
    boxes?: Map<string, DetectedBox>,
  ): Promise<{ region: RasterRegion | null; warnings: RenderWarning[] } | undefined> {
    const started = now()
    const layout = await layoutPass(resolved, components, background, prepared, boxes)
    const laidOut = now()
    clock.layout += laidOut - started
    const region = rasterizeRegion(layout.svg, crop)
    clock.rasterize += now() - laidOut
    return region === undefined ? undefined : { region, warnings: layout.warnings }
  }

  // An opaque background makes every pixel of the canvas opaque: it is composited as RGB.
  const channels = isOpaquePaint(doc.background) ? 3 : 4

  // A layer from the cache, or drawn and kept. `keep` false: drawn only (a dynamic run seen once).
  async function cachedLayer(key: string | undefined, components: readonly Component[], background: Paint | undefined, crop: number | undefined, keep = true): Promise<CachedLayer | null | undefined> {
    if (key === undefined) return null
    const hit = cache.get(key)
    if (hit?.boxes || (hit && !detected)) {
      reused = true
      fontWarnings.push(...hit.fontWarnings)
      if (detected) for (const [k, box] of hit.boxes!) detected.set(k, box)
      return hit
    }
    const before = fontWarnings.length
    // A static layer keeps its boxes (a few per component) for the renders that ask for their layout.
    const boxes = new Map<string, DetectedBox>()
    const drawn = await part(components, background, crop, boxes)
    if (!drawn) return undefined
    if (detected) for (const [k, box] of boxes) detected.set(k, box)
    const region = drawn.region ?? { x: 0, y: 0, width: 0, height: 0, pixels: Buffer.alloc(0) }
    // The bottom layer is the whole canvas: kept in the canvas's channels, ready to copy.
    if (crop === undefined && channels === 3 && region.pixels.length > 0) region.pixels = toRgb(region.pixels)
    const layer: CachedLayer = { ...region, layoutWarnings: drawn.warnings, fontWarnings: fontWarnings.slice(before), boxes }
    if (keep) cache.set(key, layer)
    return layer
  }

  try {
    // Bottom to top, so that layout warnings and font warnings come in paint order.
    const below = await cachedLayer(keys.below, plan.below, doc.background, undefined)
    if (below === undefined) return bail()
    // The dynamic run is drawn every render, and kept once its key comes back (text that repeats).
    const dynamic = keys.dynamic === undefined ? null : await cachedLayer(keys.dynamic, plan.dynamic, undefined, cropMargin(plan.dynamic), cache.admit(keys.dynamic))
    if (dynamic === undefined) return bail()
    const above = await cachedLayer(keys.above, plan.above, undefined, cropMargin(plan.above))
    if (above === undefined) return bail()

    const started = now()
    const canvas = compositeLayers(width, height, channels, below?.pixels, dynamic && dynamic.width > 0 ? dynamic : undefined, above && above.width > 0 ? above : undefined)
    const composited = now()
    let bytes: Uint8Array
    try {
      bytes = await encodeCanvas(canvas, output.format, output.quality)
    } finally {
      releaseCanvas(canvas)
    }
    if (times) Object.assign(times, { ...clock, composite: composited - started, encode: now() - composited })
    const warnings = [...(below?.layoutWarnings ?? []), ...(dynamic?.layoutWarnings ?? []), ...(above?.layoutWarnings ?? [])]
    return { bytes, warnings, reused }
  } catch (error) {
    if (LithoError.isInstance(error)) throw error
    throw new LithoError('ERR_RENDER_FAILED', `${output.format} encoding failed: ${(error as Error).message}`, { cause: error })
  }
}
