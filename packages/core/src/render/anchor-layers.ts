/**
 * Keeps resvg 2.6.2 from aborting the process on layers that lie far outside the canvas.
 *
 * resvg paints every element with an opacity, clip-path, mask, filter, blend mode or
 * isolation into an offscreen layer the size of the element's content box, clamped to four
 * times the canvas (from -2x to +2x its width and height). When the content box lies wholly
 * outside that area the clamp is empty and resvg unwraps `None` (`geom.rs:27`,
 * `fit_to_rect`): a Rust panic, which Node cannot catch and which kills the whole process,
 * worker threads included (thx/resvg-js#413). satori produces such layers for any clipped,
 * rounded, rotated or translucent component whose painted content ends up far off the
 * canvas: on a 1198x10 variation the band is only 20 px either side vertically, so an
 * image rotated -32° half on the canvas is enough (its rotated clip and border layers sit
 * below it).
 *
 * The fix: every layer gets a transparent 1x1 "anchor" rectangle at the canvas origin, in
 * its own coordinates. Its content box then always contains the canvas origin, so the
 * clamp is never empty; nested layers, which resvg positions relative to their parent
 * layer (itself clamped to contain the origin), contain it too. The anchor is fully
 * transparent, so no pixel changes; the cost is layers that grow to reach the origin (34 to
 * 55 ms of resvg on the reference card), so {@link needsAnchors} keeps the fix to the SVGs
 * that can meet the abort at all.
 *
 * @module render/anchor-layers
 */

/** A box in canvas pixels, as resvg's `getBBox()` gives it. */
export interface CanvasBox {
  x: number
  y: number
  width: number
  height: number
}

// Below this side a layer's 2 px padding is a large share of the band: always anchor.
const MIN_FAST_SIDE = 64

/**
 * Whether an SVG must go through {@link anchorLayers} (and a child process) before resvg
 * renders it. False only when the abort is impossible: everything painted (`box`, resvg's
 * transformed bounding box of the whole tree, undefined when nothing is visible) lies within a
 * quarter of the canvas around it; then no layer is clamped, every layer intersects the canvas,
 * and a nested layer sits at most 1.5x the canvas from its parent's corner, inside resvg's band
 * of 2x (measured on resvg-js 2.6.2: a translucent 5x5 square on a 100x20 canvas renders at
 * y = 40 and aborts at y = 45). A filter's region reaches beyond what is painted, so with
 * filters the content must lie on the canvas itself and every region stay within half its
 * element's size around it, as satori's shadows do (e.g. `x="-7.75%" width="137.89%"`):
 * regions then reach at most half the canvas beyond it, and a nested layer at most 1.5x.
 *
 * @example
 * needsAnchors(svg, new Resvg(svg).getBBox(), 1080, 1080) // false for an ordinary card
 */
export function needsAnchors(svg: string, box: CanvasBox | undefined, width: number, height: number): boolean {
  if (Math.min(width, height) < MIN_FAST_SIDE) return true
  const filtered = /<filter\b/.test(svg)
  if (filtered && !filterRegionsStayClose(svg)) return true
  if (box === undefined) return false
  const margin = filtered ? 0 : 1 / 4
  const [dx, dy] = [width * margin, height * margin]
  return !(box.x >= -dx && box.y >= -dy && box.x + box.width <= width + dx && box.y + box.height <= height + dy)
}

/** Every `<filter>` region is relative to its element and at most half the element's size beyond it. */
function filterRegionsStayClose(svg: string): boolean {
  for (const [tag] of svg.matchAll(/<filter\b[^<>]*>/g)) {
    for (const [, name, value] of tag.matchAll(/\s(x|y|width|height|filterUnits)="([^"]*)"/g)) {
      if (name === 'filterUnits') {
        if (value !== 'objectBoundingBox') return false
        continue
      }
      const percent = /^(-?\d+(?:\.\d+)?)%$/.exec(value!)
      if (!percent) return false
      const n = Number(percent[1])
      if ((name === 'x' || name === 'y') && n < -50) return false
      if ((name === 'width' || name === 'height') && n > 200) return false
    }
  }
  return true
}

/** An affine transform [a, b, c, d, e, f], as in SVG's `matrix()`. */
type Matrix = readonly [number, number, number, number, number, number]

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0]

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
]

const TRANSFORM_ITEM = /(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^()]*)\)/g

/** Parses an SVG transform list; `undefined` when it holds no usable number. */
export function parseTransform(list: string): Matrix | undefined {
  let m = IDENTITY
  for (const [, name, args] of list.matchAll(TRANSFORM_ITEM)) {
    const v = args!.split(/[\s,]+/).filter(Boolean).map(Number)
    if (v.some((n) => !Number.isFinite(n))) return undefined
    const rad = ((v[0] ?? 0) * Math.PI) / 180
    let t: Matrix
    switch (name) {
      case 'matrix':
        if (v.length !== 6) return undefined
        t = v as unknown as Matrix
        break
      case 'translate':
        t = [1, 0, 0, 1, v[0] ?? 0, v[1] ?? 0]
        break
      case 'scale':
        t = [v[0] ?? 1, 0, 0, v[1] ?? v[0] ?? 1, 0, 0]
        break
      case 'rotate': {
        const [cx, cy] = [v[1] ?? 0, v[2] ?? 0]
        const r: Matrix = [Math.cos(rad), Math.sin(rad), -Math.sin(rad), Math.cos(rad), 0, 0]
        t = multiply(multiply([1, 0, 0, 1, cx, cy], r), [1, 0, 0, 1, -cx, -cy])
        break
      }
      case 'skewX':
        t = [1, 0, Math.tan(rad), 1, 0, 0]
        break
      default:
        t = [1, Math.tan(rad), 0, 1, 0, 0]
    }
    m = multiply(m, t)
  }
  return m
}

