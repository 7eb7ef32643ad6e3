/**
 * Chooses the font faces for one render and serves satori's requests for emoji and
 * missing glyphs. Font files are read once per process (or thread) and the same Buffer
 * and face objects are handed to satori on every call, because satori caches parsed fonts
 * by Buffer identity (a fresh Buffer costs 9-120 ms per call: docs/benchmarks.md).
 *
 * @module render/fonts/font-library
 */
import { readFileSync } from 'node:fs'
import { LithoError } from '../../errors.js'
import { LRUCache } from 'lru-cache'
import type { RenderWarning } from '../types.js'
import { CJK_FONTS_PACKAGE, loadCjkFamilies } from './cjk-fonts.js'
import { emojiDataUri } from './emoji.js'
import {
  FALLBACK_FAMILIES,
  GENERIC_FAMILIES,
  PRIMARY_FAMILIES,
  findBuiltinFamily,
  inRanges,
  subsetsOf,
  type BuiltinFamily,
  type FontSubset,
} from './builtin-fonts.js'

/** A face as satori takes it. */
export interface SatoriFont {
  name: string
  data: Buffer
  weight: 100 | 200 | 300 | 400 | 500 | 600 | 700 | 800 | 900
  style: 'normal' | 'italic'
  lang?: string
}

/** A custom face from a document's `fonts[]`. */
export interface CustomFontFace {
  family: string
  src: string
  weight: number
  style: 'normal' | 'italic'
}

/** Text drawn by one component with one face. */
export interface TextRun {
  key: string
  fontFamily: string
  weight: number
  style: 'normal' | 'italic'
  text: string
}

/** The fonts of one render. */
export interface FontSelection {
  /** Faces to pass to satori. */
  fonts: SatoriFont[]
  /** The satori `fontFamily` value for a component's `fontFamily`. */
  familyFor(fontFamily: string): string
  /** satori's `loadAdditionalAsset`: emoji images, and a warning for glyphs nobody has. */
  loadAdditionalAsset(code: string, segment: string): Promise<string | SatoriFont[]>
  /** Warnings found while choosing fonts (unknown families, characters no font covers). */
  warnings: RenderWarning[]
}

/** Loads the bytes of a custom font URL (https or data:); see `fetchRemote`. */
export type FontFetcher = (url: string) => Promise<Buffer>

// Built-in files: the set of installed subset files is fixed, so this map is bounded by it
// (in practice by what documents use: a few MB for Latin, up to ~15 MB with CJK).
const fileFaces = new Map<string, SatoriFont>()

/**
 * satori keeps one face per (name, weight, style), so each unicode-range subset needs a
 * name of its own: the family name for its latin subset (what documents name) and
 * "<family> <subset>" for the others, which the run's font-family list then names too.
 */
function faceName(subset: FontSubset): string {
  return subset.subset === 'latin' ? subset.family : `${subset.family} ${subset.subset}`
}

function faceOf(subset: FontSubset): SatoriFont {
  let face = fileFaces.get(subset.file)
  if (!face) {
    face = {
      name: faceName(subset),
      data: readFileSync(subset.file),
      weight: subset.weight as SatoriFont['weight'],
      style: subset.style,
      ...(subset.lang ? { lang: subset.lang } : {}),
    }
    fileFaces.set(subset.file, face)
  }
  return face
}

// Custom fonts by URL. Bounded by count and bytes because documents name arbitrary URLs:
// 64 faces / 64 MB holds every face of a busy tenant set without letting one grow memory.
// Kept 10 minutes at most, as remote images are (render/images/image-loader): a font changed at
// the same URL is fetched again, instead of for the life of the worker.
const customFaces = new LRUCache<string, Buffer>({ max: 64, maxSize: 64 * 1024 * 1024, sizeCalculation: (b) => Math.max(1, b.length), ttl: 10 * 60 * 1000 })
const inflight = new Map<string, Promise<Buffer>>()

