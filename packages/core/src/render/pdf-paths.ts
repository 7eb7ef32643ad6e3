/**
 * A fast lane for satori's text (and QR codes) in PDFs. satori draws text as glyph outlines, one
 * `<path fill="#rrggbb" d="M… L… Q… Z"/>` per run of glyphs, and svg-to-pdfkit spent most of a
 * card's PDF on them (parsing each number with a regex and a substring, measuring every curve
 * for path lengths no fill uses): about 40 of 57 ms on the reference card, and 7 more on its
 * QR code (`<path d="M1 1h7v1h-7z…" fill="#000000"/>`). {@link fastGlyphPaths}
 * writes the same PDF path operators itself, number for number, and leaves everything else of
 * the element (save, fill colour, opacity state, fill, restore) to svg-to-pdfkit, so the PDF
 * bytes do not change (packages/core/test/render/pdf-paths.test.ts compares them on every
 * golden scene and reference design).
 *
 * How: each such path is replaced by a placeholder of the same element whose outline is
 * `M<SENTINEL> <n> h1`; svg-to-pdfkit draws it in document order, and the `moveTo` of the
 * document (see {@link interceptPlaceholders}) writes path `n`'s operators instead of the
 * placeholder's. Only paths whose styles cannot depend on their outline are taken: exactly a
 * solid `fill` and `d`, under `<g>` elements without attributes and nested `<svg>` elements
 * with only their geometry, in a root `<svg>` with no presentation attributes and no `<style>`. Nothing inherited can then stroke them, clip or
 * mask them (which would measure their bounding box) or paint them with a pattern.
 *
 * @module render/pdf-paths
 */

import { LRUCache } from 'lru-cache'

// The placeholder's x; a design's coordinates stay within a few thousand pixels of its canvas.
const SENTINEL = -98765432.5

const ATTRIBUTE = /\s([A-Za-z:-]+)="([^"]*)"/g
const SOLID_FILL = /^#[0-9a-fA-F]{6}$/
const OUTLINE = /^[0-9MLQCZHVmlqczhv.,eE+\- \t\n\r]*$/
// What a root <svg>, and a nested one (an inlined QR code or barcode), may carry: geometry only.
const ROOT_ATTRIBUTES = new Set(['width', 'height', 'viewBox', 'xmlns', 'xmlns:xlink'])
const NESTED_ATTRIBUTES = new Set(['x', 'y', 'width', 'height', 'viewBox', 'preserveAspectRatio'])

// The operators of recent outlines, keyed by the outline itself: a design's static texts (a
// subtitle, a badge) come back on every render, only the overridden ones are new. Bounded in
// characters (one byte each: both strings are ASCII), about 8 MiB per render thread: a 1080 px
// card's texts take 150 KB. '' marks an outline left to svg-to-pdfkit (one that draws nothing
// goes there too: rare, and correct either way).
const CACHE_CHARS = 8 * 1024 * 1024
const opsCache = new LRUCache<string, string>({ maxSize: CACHE_CHARS, sizeCalculation: (ops, d) => Math.max(1, d.length + ops.length) })

/** An SVG whose glyph paths were replaced by placeholders, and the operators of each. */
export interface FastGlyphPaths {
  svg: string
  /** The PDF path operators of placeholder `n`, `\n`-separated. */
  ops: string[]
}

/**
 * Replaces the glyph paths of `svg` (see the module comment for which) by placeholders and
 * returns the PDF operators svg-to-pdfkit would have written for each. `undefined` when
 * nothing was taken.
 */