/** The point that `m` maps to the canvas origin, or `undefined` when `m` is singular. */
function originUnder(m: Matrix): { x: number; y: number } | undefined {
  const det = m[0] * m[3] - m[1] * m[2]
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return undefined
  const x = (m[2] * m[5] - m[3] * m[4]) / det
  const y = (m[1] * m[4] - m[0] * m[5]) / det
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y } : undefined
}

// Rounded (and -0 made 0) so that the SVG stays short; a thousandth of a pixel changes nothing.
const short = (n: number): number => Math.round(n * 1000) / 1000 + 0
const anchorAt = (p: { x: number; y: number }): string => `<rect x="${short(p.x)}" y="${short(p.y)}" width="1" height="1" fill-opacity="0"/>`

// Attributes that make usvg put an element in a layer of its own. The style test is a lookahead,
// so that a long style attribute is scanned once, not once per split (test/security/redos.test.ts).
const LAYER_ATTR = / (?:opacity="(?!1")[^"]*"|clip-path="[^"]*"|mask="[^"]*"|filter="[^"]*"|style="(?=[^"]*(?:isolation|mix-blend-mode))[^"]*")/g
const TRANSFORM_ATTR = / transform="([^"]*)"/
// Elements whose own attributes never make a layer, or whose content is no layer.
const NOT_PAINTED = new Set(['svg', 'defs', 'linearGradient', 'radialGradient', 'stop', 'clipPath', 'mask', 'pattern', 'filter', 'title', 'desc', 'style'])

interface Frame {
  name: string
  ctm: Matrix | undefined
  /** Inside a clipPath: geometry there is clip geometry, anchors would widen the clip. */
  inClip: boolean
  /** Closes the wrapping group added around a non-empty element. */
  close: string
}

/**
 * Gives every layer of a satori SVG a transparent anchor at the canvas origin (see the
 * module comment); elements that would be layered under a singular transform paint nothing
 * and are dropped. Linear in the SVG's length: one scan over tags.
 *
 * @example
 * anchorLayers('<svg width="9" height="9"><g opacity="0.5"><path d="M90 90h1v1z"/></g></svg>')
 * // '<svg width="9" height="9"><g opacity="0.5"><rect x="0" y="0" width="1" height="1" fill-opacity="0"/><path d="M90 90h1v1z"/></g></svg>'
 */
export function anchorLayers(svg: string): string {
  const stack: Frame[] = []
  let out = ''
  let last = 0
  // Depth of an element being dropped (singular transform); its whole subtree goes.
  let dropping = 0
  for (const m of svg.matchAll(/<(\/?)([A-Za-z][\w:-]*)((?:\s[^<>]*?)?)(\/?)>/g)) {
    const [tag, closing, name, attrs, selfClosing] = m as unknown as [string, string, string, string, string]
    if (dropping === 0) out += svg.slice(last, m.index)
    last = m.index + tag.length
    if (closing) {
      if (dropping > 0) {
        dropping--
        continue
      }
      const frame = stack.pop()
      out += tag + (frame?.close ?? '')
      continue
    }
    if (dropping > 0) {
      if (!selfClosing) dropping++
      continue
    }
    const parent = stack[stack.length - 1]
    const inClip = (parent?.inClip ?? false) || name === 'clipPath'
    // Pattern content is drawn in its own tile space, from the tile's origin.
    const base = name === 'pattern' ? IDENTITY : (parent?.ctm ?? IDENTITY)
    const own = TRANSFORM_ATTR.exec(attrs)
    const ownMatrix = own ? parseTransform(own[1]!) : IDENTITY
    const ctm = base && ownMatrix ? multiply(base, ownMatrix) : undefined
    const layered = !inClip && !NOT_PAINTED.has(name) && LAYER_ATTR.test(attrs)
    LAYER_ATTR.lastIndex = 0
    if (!layered) {
      out += tag
      if (!selfClosing) stack.push({ name, ctm, inClip, close: '' })
      continue
    }
    const origin = ctm && originUnder(ctm)
    if (!origin) {
      // Under a singular (or unreadable) transform the content has no area: nothing to paint.
      if (!selfClosing) dropping = 1
      continue
    }
    const anchor = anchorAt(origin)
    if (name === 'g') {
      out += tag + (selfClosing ? '' : anchor)
      if (!selfClosing) stack.push({ name, ctm, inClip, close: '' })
      continue
    }
    // A leaf (path, rect, image…) cannot hold the anchor: a group takes over its layer
    // attributes and its transform (clip-path and mask are in the transformed space), and
    // holds the anchor and the element.
    const layer = [...attrs.matchAll(LAYER_ATTR)].map((a) => a[0]).join('') + (own ? own[0] : '')
    const rest = attrs.replace(LAYER_ATTR, '').replace(TRANSFORM_ATTR, '')
    LAYER_ATTR.lastIndex = 0
    out += `<g${layer}>${anchor}<${name}${rest}${selfClosing ? '/>' : '>'}${selfClosing ? '</g>' : ''}`
    if (!selfClosing) stack.push({ name, ctm, inClip, close: '</g>' })
  }
  if (dropping === 0) out += svg.slice(last)
  return out
}