// satori reads TTF, OTF, WOFF and WOFF2, not collections.
function assertFontBytes(bytes: Buffer, src: string): void {
  const tag = bytes.subarray(0, 4).toString('latin1')
  const ok = tag === 'wOFF' || tag === 'wOF2' || tag === 'OTTO' || tag === 'true' || bytes.readUInt32BE(0) === 0x00010000
  if (!ok) {
    const what = tag === 'ttcf' ? 'a font collection (.ttc), which is not supported; extract one face' : 'not a TTF, OTF, WOFF or WOFF2 font'
    throw new LithoError('ERR_FONT_FETCH', `${src.startsWith('data:') ? 'the data: font' : src} is ${what}`, { details: { url: src.slice(0, 200) } })
  }
}

async function loadCustom(face: CustomFontFace, fetchFont: FontFetcher): Promise<Buffer> {
  const cached = customFaces.get(face.src)
  if (cached) return cached
  let pending = inflight.get(face.src)
  if (!pending) {
    pending = fetchFont(face.src).then((bytes) => {
      assertFontBytes(bytes, face.src)
      customFaces.set(face.src, bytes)
      return bytes
    })
    inflight.set(face.src, pending)
    pending.finally(() => inflight.delete(face.src)).catch(() => {})
  }
  return pending
}

// Characters that need no glyph of their own: spaces, controls, joiners, variation selectors, marks.
const IGNORABLE = /[\p{White_Space}\p{Cc}\p{Cf}\p{Mn}\p{Me}\uFE00-\uFE0F]/u
const EMOJI = /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u