export function fastGlyphPaths(svg: string): FastGlyphPaths | undefined {
  // A <use> could draw a placeholder twice (the second would not be swapped); a style sheet
  // could restyle a path: neither is in satori's output, and either leaves the lane unused.
  if (svg.includes('<style') || svg.includes('<use') || svg.includes('<!')) return undefined
  const ops: string[] = []
  const out: string[] = []
  // Whether every open element is the root or a bare <g>; one entry per open element.
  const plain: boolean[] = []
  let copied = 0
  let at = svg.indexOf('<')
  while (at !== -1) {
    const end = tagEnd(svg, at)
    if (end === -1) return undefined
    const tag = svg.slice(at + 1, end)
    if (tag.startsWith('/')) plain.pop()
    else if (!tag.startsWith('?')) {
      const selfClosing = tag.endsWith('/')
      const name = /^[A-Za-z][\w:-]*/.exec(tag)?.[0] ?? ''
      const attrs = tag.slice(name.length)
      const parentPlain = plain.length > 0 && plain[plain.length - 1]!
      if (plain.length === 0) {
        if (name !== 'svg' || selfClosing) return undefined
        plain.push(attributesOf(attrs, ROOT_ATTRIBUTES) !== undefined)
      } else if (selfClosing) {
        const path = name === 'path' && parentPlain ? attributesOf(attrs.slice(0, -1), new Set(['fill', 'd'])) : undefined
        const fill = path?.get('fill')
        const d = path?.get('d')
        const pathOps = path?.size === 2 && SOLID_FILL.test(fill!) && OUTLINE.test(d!) ? cachedOperators(d!) : undefined
        if (pathOps !== undefined) {
          out.push(svg.slice(copied, at), `<path fill="${fill}" d="M${SENTINEL} ${ops.length}h1"/>`)
          copied = end + 1
          ops.push(pathOps)
        }
      } else {
        const bare = (name === 'g' && attrs.trim() === '') || (name === 'svg' && attributesOf(attrs, NESTED_ATTRIBUTES) !== undefined)
        plain.push(parentPlain && bare)
      }
    }
    at = svg.indexOf('<', end + 1)
  }
  if (ops.length === 0) return undefined
  out.push(svg.slice(copied))
  return { svg: out.join(''), ops }
}

/** {@link pathOperators} through the cache above. */
function cachedOperators(d: string): string | undefined {
  const hit = opsCache.get(d)
  if (hit !== undefined) return hit === '' ? undefined : hit
  const ops = pathOperators(d)
  opsCache.set(d, ops ?? '')
  return ops === '' ? undefined : ops
}

/** The index of the `>` that ends the tag opened at `start`, skipping quoted values; -1 if none. */
function tagEnd(svg: string, start: number): number {
  let from = start + 1
  for (;;) {
    const close = svg.indexOf('>', from)
    const quote = svg.indexOf('"', from)
    if (close === -1 || quote === -1 || close < quote) return close
    const closing = svg.indexOf('"', quote + 1)
    if (closing === -1) return -1
    from = closing + 1
  }
}

/**
 * The attributes of a tag (the text after its name) by name, when they are all `name="value"`
 * pairs with names in `allowed`; `undefined` otherwise.
 */
function attributesOf(attrs: string, allowed: ReadonlySet<string>): Map<string, string> | undefined {
  const found = new Map<string, string>()
  let length = 0
  for (const m of attrs.matchAll(ATTRIBUTE)) {
    if (!allowed.has(m[1]!) || found.has(m[1]!)) return undefined
    found.set(m[1]!, m[2]!)
    length += m[0].length
  }
  return attrs.trim().length === 0 || attrs.trimEnd().length === length ? found : undefined
}

const ARGUMENTS: Record<string, number> = { M: 2, L: 2, H: 1, V: 1, Q: 4, C: 6, Z: 0, m: 2, l: 2, h: 1, v: 1, q: 4, c: 6, z: 0 }

/** Thrown by {@link fmt} where pdfkit would throw; {@link pathOperators} then gives up. */
const OUT_OF_RANGE = new Error('unsupported number')

/** A number as pdfkit writes it (PDFObject.number: rounded to 6 decimals). */
function fmt(n: number): string {
  if (!(n > -1e21 && n < 1e21)) throw OUT_OF_RANGE
  return `${Math.round(n * 1e6) / 1e6}`
}

