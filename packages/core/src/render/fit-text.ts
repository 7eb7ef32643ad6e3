/**
 * Text measurement for `autoFit` and `maxLines`. Sizes are measured by satori itself
 * (its `onNodeDetected` reports each laid-out node), so what fits here fits in the render:
 * no second text engine that could disagree about line breaks.
 *
 * @module render/fit-text
 */
import satori from 'satori'
import { LRUCache } from 'lru-cache'
import type { TextComponent } from '../design/schema.js'
import type { RenderWarning } from './types.js'
import { innerSize, textStyle, type SatoriElement } from './build-tree.js'
import type { FontSelection } from './fonts/font-library.js'

interface Measure {
  /** Height of the unclamped text block. */
  height: number
  /** Width of the widest word (a word wider than the box would be broken mid-word). */
  widest: number
}

interface FitResult {
  size: number
  lines: number
  fits: boolean
}

// Fitting is a pure function of the text, its style and its box, and costs several
// satori passes; 2,000 entries of ~100 bytes each cover every template a worker serves.
const fitCache = new LRUCache<string, FitResult>({ max: 2000 })

function lineHeightPx(component: TextComponent, size: number): number {
  // satori rounds line heights to whole pixels.
  return Math.max(1, Math.round(size * component.lineHeight))
}

async function measureAll(
  items: ReadonlyArray<{ component: TextComponent; size: number }>,
  fonts: FontSelection,
): Promise<Measure[]> {
  const children: SatoriElement[] = []
  items.forEach(({ component, size }, i) => {
    const inner = innerSize(component)
    const style = textStyle(component, fonts.familyFor, size)
    children.push({
      type: 'div',
      key: `h${i}`,
      props: { style: { ...style, position: 'absolute', left: 0, top: 0, width: Math.max(inner.width, 1) }, children: component.text },
    })
    // The same text in a min-content box: satori breaks it at every opportunity its own line
    // breaker finds (spaces, hyphens, soft hyphens, after slashes, between CJK characters and
    // emoji) and, as in CSS, overflowWrap: break-word does not split words there, so the width
    // is that of the widest piece the drawing cannot break without splitting a word.
    children.push({
      type: 'div',
      key: `w${i}`,
      props: { style: { ...style, position: 'absolute', left: 0, top: 0, width: 'min-content' }, children: component.text },
    })
  })
  const measures: Measure[] = items.map(() => ({ height: 0, widest: 0 }))
  await satori({ type: 'div', props: { style: { display: 'flex', position: 'relative', width: 10, height: 10 }, children } } as never, {
    width: 10,
    height: 10,
    fonts: fonts.fonts,
    loadAdditionalAsset: fonts.loadAdditionalAsset,
    onNodeDetected: (node) => {
      const key = typeof node.key === 'string' ? node.key : ''
      const index = Number(key.slice(1))
      if (key.startsWith('h')) measures[index]!.height = node.height
      else if (key.startsWith('w')) measures[index]!.widest = node.width
    },
  })
  return measures
}

function check(component: TextComponent, size: number, measure: Measure): FitResult {
  const inner = innerSize(component)
  const lines = Math.round(measure.height / lineHeightPx(component, size))
  const shownLines = component.maxLines ? Math.min(lines, component.maxLines) : lines
  const height = shownLines * lineHeightPx(component, size)
  const fits = height <= inner.height + 0.5 && measure.widest <= inner.width + 0.5 && (!component.maxLines || lines <= component.maxLines)
  return { size, lines, fits }
}

function cacheKey(component: TextComponent, fonts: FontSelection): string {
  const inner = innerSize(component)
  return JSON.stringify([
    component.text,
    fonts.familyFor(component.fontFamily),
    component.fontWeight,
    component.fontStyle,
    component.fontSize,
    component.autoFit?.min ?? null,
    component.maxLines ?? null,
    component.lineHeight,
    component.letterSpacing,
    component.textTransform,
    component.direction,
    inner.width,
    inner.height,
  ])
}

/**
 * Fits every text component that has `autoFit`: the largest whole-pixel size from
 * `fontSize` down to `autoFit.min` at which the text fits its box (within `maxLines`, if
 * set) without breaking a word, so the render can also say what was shrunk or cut.
 * Components are measured together, one satori pass per step of a shared bisection.
 */
export async function fitTexts(
  components: readonly TextComponent[],
  fonts: FontSelection,
): Promise<{ sizes: Map<string, number>; warnings: RenderWarning[] }> {
  const sizes = new Map<string, number>()
  const warnings: RenderWarning[] = []
  const results = new Map<TextComponent, FitResult>()
  const pending: TextComponent[] = []
  for (const component of components) {
    // maxLines alone is measured in the render pass itself (see twinNodeKey).
    if (!component.autoFit) continue
    const hit = fitCache.get(cacheKey(component, fonts))
    if (hit) results.set(component, hit)
    else pending.push(component)
  }

  if (pending.length > 0) {
    // Step 1: everything at its own fontSize; most texts fit and are done.
    const first = await measureAll(pending.map((component) => ({ component, size: component.fontSize })), fonts)
    const searching: Array<{ component: TextComponent; lo: number; hi: number; best: FitResult }> = []
    pending.forEach((component, i) => {
      const result = check(component, component.fontSize, first[i]!)
      const min = Math.min(component.autoFit?.min ?? component.fontSize, component.fontSize)
      if (result.fits || !component.autoFit || min >= component.fontSize) results.set(component, result)
      else searching.push({ component, lo: min, hi: component.fontSize - 1, best: { size: min, lines: result.lines, fits: false } })
    })
    // Step 2: bisection on whole pixels, all components in the same passes.
    while (searching.some((s) => s.lo <= s.hi)) {
      const active = searching.filter((s) => s.lo <= s.hi)
      const mids = active.map((s) => Math.floor((s.lo + s.hi) / 2))
      const measures = await measureAll(active.map((s, i) => ({ component: s.component, size: mids[i]! })), fonts)
      active.forEach((s, i) => {
        const result = check(s.component, mids[i]!, measures[i]!)
        if (result.fits) {
          s.best = result
          s.lo = mids[i]! + 1
        } else s.hi = mids[i]! - 1
      })
    }
    // The minimum itself may not fit: measure it to report what happens there.
    const unfit = searching.filter((s) => !s.best.fits)
    if (unfit.length > 0) {
      const measures = await measureAll(unfit.map((s) => ({ component: s.component, size: s.best.size })), fonts)
      unfit.forEach((s, i) => (s.best = check(s.component, s.best.size, measures[i]!)))
    }
    for (const s of searching) results.set(s.component, s.best)
    for (const [component, result] of results) fitCache.set(cacheKey(component, fonts), result)
  }

  // In document order, whichever results came from the cache: warnings must not depend on it.
  for (const component of components) {
    const result = results.get(component)
    if (!result) continue
    const key = component.key
    if (component.autoFit) sizes.set(key, result.size)
    if (component.autoFit && result.size < component.fontSize && result.fits)
      warnings.push({ code: 'text_shrunk', key, message: `${key}: text shrunk from ${component.fontSize}px to ${result.size}px to fit its box` })
    if (component.maxLines && result.lines > component.maxLines)
      warnings.push({ code: 'text_cut', key, message: `${key}: text cut to ${component.maxLines} of ${result.lines} lines` })
    else if (component.autoFit && !result.fits)
      warnings.push({ code: 'text_overflow', key, message: `${key}: text does not fit its box even at autoFit.min (${result.size}px)` })
  }
  return { sizes, warnings }
}
