/**
 * Noto Sans JP, KR and SC for Litho: the Chinese, Japanese and Korean fallback fonts, kept out
 * of `@litho/core` because they are most of its install size (about 210 MB of the @fontsource
 * packages). `@litho/core` imports this package when it is installed and draws CJK text with
 * it; without it, CJK characters render as empty boxes with a `missing_glyphs` warning
 * (docs/fonts-and-images.md).
 *
 * @module @litho/fonts-cjk
 */
import { createRequire } from 'node:module'
import { dirname } from 'node:path'

const require = createRequire(import.meta.url)

/** One CJK family: what `@litho/core` needs to load the unicode-range subsets a text uses. */
export interface CjkFontFamily {
  /** The family name documents use and satori gets, e.g. `"Noto Sans JP"`. */
  readonly name: string
  /** The @fontsource package that ships it. */
  readonly pkg: string
  /** The satori locale: Han characters are drawn in the shapes of this language. */
  readonly lang: 'ja-JP' | 'ko-KR' | 'zh-CN'
  /** The weights every subset has. */
  readonly weights: readonly number[]
  /** The package's directory: `unicode.json` and `files/<slug>-<subset>-<weight>-normal.woff2`. */
  readonly directory: string
}

const WEIGHTS = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const

/** The directory of an installed @fontsource package (they all export their package.json). */
function directoryOf(pkg: string): string {
  return dirname(require.resolve(`${pkg}/package.json`))
}

/**
 * The CJK families, in the order core tries them for a Han character it cannot place by kana
 * or hangul: core prefers JP for text with kana, KR with hangul, else SC.
 *
 * @example
 * import { CJK_FONT_FAMILIES } from '@litho/fonts-cjk'
 * CJK_FONT_FAMILIES.map((family) => family.name) // ['Noto Sans JP', 'Noto Sans KR', 'Noto Sans SC']
 */
export const CJK_FONT_FAMILIES: readonly CjkFontFamily[] = [
  { name: 'Noto Sans JP', pkg: '@fontsource/noto-sans-jp', lang: 'ja-JP', weights: WEIGHTS, directory: directoryOf('@fontsource/noto-sans-jp') },
  { name: 'Noto Sans KR', pkg: '@fontsource/noto-sans-kr', lang: 'ko-KR', weights: WEIGHTS, directory: directoryOf('@fontsource/noto-sans-kr') },
  { name: 'Noto Sans SC', pkg: '@fontsource/noto-sans-sc', lang: 'zh-CN', weights: WEIGHTS, directory: directoryOf('@fontsource/noto-sans-sc') },
]