function splitFamilies(fontFamily: string): string[] {
  return fontFamily
    .split(',')
    .map((f) => f.trim().replace(/^["']|["']$/g, '').trim())
    .filter(Boolean)
}

/**
 * Chooses the faces for a render: for each run, the subsets of its family that its text
 * needs, then fallback families (Arabic, Hebrew, CJK) for characters the family lacks.
 * Custom faces named in `fonts[]` are fetched (once, cached) only when a run uses them.
 */
export async function selectFonts(runs: readonly TextRun[], customFonts: readonly CustomFontFace[], fetchFont: FontFetcher): Promise<FontSelection> {
  const cjkFamilies = await loadCjkFamilies()
  const fallbacks = cjkFamilies.length > 0 ? [...FALLBACK_FAMILIES, ...cjkFamilies] : FALLBACK_FAMILIES
  const missingGlyphs = (key: string | undefined, chars: string[]): RenderWarning => missingGlyphsWarning(key, chars, cjkFamilies.length > 0)
  const warnings: RenderWarning[] = []
  const chosen = new Set<SatoriFont>()
  const customByFamily = new Map<string, CustomFontFace[]>()
  for (const face of customFonts) {
    const list = customByFamily.get(face.family.toLowerCase()) ?? []
    list.push(face)
    customByFamily.set(face.family.toLowerCase(), list)
  }
  // fontFamily → the face names its runs need, in priority order.
  const familyNames = new Map<string, string[]>()
  const customLoads: Array<Promise<SatoriFont>> = []
  const requested = new Set<CustomFontFace>()

  for (const run of runs) {
    const names = splitFamilies(run.fontFamily)
    let primary: BuiltinFamily | undefined
    const css: string[] = []
    let custom = false
    for (const name of names) {
      const faces = customByFamily.get(name.toLowerCase())
      if (faces) {
        custom = true
        css.push(faces[0]!.family)
        for (const face of faces) {
          if (requested.has(face)) continue
          requested.add(face)
          customLoads.push(
            loadCustom(face, fetchFont).then((data) => ({ name: face.family, data, weight: face.weight as SatoriFont['weight'], style: face.style })),
          )
        }
        continue
      }
      const builtin = findBuiltinFamily(GENERIC_FAMILIES[name.toLowerCase()] ?? name, fallbacks)
      if (builtin && PRIMARY_FAMILIES.includes(builtin)) {
        primary ??= builtin
        css.push(builtin.name)
        continue
      }
      if (builtin) {
        css.push(builtin.name)
        continue
      }
      warnings.push({ code: 'font_fallback', key: run.key, message: `${run.key}: font family "${name}" is not available; add it to fonts[] (falling back to ${custom ? 'the next family' : 'Inter'})` })
    }
    primary ??= PRIMARY_FAMILIES[0]!
    if (!css.includes(primary.name)) css.push(primary.name)
    const faceNames = familyNames.get(run.fontFamily) ?? []
    familyNames.set(run.fontFamily, faceNames)
    const use = (face: SatoriFont): void => {
      chosen.add(face)
      if (!faceNames.includes(face.name)) faceNames.push(face.name)
    }
    for (const name of css) if (!faceNames.includes(name)) faceNames.push(name)

    // The latin subset always comes along: it has the ellipsis, digits and punctuation.
    const primarySubsets = subsetsOf(primary, run.weight, run.style)
    for (const subset of primarySubsets) if (subset.subset === 'latin') use(faceOf(subset))

    const missing = new Set<string>()
    for (const char of run.text) {
      if (IGNORABLE.test(char)) continue
      const cp = char.codePointAt(0)!
      const own = primarySubsets.find((s) => inRanges(s.ranges, cp))
      if (own) {
        use(faceOf(own))
        continue
      }
      if (custom) continue // A custom face may have it; satori asks loadAdditionalAsset if not.
      const fallback = findFallback(fallbacks, cp, run.weight, preferredCjk(run.text))
      if (fallback) use(faceOf(fallback))
      else if (!EMOJI.test(char)) missing.add(char)
    }
    if (missing.size > 0) warnings.push(missingGlyphs(run.key, [...missing]))
  }

  const customFaces = await Promise.all(customLoads)
  if (chosen.size === 0 && customFaces.length === 0) chosen.add(faceOf(subsetsOf(PRIMARY_FAMILIES[0]!, 400, 'normal').find((s) => s.subset === 'latin')!))
  const fonts = [...customFaces, ...chosen]

  return {
    fonts,
    familyFor: (fontFamily) => (familyNames.get(fontFamily) ?? ['Inter']).map((n) => JSON.stringify(n)).join(', '),
    loadAdditionalAsset: async (code, segment) => {
      if (code === 'emoji') {
        const uri = emojiDataUri(segment)
        if (uri) return uri
      }
      // satori found characters none of the chosen faces can draw (a range declared a
      // subset but its font lacks the glyph, or a custom face lacks it): try the fallbacks.
      const extra = new Set<SatoriFont>()
      const missing: string[] = []
      for (const char of segment) {
        if (IGNORABLE.test(char)) continue
        const subset = findFallback(fallbacks, char.codePointAt(0)!, 400, preferredCjk(segment))
        const face = subset ? faceOf(subset) : undefined
        if (face && !fonts.includes(face)) extra.add(face)
        else if (!face) missing.push(char)
      }
      if (missing.length > 0) warnings.push(missingGlyphs(undefined, missing))
      return [...extra]
    },
    warnings,
  }
}

// The scripts @litho/fonts-cjk draws: a missing one of these is worth naming the package for.
const CJK_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u

function missingGlyphsWarning(key: string | undefined, chars: string[], haveCjk: boolean): RenderWarning {
  const shown = chars.slice(0, 5).map((c) => `"${c}" (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`)
  const more = chars.length > 5 ? ` and ${chars.length - 5} more` : ''
  const hint = !haveCjk && chars.some((c) => CJK_SCRIPT.test(c)) ? `; install ${CJK_FONTS_PACKAGE} for Chinese, Japanese and Korean` : ''
  return {
    code: 'missing_glyphs',
    ...(key ? { key } : {}),
    message: `${key ? `${key}: ` : ''}no available font can draw ${shown.join(', ')}${more}; they render as empty boxes${hint}`,
  }
}

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u
const HANGUL = /\p{Script=Hangul}/u

/** Which CJK face should draw Han characters in this text: JP with kana, KR with hangul, else SC. */
function preferredCjk(text: string): string {
  if (KANA.test(text)) return 'Noto Sans JP'
  if (HANGUL.test(text)) return 'Noto Sans KR'
  return 'Noto Sans SC'
}

function findFallback(fallbacks: readonly BuiltinFamily[], cp: number, weight: number, cjk: string): FontSubset | undefined {
  const order = [...fallbacks].sort((a, b) => (a.name === cjk ? -1 : b.name === cjk ? 1 : 0))
  for (const family of order) {
    const subset = subsetsOf(family, weight, 'normal').find((s) => inRanges(s.ranges, cp))
    // Skip the latin subsets of fallback families: the primary family covers Latin better.
    if (subset && !/latin|symbols|math/.test(subset.subset)) return subset
  }
  return undefined
}
