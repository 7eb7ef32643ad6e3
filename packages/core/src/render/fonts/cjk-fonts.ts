/**
 * The CJK fallback families (Noto Sans JP, KR, SC) live in the optional package
 * `@litho/fonts-cjk`, about 210 MB that most installs never draw. When it is installed they
 * join the fallbacks; when not, CJK characters render as empty boxes with a `missing_glyphs`
 * warning that names the package (docs/fonts-and-images.md#chinese-japanese-and-korean).
 *
 * @module render/fonts/cjk-fonts
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type { CjkFontFamily } from '@litho/fonts-cjk'
import type { BuiltinFamily } from './builtin-fonts.js'

/** The package name, for messages. */
export const CJK_FONTS_PACKAGE = '@litho/fonts-cjk'

/** What `@litho/fonts-cjk` exports that core reads. */
export interface CjkFontsModule {
  CJK_FONT_FAMILIES: readonly CjkFontFamily[]
}

/**
 * Imports `@litho/fonts-cjk`: from core itself (it is core's optional peer dependency, so a
 * package manager links it when the application installs it), else from the application's
 * main script, so `litho serve`, which depends on it, finds it where pnpm keeps each
 * package's dependencies to itself.
 */
async function importCjkFonts(): Promise<CjkFontsModule> {
  try {
    return await import('@litho/fonts-cjk')
  } catch (error) {
    const main = process.argv[1]
    if (!isNotInstalled(error) || !main) throw error
    let resolved: string
    try {
      resolved = createRequire(main).resolve(CJK_FONTS_PACKAGE)
    } catch {
      throw error
    }
    return (await import(pathToFileURL(resolved).href)) as CjkFontsModule
  }
}

/** True for the error of importing a package that is not installed (not for a broken one). */
function isNotInstalled(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && typeof message === 'string' && message.includes(CJK_FONTS_PACKAGE)
}

/**
 * The CJK families as fallbacks: those of `@litho/fonts-cjk`, or none when it is not installed.
 * Any other failure (a broken install) is thrown, not hidden.
 *
 * @example await cjkFamiliesFrom(() => import('@litho/fonts-cjk')) // [{ name: 'Noto Sans JP', … }, …]
 */
export async function cjkFamiliesFrom(load: () => Promise<CjkFontsModule>): Promise<BuiltinFamily[]> {
  let module: CjkFontsModule
  try {
    module = await load()
  } catch (error) {
    if (isNotInstalled(error)) return []
    throw error
  }
  return module.CJK_FONT_FAMILIES.map((family) => ({ name: family.name, pkg: family.pkg, weights: family.weights, italic: false, lang: family.lang, directory: family.directory }))
}

// Once per process (or worker thread): whether the package is installed does not change.
let loaded: Promise<BuiltinFamily[]> | undefined

/** The CJK families of `@litho/fonts-cjk` when it is installed, else `[]`; imported once. */
export function loadCjkFamilies(): Promise<BuiltinFamily[]> {
  loaded ??= cjkFamiliesFrom(importCjkFonts)
  return loaded
}
