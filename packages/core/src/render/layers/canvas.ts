/**
 * The canvases the layered path composites into, reused from render to render with what they
 * hold. A canvas remembers the bottom layer it was made from and the rectangles painted over it
 * since: the next render of the same bottom layer restores only those rectangles instead of
 * copying the whole layer, and a top layer that is already there (the same cached layer, clear
 * of the dynamic run then and now) is not painted again. The pixels are the same either way:
 * each rectangle restored is the bottom layer's own bytes, and the rest was never touched.
 *
 * @module render/layers/canvas
 */
import type { RasterRegion } from '../encode.js'
import { allocFramedRgb } from '../fast-png.js'
import { paintOver } from './composite.js'

/** A canvas to composite into: `pixels` holds `width × height × channels` bytes. */
export interface Canvas {
  width: number
  height: number
  /** 3: opaque RGB; 4: premultiplied RGBA. */
  channels: 3 | 4
  pixels: Buffer
  /** `pixels` with room for a PPM header in front (RGB canvases), see fast-png.ts. */
  framed?: Buffer
}

type Rect = Pick<RasterRegion, 'x' | 'y' | 'width' | 'height'>

/** A canvas with what it holds: `base` (or transparent) with `dirty` painted over, and `top` on it. */
interface Held {
  canvas: Canvas
  base: Buffer | undefined
  dirty: Rect[]
  /** A top layer painted last, over nothing else that render: its rectangle is `top` over `base`. */
  top: RasterRegion | undefined
}

// One canvas per size and kind: a fresh 4.7 MB Buffer per render of a 1080x1080 card leaves
// garbage that the GC reclaims late, which showed as peak RSS, and a pool worker renders one
// document at a time. A render that finds it taken (in-process renders in flight) makes its own.
const spare = new Map<string, Held>()
// What each canvas in use holds, until it is released.
const inUse = new WeakMap<Canvas, Held>()
const sizeKey = (width: number, height: number, channels: number): string => `${width}x${height}x${channels}`

const overlaps = (a: Rect, b: Rect): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** Puts `rect` of `base` (or transparent) back into the canvas. */
function restore(canvas: Canvas, base: Buffer | undefined, rect: Rect): void {
  const n = canvas.channels
  for (let row = rect.y; row < rect.y + rect.height; row++) {
    const start = (row * canvas.width + rect.x) * n
    const end = start + rect.width * n
    if (base) base.copy(canvas.pixels, start, start, end)
    else canvas.pixels.fill(0, start, end)
  }
}

function newCanvas(width: number, height: number, channels: 3 | 4): Canvas {
  if (channels === 4) return { width, height, channels, pixels: Buffer.allocUnsafe(width * height * 4) }
  return { width, height, channels, ...allocFramedRgb(width, height) }
}

/**
 * Composites `base` (the bottom layer, whole canvas, in the canvas's channels; transparent when
 * undefined), then `dynamic`, then `top` into a canvas; give it back with {@link releaseCanvas}
 * once it is encoded.
 *
 * @example const canvas = compositeLayers(1080, 1080, 3, below.pixels, title, above)
 */
export function compositeLayers(width: number, height: number, channels: 3 | 4, base: Buffer | undefined, dynamic: RasterRegion | undefined, top: RasterRegion | undefined): Canvas {
  const key = sizeKey(width, height, channels)
  const held = spare.get(key)
  spare.delete(key)
  const canvas = held?.canvas ?? newCanvas(width, height, channels)
  let topThere = false
  if (held && held.base === base) {
    for (const rect of held.dirty) restore(canvas, base, rect)
    topThere = held.top !== undefined && held.top === top && !(dynamic && overlaps(dynamic, top))
    if (held.top && !topThere) restore(canvas, base, held.top)
  } else if (base) base.copy(canvas.pixels)
  else canvas.pixels.fill(0)
  if (dynamic) paintOver(canvas, dynamic)
  if (top && !topThere) paintOver(canvas, top)
  // The top layer's rectangle stays `top over base` only when nothing else was painted in it.
  const clean = top && !(dynamic && overlaps(dynamic, top)) ? top : undefined
  const dirty = [dynamic, clean ? undefined : top].filter((r): r is RasterRegion => r !== undefined).map(({ x, y, width: w, height: h }) => ({ x, y, width: w, height: h }))
  inUse.set(canvas, { canvas, base, dirty, top: clean })
  return canvas
}

/** Returns a canvas from {@link compositeLayers} once nothing reads it any more. */
export function releaseCanvas(canvas: Canvas): void {
  const held = inUse.get(canvas)
  inUse.delete(canvas)
  const key = sizeKey(canvas.width, canvas.height, canvas.channels)
  if (held && !spare.has(key)) spare.set(key, held)
}

/** Drops the spare canvases (tests that need a fresh canvas). */
export function clearCanvases(): void {
  spare.clear()
}
