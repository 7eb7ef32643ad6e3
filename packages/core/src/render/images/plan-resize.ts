/**
 * The geometry of fitting an image into a box: pure arithmetic, no pixels. The image is resized
 * once, straight from the source (after an optional crop) to the output size.
 *
 * @module render/images/plan-resize
 */
import { describeReceived, invalidArgument } from '../../_internal/argument-error.js'
import type { ImageBox } from './image-loader.js'

// tiny-skia (resvg) misbehaves above ~8,000 px (resvg #570), and no design
// box needs more; this also bounds the work a box can ask for.
const MAX_OUTPUT_SIDE = 8192

/** An {@link ImageBox} with defaults applied and values checked. */
export interface NormalizedBox {
  width: number
  height: number
  fit: 'cover' | 'contain' | 'fill'
  focus: { x: number; y: number }
  scale: number
  /** round(width × scale) */
  pixelWidth: number
  /** round(height × scale) */
  pixelHeight: number
}

/** A region of the source image, in source pixels (after EXIF orientation). */
export interface Region {
  left: number
  top: number
  width: number
  height: number
}

/** What to do to a source of a given size. */
export interface ResizePlan {
  /** The part of the source to keep (cover only); undefined keeps it all. */
  extract: Region | undefined
  /** Output size in pixels. */
  pixelWidth: number
  pixelHeight: number
  /** CSS size of the area covered: the fitted size for contain, else the box. */
  width: number
  height: number
}

/**
 * Applies defaults (focus 0.5,0.5; scale 1) and validates a box, throwing a coded TypeError on
 * misuse.
 *
 * @example
 * normalizeBox({ width: 300, height: 200, fit: 'cover', scale: 2 }).pixelWidth // 600
 */
export function normalizeBox(box: ImageBox): NormalizedBox {
  if (typeof box !== 'object' || box === null) throw invalidArgument(`Expected box to be an object but received ${describeReceived(box)}`)
  const { width, height, fit } = box
  const scale = box.scale ?? 1
  const focus = box.focus ?? { x: 0.5, y: 0.5 }
  for (const [name, value] of [['box.width', width], ['box.height', height], ['box.scale', scale]] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw invalidArgument(`Expected ${name} to be a positive number but received ${describeReceived(value)}`)
    }
  }
  if (fit !== 'cover' && fit !== 'contain' && fit !== 'fill') {
    throw invalidArgument(`Expected box.fit to be one of cover, contain, fill but received ${describeReceived(fit)}`)
  }
  for (const axis of ['x', 'y'] as const) {
    const value = typeof focus === 'object' && focus !== null ? focus[axis] : undefined
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
      throw invalidArgument(`Expected box.focus.${axis} to be a number from 0 to 1 but received ${describeReceived(value)}`)
    }
  }
  const pixelWidth = Math.max(1, Math.round(width * scale))
  const pixelHeight = Math.max(1, Math.round(height * scale))
  if (pixelWidth > MAX_OUTPUT_SIDE || pixelHeight > MAX_OUTPUT_SIDE) {
    throw invalidArgument(`Expected box size × scale to be at most ${MAX_OUTPUT_SIDE} px per side but received ${pixelWidth}×${pixelHeight}`)
  }
  return { width, height, fit, focus: { x: focus.x, y: focus.y }, scale, pixelWidth, pixelHeight }
}

/**
 * Plans the crop and output size for a `source` of the given (oriented) size.
 * - cover: the largest region with the box's aspect ratio, placed so that the focus point is as
 *   close to its centre as the image edges allow; focus {0,0} keeps the top-left corner.
 * - contain: the whole image, scaled to fit inside the box.
 * - fill: the whole image, stretched to the box.
 *
 * @example
 * planResize({ width: 1000, height: 500 }, normalizeBox({ width: 300, height: 200, fit: 'contain' }))
 * // { extract: undefined, pixelWidth: 300, pixelHeight: 150, width: 300, height: 150 }
 */
export function planResize(source: { width: number; height: number }, box: NormalizedBox): ResizePlan {
  const { width: sourceWidth, height: sourceHeight } = source

  if (box.fit === 'contain') {
    const factor = Math.min(box.width / sourceWidth, box.height / sourceHeight)
    const width = Math.min(box.width, sourceWidth * factor)
    const height = Math.min(box.height, sourceHeight * factor)
    return {
      extract: undefined,
      pixelWidth: Math.max(1, Math.min(box.pixelWidth, Math.round(width * box.scale))),
      pixelHeight: Math.max(1, Math.min(box.pixelHeight, Math.round(height * box.scale))),
      width,
      height,
    }
  }

  const covered = { pixelWidth: box.pixelWidth, pixelHeight: box.pixelHeight, width: box.width, height: box.height }
  if (box.fit === 'fill') return { extract: undefined, ...covered }

  const aspect = box.pixelWidth / box.pixelHeight
  const cropWidth = sourceWidth / sourceHeight > aspect ? clamp(Math.round(sourceHeight * aspect), 1, sourceWidth) : sourceWidth
  const cropHeight = sourceWidth / sourceHeight > aspect ? sourceHeight : clamp(Math.round(sourceWidth / aspect), 1, sourceHeight)
  if (cropWidth === sourceWidth && cropHeight === sourceHeight) return { extract: undefined, ...covered }
  const left = clamp(Math.round(box.focus.x * sourceWidth - cropWidth / 2), 0, sourceWidth - cropWidth)
  const top = clamp(Math.round(box.focus.y * sourceHeight - cropHeight / 2), 0, sourceHeight - cropHeight)
  return { extract: { left, top, width: cropWidth, height: cropHeight }, ...covered }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}
