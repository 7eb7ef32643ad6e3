// @litho/fonts-cjk is optional: found, its three families join the fallbacks; not installed,
// core renders without them; installed but broken, the error shows.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cjkFamiliesFrom, loadCjkFamilies } from '../../../src/render/fonts/cjk-fonts.js'

const notFound = (what: string) => Object.assign(new Error(`Cannot find package '${what}' imported from /app/node_modules/@litho/core/dist/index.js`), { code: 'ERR_MODULE_NOT_FOUND' })

describe('cjk fonts', () => {
  it('cjk fonts › installed: JP, KR and SC with their locales and a readable unicode.json', async () => {
    const families = await loadCjkFamilies()
    expect(families.map((f) => [f.name, f.lang])).toEqual([
      ['Noto Sans JP', 'ja-JP'],
      ['Noto Sans KR', 'ko-KR'],
      ['Noto Sans SC', 'zh-CN'],
    ])
    for (const family of families) expect(existsSync(join(family.directory!, 'unicode.json'))).toBe(true)
  })

  it('cjk fonts › not installed: no CJK families, no error', async () => {
    expect(await cjkFamiliesFrom(() => Promise.reject(notFound('@litho/fonts-cjk')))).toEqual([])
  })

  it('cjk fonts › installed without one of its own dependencies: the error is thrown, not hidden', async () => {
    await expect(cjkFamiliesFrom(() => Promise.reject(notFound('@fontsource/noto-sans-jp')))).rejects.toThrow("Cannot find package '@fontsource/noto-sans-jp'")
  })
})