/**
 * The operators svg-to-pdfkit writes to fill the outline `d` (M, L, H, V, Q, C, Z, absolute or
 * relative; no arcs, no smooth curves): relative coordinates added up, quadratic curves raised to cubic ones with its arithmetic, sub-paths of zero length left
 * out (it draws only sub-paths whose measured length is above zero), numbers rounded as pdfkit
 * rounds them. `undefined` for anything else (another command, a malformed list), which then
 * takes svg-to-pdfkit's own way.
 */
export function pathOperators(d: string): string | undefined {
  const s = d.trim()
  let out = ''
  // The current sub-path (from one move to the next), each operator after a "\n".
  let sub = ''
  let drawn = false
  let x = 0, y = 0, startX = 0, startY = 0
  const line = (ex: number, ey: number): void => {
    if (!drawn && Math.sqrt((ex - x) * (ex - x) + (ey - y) * (ey - y)) > 0) drawn = true
    x = ex
    y = ey
  }
  const curve = (c1x: number, c1y: number, c2x: number, c2y: number, ex: number, ey: number): void => {
    sub += `\n${fmt(c1x)} ${fmt(c1y)} ${fmt(c2x)} ${fmt(c2y)} ${fmt(ex)} ${fmt(ey)} c`
    if (!drawn && curveLength(x, y, c1x, c1y, c2x, c2y, ex, ey) > 0) drawn = true
    x = ex
    y = ey
  }
  const apply = (command: string, v: number[]): void => {
    // Relative commands and H, V become absolute ones with svg-to-pdfkit's own sums.
    switch (command) {
      case 'M':
        if (drawn) out += sub
        sub = `\n${fmt(v[0]!)} ${fmt(v[1]!)} m`
        drawn = false
        startX = x = v[0]!
        startY = y = v[1]!
        return
      case 'm':
        return apply('M', [x + v[0]!, y + v[1]!])
      case 'L':
        sub += `\n${fmt(v[0]!)} ${fmt(v[1]!)} l`
        return line(v[0]!, v[1]!)
      case 'l':
        return apply('L', [x + v[0]!, y + v[1]!])
      case 'H':
        return apply('L', [v[0]!, y])
      case 'h':
        return apply('L', [x + v[0]!, y])
      case 'V':
        return apply('L', [x, v[0]!])
      case 'v':
        return apply('L', [x, y + v[0]!])
      case 'Q': {
        const [cx, cy, ex, ey] = v as [number, number, number, number]
        return curve(x + 2 / 3 * (cx - x), y + 2 / 3 * (cy - y), ex + 2 / 3 * (cx - ex), ey + 2 / 3 * (cy - ey), ex, ey)
      }
      case 'q':
        return apply('Q', [x + v[0]!, y + v[1]!, x + v[2]!, y + v[3]!])
      case 'C':
        return curve(v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!)
      case 'c':
        return apply('C', [x + v[0]!, y + v[1]!, x + v[2]!, y + v[3]!, x + v[4]!, y + v[5]!])
      default:
        sub += '\nh'
        line(startX, startY)
    }
  }
  // svg-to-pdfkit's grammar (SvgShape.path): a command letter, then numbers, each followed by
  // an optional separator (spaces around at most one comma); scanned by hand, the same tokens.
  let at = 0
  const separator = (): void => {
    at = skipSpaces(s, at)
    if (s.charCodeAt(at) === 44) at = skipSpaces(s, at + 1)
  }
  try {
    while (at < s.length) {
      let command = s[at]!
      if (ARGUMENTS[command] === undefined) return undefined
      at++
      separator()
      let values: number[] = []
      for (let end = numberEnd(s, at); end > at; end = numberEnd(s, at)) {
        const value = Number(s.slice(at, end))
        at = end
        separator()
        if (values.length === ARGUMENTS[command]) {
          apply(command, values)
          values = []
          if (command === 'M') command = 'L'
          else if (command === 'm') command = 'l'
        }
        values.push(value)
      }
      if (values.length !== ARGUMENTS[command]) return undefined
      apply(command, values)
    }
  } catch (error) {
    if (error === OUT_OF_RANGE) return undefined
    throw error
  }
  if (drawn) out += sub
  return out.slice(1)
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57

/** The index after the spaces (space, tab, CR, LF) from `at`. */
function skipSpaces(s: string, at: number): number {
  let c = s.charCodeAt(at)
  while (c === 32 || c === 9 || c === 10 || c === 13) c = s.charCodeAt(++at)
  return at
}

/**
 * The end of the number at `at` (`at` itself if there is none), as svg-to-pdfkit's pattern
 * `[-+]?(?:[0-9]+[.][0-9]+|[0-9]+[.]|[.][0-9]+|[0-9]+)(?:[eE][-+]?[0-9]+)?` matches it.
 */
function numberEnd(s: string, at: number): number {
  let i = at
  let c = s.charCodeAt(i)
  if (c === 43 || c === 45) c = s.charCodeAt(++i)
  const digitsFrom = i
  while (isDigit(c)) c = s.charCodeAt(++i)
  const intDigits = i > digitsFrom
  if (c === 46) {
    const dot = i
    c = s.charCodeAt(++i)
    while (isDigit(c)) c = s.charCodeAt(++i)
    if (!intDigits && i === dot + 1) return at
  } else if (!intDigits) return at
  if (c === 101 || c === 69) {
    let j = i + 1
    let e = s.charCodeAt(j)
    if (e === 43 || e === 45) e = s.charCodeAt(++j)
    const expFrom = j
    while (isDigit(e)) e = s.charCodeAt(++j)
    if (j > expFrom) i = j
  }
  return i
}

/** svg-to-pdfkit's BezierSegment length (precision 3: 18 divisions), stopping once above zero. */
function curveLength(p1x: number, p1y: number, c1x: number, c1y: number, c2x: number, c2y: number, p2x: number, p2y: number): number {
  const divisions = 18
  const dX = [-3 * p1x + 3 * c1x, 6 * p1x - 12 * c1x + 6 * c2x, -3 * p1x + 9 * c1x - 9 * c2x + 3 * p2x] as const
  const dY = [-3 * p1y + 3 * c1y, 6 * p1y - 12 * c1y + 6 * c2y, -3 * p1y + 9 * c1y - 9 * c2y + 3 * p2y] as const
  let length = 0
  for (let i = 1; i <= divisions && !(length > 0); i++) {
    const t = (i - 0.5) / divisions
    const dx = ((dX[0] || 0) + (dX[1] || 0) * t + (dX[2] || 0) * t * t) / divisions
    const dy = ((dY[0] || 0) + (dY[1] || 0) * t + (dY[2] || 0) * t * t) / divisions
    length += Math.sqrt(dx * dx + dy * dy)
  }
  return length
}

/** The slice of pdfkit's document that {@link interceptPlaceholders} replaces. */
interface PathWriter {
  moveTo(x: number, y: number): unknown
  lineTo(x: number, y: number): unknown
  addContent(data: string): unknown
}

/**
 * Makes `doc` write `ops[n]` where svg-to-pdfkit draws placeholder `n` (its `moveTo` and the
 * `lineTo` after it), in order; any other drawing goes through unchanged. Returns a function
 * that restores the document's own methods.
 */
export function interceptPlaceholders(doc: PathWriter, ops: readonly string[]): () => void {
  const { moveTo, lineTo } = doc
  let next = 0
  let skipLine = false
  doc.moveTo = function (x: number, y: number) {
    if (x === SENTINEL && y === next && next < ops.length) {
      const text = ops[next++]!
      if (text !== '') doc.addContent(text)
      skipLine = true
      return doc
    }
    return moveTo.call(doc, x, y)
  }
  doc.lineTo = function (x: number, y: number) {
    if (skipLine) {
      skipLine = false
      return doc
    }
    return lineTo.call(doc, x, y)
  }
  return () => {
    delete (doc as Partial<PathWriter>).moveTo
    delete (doc as Partial<PathWriter>).lineTo
  }
}
