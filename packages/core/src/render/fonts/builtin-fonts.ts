/**
 * The fonts that work with no configuration and no network: Inter (sans-serif), Noto Serif
 * (serif) and JetBrains Mono (monospace), with Noto Sans Arabic and Hebrew as fallbacks, and
 * Noto Sans JP, KR and SC when the optional `@litho/fonts-cjk` is installed (`cjk-fonts.ts`).
 * They come from @fontsource npm packages, which split each face into unicode-range subsets;
 * we load only the subsets a document's text needs.
 *
 * @module render/fonts/builtin-fonts
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/** A built-in family and the npm package that ships it. */
export interface BuiltinFamily {
  /** The family name used in documents and passed to satori. */
  name: string
  /** The @fontsource package. */
  pkg: string
  weights: readonly number[]
  italic: boolean
  /** satori locale for fallback faces whose glyph shapes depend on the language (CJK). */
  lang?: string
  /** The package's directory, when another package resolved it (`@litho/fonts-cjk`). */
  directory?: string
}

/** One subset file of a family at one weight and style. */
export interface FontSubset {
  family: string
  weight: number
  style: 'normal' | 'italic'
  subset: string
  file: string
  /** Sorted, non-overlapping inclusive code point ranges. */
  ranges: ReadonlyArray<readonly [number, number]>
  lang?: string
}

const W9 = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const

/** Primary families: what `sans-serif`, `serif` and `monospace` resolve to. */
export const PRIMARY_FAMILIES: readonly BuiltinFamily[] = [
  { name: 'Inter', pkg: '@fontsource/inter', weights: W9, italic: true },
  { name: 'Noto Serif', pkg: '@fontsource/noto-serif', weights: W9, italic: true },
  { name: 'JetBrains Mono', pkg: '@fontsource/jetbrains-mono', weights: [100, 200, 300, 400, 500, 600, 700, 800], italic: true },
]

/**
 * Fallback families of core, tried in this order for characters the primary family lacks; the
 * CJK families of `@litho/fonts-cjk` come after them when installed.
 */
export const FALLBACK_FAMILIES: readonly BuiltinFamily[] = [
  { name: 'Noto Sans Arabic', pkg: '@fontsource/noto-sans-arabic', weights: W9, italic: false },
  { name: 'Noto Sans Hebrew', pkg: '@fontsource/noto-sans-hebrew', weights: W9, italic: false },
]

/** CSS generic families and the built-in family each one means. */
export const GENERIC_FAMILIES: Readonly<Record<string, string>> = {
  'sans-serif': 'Inter',
  'system-ui': 'Inter',
  'ui-sans-serif': 'Inter',
  serif: 'Noto Serif',
  'ui-serif': 'Noto Serif',
  monospace: 'JetBrains Mono',
  'ui-monospace': 'JetBrains Mono',
}

/** Parses a CSS unicode-range list ("U+0000-00FF,U+0131") into sorted ranges. */
export function parseUnicodeRange(value: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  for (const part of value.split(',')) {
    const m = /^\s*U\+([0-9a-f?]+)(?:-([0-9a-f]+))?\s*$/i.exec(part)
    if (!m?.[1]) continue
    if (m[1].includes('?')) {
      ranges.push([parseInt(m[1].replace(/\?/g, '0'), 16), parseInt(m[1].replace(/\?/g, 'f'), 16)])
    } else {
      const start = parseInt(m[1], 16)
      ranges.push([start, m[2] ? parseInt(m[2], 16) : start])
    }
  }
  return ranges.sort((a, b) => a[0] - b[0])
}

/** True when `cp` is inside one of the sorted `ranges` (binary search). */
export function inRanges(ranges: ReadonlyArray<readonly [number, number]>, cp: number): boolean {
  let lo = 0
  let hi = ranges.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const range = ranges[mid]!
    if (cp < range[0]) hi = mid - 1
    else if (cp > range[1]) lo = mid + 1
    else return true
  }
  return false
}

// Package directory and unicode ranges per package, read once per process: the set of
// packages is fixed, so these maps are bounded by it.
const packageDirs = new Map<string, string>()
const packageRanges = new Map<string, Record<string, Array<[number, number]>>>()

function packageDir(family: BuiltinFamily): string {
  let dir = family.directory ?? packageDirs.get(family.pkg)
  if (!dir) {
    // @fontsource packages export only ./files/*, so resolve a file and walk up from it.
    const slug = family.pkg.split('/')[1]!
    const sample = require.resolve(`${family.pkg}/files/${slug}-latin-400-normal.woff2`, {})
    dir = dirname(dirname(sample))
    packageDirs.set(family.pkg, dir)
  }
  return dir
}

function rangesOf(family: BuiltinFamily): Record<string, Array<[number, number]>> {
  let ranges = packageRanges.get(family.pkg)
  if (!ranges) {
    const raw = JSON.parse(readFileSync(join(packageDir(family), 'unicode.json'), 'utf8')) as Record<string, string>
    ranges = Object.fromEntries(Object.entries(raw).map(([subset, value]) => [subset, parseUnicodeRange(value)]))
    packageRanges.set(family.pkg, ranges)
  }
  return ranges
}

/** The weight CSS font matching would pick from `available` for `wanted`. */
export function nearestWeight(available: readonly number[], wanted: number): number {
  if (available.includes(wanted)) return wanted
  // CSS Fonts 4 §5.2: 400 tries 500 first; below 400 look lighter first; above 500 look heavier first.
  const lighter = available.filter((w) => w < wanted).sort((a, b) => b - a)
  const heavier = available.filter((w) => w > wanted).sort((a, b) => a - b)
  if (wanted === 400 && available.includes(500)) return 500
  if (wanted <= 500) return lighter[0] ?? heavier[0] ?? 400
  return heavier[0] ?? lighter[0] ?? 400
}

const subsetCache = new Map<string, FontSubset[]>()

/** Every subset file of `family` at the face closest to `weight`/`style`. */
export function subsetsOf(family: BuiltinFamily, weight: number, style: 'normal' | 'italic'): FontSubset[] {
  const w = nearestWeight(family.weights, weight)
  const s = style === 'italic' && family.italic ? 'italic' : 'normal'
  const cacheKey = `${family.pkg}|${w}|${s}`
  let subsets = subsetCache.get(cacheKey)
  if (!subsets) {
    const slug = family.pkg.split('/')[1]!
    const dir = join(packageDir(family), 'files')
    subsets = Object.entries(rangesOf(family)).map(([subset, ranges]) => ({
      family: family.name,
      weight: w,
      style: s,
      subset,
      // CJK subsets are keyed "[12]" in unicode.json and named "-12-" in files.
      file: join(dir, `${slug}-${subset.replace(/^\[(\d+)\]$/, '$1')}-${w}-${s}.woff2`),
      ranges,
      ...(family.lang ? { lang: family.lang } : {}),
    }))
    subsetCache.set(cacheKey, subsets)
  }
  return subsets
}

/** Finds a built-in family by name, case-insensitively, among the primaries and `fallbacks`. */
export function findBuiltinFamily(name: string, fallbacks: readonly BuiltinFamily[] = FALLBACK_FAMILIES): BuiltinFamily | undefined {
  const lower = name.toLowerCase()
  return [...PRIMARY_FAMILIES, ...fallbacks].find((f) => f.name.toLowerCase() === lower)
}
